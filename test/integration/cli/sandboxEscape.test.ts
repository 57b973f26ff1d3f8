/**
 * The one sandbox profile (`sandboxProfile.ts`) holds for commands and coding-agent CLIs alike:
 * the same escape script is run in the command sandbox, in both CLI sandboxes (Claude Code's,
 * Codex's with nested user namespaces) and, end to end, as a `cli_path` stand-in started by
 * dist/cli.js for a `claude_code` and a `codex` agent. Each escape must fail there; the controls
 * (the same script outside, and in the CLI sandbox as it was before: PID namespace only, every
 * capability kept) show each one works where nothing stops it. The user's data is hidden in each
 * alike: a file in `$HOME`, in a sibling folder of the workspace, in `/var/tmp`.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliSandboxArgs } from '../../../src/core/providers/codingAgents/cliSandbox.js';
import { bubblewrapArgs } from '../../../src/core/exec/sandbox/bubblewrap.js';
import { sandboxRequest } from '../../../src/core/exec/sandbox/sandboxRequest.js';
import { detectSandbox } from '../../../src/core/exec/sandbox/detectSandbox.js';
import { runCli } from './cliProcess.js';

const detection = process.platform === 'linux' ? await detectSandbox() : null;
const bwrap = '/usr/bin/bwrap';
const isRoot = process.getuid?.() === 0;
/** In the environment of the process that starts the sandbox, never passed into it. */
const marker = 'MASSGEN_ESCAPE_MARKER';

