/**
 * The promises of the Linux sandbox, on real bubblewrap: each test runs a real shell command in
 * an agent's scratch copy the way `run_command` does (scratch copy in mount mode, allow-listed
 * environment, `sandboxRequest`, `runShellCommand`).
 */
import {
	lstatSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandSandbox } from '../../../src/core/exec/sandbox/commandSandbox.js';
import { commandEnvironment } from '../../../src/core/exec/sandbox/commandEnvironment.js';
import { detectSandbox } from '../../../src/core/exec/sandbox/detectSandbox.js';
import { sandboxRequest } from '../../../src/core/exec/sandbox/sandboxRequest.js';
import { runShellCommand } from '../../../src/core/exec/commandRunner.js';
import { ScratchCopy } from '../../../src/core/exec/commandScratch.js';
import { RunSnapshot } from '../../../src/core/workspace/runSnapshot.js';
import { hashFiles } from '../../support/tempTree.js';

const detection =
	process.platform === 'linux' ? await detectSandbox() : { sandbox: null, reason: 'not Linux' };
const secrets = {
	OPENAI_API_KEY: 'sk-test-sandbox-1',
	DATABASE_URL: 'postgres://u:pw-sandbox@h/db',
	GH_PAT: 'ghp_sandbox_2',
};

const made: string[] = [];
afterAll(() => {
	for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A workspace outside the OS temp folder (so hiding it is the sandbox's own doing), with a dependency and a secret. */
function workspace(): string {
	const root = mkdtempSync(join('/var/tmp', 'massgen-sbx-ws-'));
	made.push(root);
	const files: Record<string, string> = {
		'README.md': '# project\n',
		'src/app.ts': 'export const app = 1;\n',
		'.env': 'SECRET=dotenv-sandbox-3\n',
		'.git/config': '[core]\n',
		'node_modules/x/index.js': 'module.exports = 42;\n',
		'node_modules/x/package.json': '{"name":"x","main":"index.js"}\n',
	};
	for (const [path, content] of Object.entries(files)) {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), content);
	}
	return root;
}

async function inSandbox(
	sandbox: CommandSandbox,
	root: string,
	command: string,
	options: {
		label?: string;
		network?: boolean;
		copy?: ScratchCopy;
		edits?: ReadonlyMap<string, string | null>;
		timeoutMs?: number;
		signal?: AbortSignal;
	} = {},
) {
	const copy =
		options.copy ??
		new ScratchCopy({ workspaceRoot: root, label: options.label ?? 'sbx', dependencies: 'mount' });
	const scratch = await copy.prepare(options.edits ?? new Map(), new RunSnapshot(root));
	const home = copy.homeDir!;
	const env = commandEnvironment(
		{ ...process.env, ...secrets },
		{ home, tempDir: sandbox.tempDir ?? join(home, 'tmp'), ceiling: dirname(scratch) },
	);
	const request = sandboxRequest(
		{
			workspaceRoot: root,
			hostHome: process.env['HOME'],
			tempRoot: tmpdir(),
			path: env['PATH'],
			execPath: process.execPath,
		},
		{
			scratchDir: scratch,
			cwd: scratch,
			homeDir: home,
			dependencyMounts: copy.dependencyMounts,
			network: options.network ?? false,
		},
	);
	const result = await runShellCommand({
		command,
		cwd: scratch,
		env,
		wrap: (argv) => sandbox.wrap(argv, request),
		timeoutMs: options.timeoutMs ?? 20_000,
		maxOutputBytes: 256 * 1024,
		signal: options.signal ?? new AbortController().signal,
	});
	return { ...result, scratch, copy };
}

describe.runIf(detection.sandbox !== null)('bubblewrap sandbox (real)', () => {
	const sandbox = detection.sandbox!;
	let server: Server;
	let port = 0;
	beforeAll(async () => {
		server = createServer((_, response) => response.end('host-secret-page'));
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		port = (server.address() as AddressInfo).port;
	});
	afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

	it('only the scratch copy is writable: the real workspace (through node_modules/..), /tmp, $HOME and the system are not', async () => {
		const root = workspace();
		const outside = mkdtempSync(join(tmpdir(), 'massgen-sbx-outside-'));
		made.push(outside);
		writeFileSync(join(outside, 'target.txt'), 'untouched\n');
		const before = { root: hashFiles(root), outside: hashFiles(outside) };
		const run = await inSandbox(
			sandbox,
			root,
			[
				'sort -onode_modules/../src/app.ts README.md',
				'echo x > node_modules/../a.txt',
				'echo x > node_modules/x/index.js',
				`echo x > ${root}/README.md`,
				`echo x > ${outside}/target.txt`,
				`echo x > ${outside}/new.txt`,
				`echo x > ${process.env['HOME']}/massgen-sbx-probe`,
				'echo x > /etc/massgen-sbx-probe',
				'echo ok > scratch-file.txt && cat scratch-file.txt',
				'echo ok > "$HOME/home-file" && echo ok > "$TMPDIR/tmp-file" && echo home-and-tmp-ok',
			].join('; '),
		);
		expect(run.output).toMatch(/Read-only file system/);
		expect(run.output).toContain('home-and-tmp-ok');
		// The copy and its home are private to this user (a setuid file left there is of no use to others).
		for (const dir of [run.scratch, run.copy.homeDir!]) expect(statSync(dir).mode & 0o777).toBe(0o700);
		expect(readFileSync(join(run.scratch, 'scratch-file.txt'), 'utf8')).toBe('ok\n');
		expect(hashFiles(root)).toEqual(before.root);
		expect(hashFiles(outside)).toEqual(before.outside);
		expect(() => statSync(join(process.env['HOME']!, 'massgen-sbx-probe'))).toThrow();
		expect(() => statSync('/etc/massgen-sbx-probe')).toThrow();
		await run.copy.dispose();
	});

	it("the real workspace, other agents' copies and the host /tmp are invisible", async () => {
		const root = workspace();
		const other = new ScratchCopy({ workspaceRoot: root, label: 'other-agent', dependencies: 'mount' });
		const otherDir = await other.prepare(new Map(), new RunSnapshot(root));
		const run = await inSandbox(
			sandbox,
			root,
			`cat ${root}/.env; cat node_modules/../.env; ls ${otherDir}; ls -A ${root} | wc -l; ls /tmp`,
		);
		expect(run.output).not.toContain('dotenv-sandbox-3');
		expect(run.output).toMatch(new RegExp(`cannot access '${otherDir}'`));
		expect(run.output).toMatch(/^0$/m);
		// /tmp holds only this agent's copy and home (mount points), nothing of the host's.
		const tmpListing = run.output.trim().split('\n').slice(-2);
		expect(tmpListing.sort()).toEqual(
			[run.scratch, run.copy.homeDir!].map((path) => path.slice('/tmp/'.length)).sort(),
		);
		await Promise.all([run.copy.dispose(), other.dispose()]);
	});

	it('other folders of user data are hidden too: a checkout beside the workspace, /var/tmp, /home, /mnt, /srv (and /root but its tool folders); the system stays readable (control)', async () => {
		const root = workspace();
		const sibling = mkdtempSync(join('/var/tmp', 'massgen-sbx-sibling-'));
		made.push(sibling);
		writeFileSync(join(sibling, '.env'), 'SIBLING=sibling-secret-4\n');
		const run = await inSandbox(
			sandbox,
			root,
			`cat ${sibling}/.env; for d in /var/tmp /home /mnt /srv; do ls -A $d 2>/dev/null; done | wc -l; head -c 4 /etc/passwd`,
		);
		expect(run.output).not.toContain('sibling-secret-4');
		// Empty (or absent) wherever they are; /etc still reads.
		expect(run.output).toMatch(/^0$/m);
		expect(run.output).toContain('root');
		await run.copy.dispose();
	});

	it('no capabilities, even when started by root: what hides the workspace cannot be unmounted, / cannot be remounted writable', async () => {
		const root = workspace();
		const before = hashFiles(root);
		const run = await inSandbox(
			sandbox,
			root,
			[
				'grep CapEff /proc/self/status',
				`umount ${root} && echo UNMOUNTED`,
				'mount -o remount,bind,rw / && echo REMOUNTED',
				`unshare -Urm sh -c 'umount ${root}; mount -o remount,bind,rw /; echo NESTED'`,
				`cat ${root}/.env`,
				`echo x > ${root}/README.md`,
			].join('; '),
		);
		expect(run.output).toMatch(/CapEff:\s+0+\n/);
		expect(run.output).not.toMatch(/UNMOUNTED|REMOUNTED|NESTED|dotenv-sandbox-3/);
		expect(hashFiles(root)).toEqual(before);
		await run.copy.dispose();
	});

	it("a new PID namespace: /proc shows only the sandbox, so no other process's environment can be read", async () => {
		const run = await inSandbox(
			sandbox,
			workspace(),
			`ls /proc | grep -E '^[0-9]+$' | wc -l; cat /proc/${process.pid}/environ; echo $PPID | sed 's/.*/cat \\/proc\\/&\\/environ/e'; echo done`,
		);
		const count = Number(run.output.trim().split('\n')[0]);
		expect(count).toBeGreaterThan(0);
		expect(count).toBeLessThan(8);
		expect(run.output).toContain('done');
		for (const value of Object.values(secrets)) expect(run.output).not.toContain(value);
		await run.copy.dispose();
	});

	it('no network: a loopback server on the host is unreachable (and reachable when allowed)', async () => {
		const fetchIt = `node -e "fetch('http://127.0.0.1:${port}/').then(r => r.text()).then(t => console.log('got', t), e => console.log('failed', e.cause?.code ?? e.message))"`;
		const blocked = await inSandbox(sandbox, workspace(), fetchIt);
		expect(blocked.output).toMatch(/^failed /m);
		expect(blocked.output).not.toContain('host-secret-page');
		await blocked.copy.dispose();
		const allowed = await inSandbox(sandbox, workspace(), fetchIt, { network: true });
		expect(allowed.output).toContain('got host-secret-page');
		await allowed.copy.dispose();
	});

	it('the environment has only allow-listed names, HOME is the scratch home', async () => {
		const run = await inSandbox(sandbox, workspace(), 'env');
		const names = run.output
			.trim()
			.split('\n')
			.map((line) => line.split('=')[0]!)
			.filter((name) => name !== '');
		const allowed = [
			'PATH',
			'LANG',
			'LANGUAGE',
			'TZ',
			'HOME',
			'TMPDIR',
			'CI',
			'PAGER',
			'GIT_PAGER',
			'GIT_TERMINAL_PROMPT',
			'NO_COLOR',
			'FORCE_COLOR',
			'TERM',
			'GIT_CEILING_DIRECTORIES',
			'PWD',
			'SHLVL',
			'OLDPWD',
			'_',
		];
		for (const name of names) expect(name.startsWith('LC_') || allowed.includes(name), name).toBe(true);
		expect(run.output).toContain(`HOME=${run.copy.homeDir}`);
		for (const value of Object.values(secrets)) expect(run.output).not.toContain(value);
		await run.copy.dispose();
	});

	it('dependency folders are read-only inside but usable', async () => {
		const root = workspace();
		const run = await inSandbox(
			sandbox,
			root,
			`node -e "console.log('x =', require('x'))"; touch node_modules/new-file; rm -rf node_modules/x; echo "left: $(ls node_modules)"`,
		);
		expect(run.output).toContain('x = 42');
		expect(run.output).toMatch(/touch: cannot touch 'node_modules\/new-file': Read-only file system/);
		// One line of its own: stdout and stderr are separate pipes, so rm's errors may come after it.
		expect(run.output).toMatch(/^left: x$/m);
		expect(readFileSync(join(root, 'node_modules/x/index.js'), 'utf8')).toBe('module.exports = 42;\n');
		await run.copy.dispose();
	});

	it('a link a command leaves in the copy never redirects the next overlay write to the host', async () => {
		const root = workspace();
		const before = hashFiles(root);
		const copy = new ScratchCopy({ workspaceRoot: root, label: 'links', dependencies: 'mount' });
		await inSandbox(
			sandbox,
			root,
			`ln -sf ${root}/README.md src/app.ts; ln -sf ${root}/.git/config notes.md`,
			{ copy },
		);
		// The agent then edits both paths: the next command sees them as plain files, and links one again.
		const edits = new Map([
			['src/app.ts', 'edited\n'],
			['notes.md', 'notes\n'],
		]);
		const second = await inSandbox(
			sandbox,
			root,
			`cat src/app.ts notes.md; ln -sf ${root}/README.md src/app.ts`,
			{ copy, edits },
		);
		expect(second.output).toBe('edited\nnotes\n');
		// The overlay drops the edits: the workspace's version comes back, again not through the link.
		await copy.prepare(new Map(), new RunSnapshot(root));
		expect(lstatSync(join(second.scratch, 'src/app.ts')).isFile()).toBe(true);
		expect(readFileSync(join(second.scratch, 'src/app.ts'), 'utf8')).toBe('export const app = 1;\n');
		expect(hashFiles(root)).toEqual(before);
		await copy.dispose();
	});

	it('a timeout or a cancel ends the sandbox and everything in it at once', async () => {
		// A distinctive argument to find leftovers by in the host's process table.
		const marker = '43.21';
		const cmdline = (pid: string) => {
			try {
				return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
			} catch {
				return ''; // gone meanwhile
			}
		};
		const leftovers = () =>
			readdirSync('/proc').filter((pid) => /^\d+$/.test(pid) && cmdline(pid).includes(`sleep\0${marker}`));
		const started = Date.now();
		const timedOut = await inSandbox(sandbox, workspace(), `sleep ${marker} & sleep ${marker}`, {
			timeoutMs: 500,
		});
		expect(timedOut.timedOut).toBe(true);
		expect(Date.now() - started).toBeLessThan(5000);
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 300);
		const cancelled = await inSandbox(sandbox, workspace(), `sleep ${marker}`, { signal: controller.signal });
		expect(cancelled.cancelled).toBe(true);
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(leftovers()).toEqual([]);
		await Promise.all([timedOut.copy.dispose(), cancelled.copy.dispose()]);
	});

	it('background jobs end with the command (the PID namespace dies with it)', async () => {
		const root = workspace();
		const copy = new ScratchCopy({ workspaceRoot: root, label: 'bg', dependencies: 'mount' });
		const started = Date.now();
		const first = await inSandbox(
			sandbox,
			root,
			'(sleep 2; echo late > late.txt) > /dev/null 2>&1 & echo started',
			{ copy },
		);
		expect(first.output).toContain('started');
		await new Promise((resolve) => setTimeout(resolve, 2500));
		expect(() => statSync(join(first.scratch, 'late.txt'))).toThrow();
		expect(Date.now() - started).toBeLessThan(10_000);
		await copy.dispose();
	});
});