const made: string[] = [];
afterAll(() => {
	for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A folder outside the OS temp folder (which every sandbox hides). */
function varTmp(prefix: string): string {
	const dir = mkdtempSync(join('/var/tmp', prefix));
	made.push(dir);
	return dir;
}

type Escape =
	'umount' | 'tmp' | 'remount' | 'vartmp' | 'unshare' | 'nested' | 'environ' | 'home' | 'sibling' | 'vardata';
const allEscapes: readonly Escape[] = [
	'umount',
	'tmp',
	'remount',
	'vartmp',
	'unshare',
	'nested',
	'environ',
	'home',
	'sibling',
	'vardata',
];

/** Files of the user's the sandboxes must not read: in `$HOME`, beside the workspace, in `/var/tmp`. */
interface UserData {
	readonly home: string;
	readonly sibling: string;
	readonly vardata: string;
}

/** Everything fails in a sandbox but `unshare` (Codex's own bubblewrap needs it). */
const allFail = (unshare: 'ok' | 'fail') =>
	Object.fromEntries(allEscapes.map((escape) => [escape, escape === 'unshare' ? unshare : 'fail']));

/**
 * The script: each escape named in its arguments (all without any) is tried in order and reported as
 * `name=ok` (it worked) or `name=fail`. `hostTmpProbe` is a folder in the host's /tmp (another
 * run's, as far as the sandbox knows); `written` a file in the host's /var/tmp.
 */
function escapeScript(hostTmpProbe: string, written: string, data: UserData, report?: string): string {
	const lines = [
		'#!/bin/sh',
		'out=""',
		'say() { out="$out$1=$2\n"; }',
		'try() { name=$1; shift; if "$@" >/dev/null 2>&1; then say "$name" ok; else say "$name" fail; fi; }',
		// As a CLI stand-in its arguments are the CLI's: it tries every escape.
		report === undefined
			? '[ $# -gt 0 ] || set -- ' + allEscapes.join(' ')
			: `set -- ${allEscapes.join(' ')}`,
		'for e in "$@"; do case $e in',
		'  umount) try umount umount /tmp ;;',
		`  tmp) try tmp test -d ${hostTmpProbe} ;;`,
		'  remount) try remount mount -o remount,bind,rw / ;;',
		`  vartmp) try vartmp sh -c 'echo escaped > ${written}' ;;`,
		'  unshare) try unshare unshare -Ur true ;;',
		"  nested) try nested unshare -Urm sh -c 'umount /tmp 2>/dev/null || mount -o remount,bind,rw / 2>/dev/null' ;;",
		`  environ) try environ sh -c 'cat /proc/[0-9]*/environ 2>/dev/null | tr "\\0" "\\n" | grep -q "^${marker}="' ;;`,
		`  home) try home cat ${data.home} ;;`,
		`  sibling) try sibling cat ${data.sibling} ;;`,
		`  vardata) try vardata cat ${data.vardata} ;;`,
		'esac; done',
		report === undefined
			? 'printf "%b" "$out"'
			: `printf "%b" "$out" | curl -s --max-time 5 --data-binary @- ${report} >/dev/null`,
		// As a CLI stand-in it has nothing more to say: the adapter sees a CLI that ended.
		'exit 1',
	];
	return `${lines.join('\n')}\n`;
}

function parse(text: string): Record<string, string> {
	return Object.fromEntries(
		text
			.trim()
			.split('\n')
			.filter((line) => line.includes('='))
			.map((line) => line.split('=') as [string, string]),
	);
}

/** Runs `argv` from a parent shell that carries the marker (so /proc shows it outside), without it. */
function run(argv: readonly string[]): Promise<Record<string, string>> {
	return new Promise((resolve, reject) => {
		const quoted = argv.map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
		const child = spawn('/bin/sh', ['-c', `env -u ${marker} ${quoted}; true`], {
			env: { PATH: process.env.PATH, [marker]: 'visible' },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.once('error', reject);
		child.once('close', () => resolve(parse(stdout)));
	});
}

describe.skipIf(detection?.sandbox?.mode !== 'bubblewrap' || !existsSync(bwrap))(
	'one sandbox profile: the escapes fail in the command sandbox and both CLI sandboxes',
	() => {
		let probe: string;
		let written: string;
		let script: string;
		let folder: string;
		let home: string;
		let data: UserData;
		let userHome: string;
		let projects: string;
		let workspace: string;
		beforeAll(() => {
			// The user's home and projects outside every other hidden root (the checkout, unless it is
			// under /home itself), so each read fails by its own rule: `$HOME`, the workspace's parent.
			const user = mkdtempSync(join(process.cwd(), '.massgen-escape-user-'));
			made.push(user);
			userHome = join(user, 'home');
			projects = join(user, 'projects');
			workspace = join(projects, 'ws');
			mkdirSync(join(userHome, '.ssh'), { recursive: true });
			mkdirSync(join(projects, 'other'), { recursive: true });
			mkdirSync(workspace);
			const vardata = join(varTmp('massgen-escape-data-'), 'notes');
			data = { home: join(userHome, '.ssh', 'id_rsa'), sibling: join(projects, 'other', '.env'), vardata };
			for (const file of Object.values(data)) writeFileSync(file, 'secret\n');
			probe = mkdtempSync(join(tmpdir(), 'massgen-other-run-'));
			made.push(probe);
			const dir = varTmp('massgen-escape-');
			written = join(dir, 'written-on-host');
			script = join(dir, 'escape.sh');
			writeFileSync(script, escapeScript(probe, written, data));
			chmodSync(script, 0o755);
			folder = join(dir, 'folder');
			home = join(dir, 'home');
			mkdirSync(folder);
			mkdirSync(home);
		});
		const fresh = () => rmSync(written, { force: true });

		it('controls: outside a sandbox, and in the CLI sandbox as it was (PID namespace only), each escape works', async () => {
			fresh();
			const outside = await run([script, 'vartmp', 'unshare', 'environ', 'home', 'sibling', 'vardata']);
			expect(outside).toEqual({
				vartmp: 'ok',
				unshare: 'ok',
				environ: 'ok',
				home: 'ok',
				sibling: 'ok',
				vardata: 'ok',
			});
			fresh();
			// Root keeps every capability in a bare bubblewrap: what the issue saw.
			const before = [
				bwrap,
				...['--die-with-parent', '--unshare-pid', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'],
				...['--tmpfs', '/tmp', '--tmpfs', '/run', '--bind', folder, folder, '--chdir', folder, '--', script],
			];
			const bare = await run([...before, 'umount', 'tmp', 'remount', 'vartmp', 'nested']);
			if (isRoot) {
				expect(bare).toEqual({ umount: 'ok', tmp: 'ok', remount: 'ok', vartmp: 'ok', nested: 'ok' });
			} else expect(bare.umount).toBe('fail');
			expect(existsSync(written)).toBe(isRoot);
			fresh();
		});

		const cli = (nested: boolean) => [
			bwrap,
			...cliSandboxArgs({
				folder,
				writable: [home],
				dependencyMounts: [],
				hidden: [workspace],
				hostHome: userHome,
				// The script's folder (in the hidden /var/tmp) comes back as the CLI's install.
				install: dirname(script),
				nestedUserNamespaces: nested,
			}),
			'--',
			script,
		];
		const command = () => [
			bwrap,
			...bubblewrapArgs(
				sandboxRequest(
					// The script's folder comes back as a PATH folder under a hidden one.
					{ workspaceRoot: workspace, hostHome: userHome, path: dirname(script) },
					{ scratchDir: folder, cwd: folder, homeDir: home, dependencyMounts: [], network: false },
				),
			),
			'--',
			script,
		];

		it.each([
			['the command sandbox', command, 'fail'],
			["Claude Code's CLI sandbox", () => cli(false), 'fail'],
			// Codex sandboxes its patches with its own bubblewrap: a user namespace is allowed, its mounts stay locked.
			["Codex's CLI sandbox", () => cli(true), 'ok'],
		] as const)('%s: no escape works', async (_name, argv, unshare) => {
			fresh();
			const result = await run(argv());
			expect(result).toEqual(allFail(unshare));
			expect(existsSync(written)).toBe(false);
		});

		describe('end to end: a cli_path stand-in started by dist/cli.js', () => {
			let server: Server;
			let reports: string[];
			let url: string;
			beforeAll(async () => {
				reports = [];
				server = createServer((request, response) => {
					let body = '';
					request.on('data', (chunk: Buffer) => (body += chunk.toString()));
					request.on('end', () => {
						reports.push(body);
						response.end('ok');
					});
				});
				await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
				url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
				return () => new Promise<void>((resolve) => server.close(() => resolve()));
			});

			it.each([
				['claude_code', 'claude', 'ANTHROPIC_API_KEY', 'fail'],
				['codex', 'codex', 'OPENAI_API_KEY', 'ok'],
			] as const)('%s: every escape fails inside its sandbox', async (type, binary, keyName, unshare) => {
				fresh();
				const outside = varTmp('massgen-escape-cli-');
				// Codex's install folder is the binary's grandparent (its native package layout).
				mkdirSync(join(outside, 'pkg', 'bin'), { recursive: true });
				const standIn = join(outside, 'pkg', 'bin', binary);
				// The user's home is the one the CLI is started with.
				const ssh = join(outside, '.ssh');
				mkdirSync(ssh);
				writeFileSync(join(ssh, 'id_rsa'), 'secret\n');
				writeFileSync(standIn, escapeScript(probe, written, { ...data, home: join(ssh, 'id_rsa') }, url));
				chmodSync(standIn, 0o755);
				// Beside the user's other project (`projects/other/.env`).
				const root = mkdtempSync(join(projects, 'ws-'));
				writeFileSync(join(root, 'a.txt'), 'a\n');
				// The user's own config (outside the workspace): trusted as it always was.
				const config = join(outside, 'team.yaml');
				const yaml = ['agents:', '  - id: coder', '    backend:', `      type: ${type}`];
				yaml.push('      model: default', `      cli_path: ${standIn}`, '');
				writeFileSync(config, yaml.join('\n'));
				const before = reports.length;
				const result = await runCli(['run', '--config', config, 'Look around.'], {
					cwd: root,
					env: { [keyName]: 'escape-test-key', HOME: outside, [marker]: 'visible' },
					deadlineMs: 20_000,
				});
				expect(result.code).not.toBe(0);
				expect(reports.length).toBeGreaterThan(before);
				for (const report of reports.slice(before)) expect(parse(report)).toEqual(allFail(unshare));
				expect(existsSync(written)).toBe(false);
				expect(realpathSync(root)).toBeTruthy();
			});
		});
	},
);
