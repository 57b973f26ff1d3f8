import { execFile, execFileSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	realpathSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, sep } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe } from '../cli/serveProcess.js';
import { startLoopbackTeam } from '../../servers/loopbackTeam.js';
import { cliPackageFiles, cliPackageName, npmCommand, packCli } from '../../scripts/packCli.js';
import { readResult, runDirs } from '../../support/runDir.js';
import { hashTree, makeWorkspaceDir } from '../../support/tempTree.js';

const repo = join(__dirname, '..', '..', '..');
const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string };

interface Exit {
	readonly code: number | string | undefined;
	readonly stdout: string;
	readonly stderr: string;
}

/** Every file under `dir`, relative to it. */
function filesOf(dir: string, folder = dir): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? filesOf(dir, join(folder, entry.name)) : [relative(dir, join(folder, entry.name))],
	);
}

/**
 * The CLI where there is no checkout: `npm run pack:cli`'s tarball (test/scripts/packCli.ts),
 * installed by npm with `install -g --offline` into an empty prefix (its own cache and npmrc: nothing
 * from the registry, nothing of this machine's npm set-up), then run through the link npm made, from
 * folders outside the checkout, on a PATH without the checkout's tools and with a HOME of its own.
 */
describe('massgen-cli.tgz, installed with npm install -g into an empty prefix', () => {
	let dir: string;
	let prefix: string;
	let home: string;
	let installed: string;
	let env: NodeJS.ProcessEnv;

	const massgen = (args: readonly string[], cwd: string): Promise<Exit> =>
		new Promise((resolve) => {
			execFile(
				join(prefix, 'bin', 'massgen'),
				args,
				{ cwd, env, maxBuffer: 16 * 1024 * 1024 },
				(error, stdout, stderr) => resolve({ code: error ? (error.code ?? undefined) : 0, stdout, stderr }),
			);
		});

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), 'massgen-cli-package-'));
		prefix = join(dir, 'prefix');
		home = join(dir, 'home');
		mkdirSync(home);
		const tarball = await packCli(dir);
		writeFileSync(join(dir, 'npmrc'), '');
		const [npm, args] = npmCommand([
			'install',
			'--global',
			'--prefix',
			prefix,
			'--offline',
			'--cache',
			join(dir, 'npm-cache'),
			'--userconfig',
			join(dir, 'npmrc'),
			'--no-audit',
			'--no-fund',
			'--no-update-notifier',
			tarball,
		]);
		// npm's own settings from `npm test` (npm_config_*) stay out, as on a user's shell.
		const plain = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
		execFileSync(npm, args, { cwd: dir, env: plain, encoding: 'utf8' });
		installed = join(prefix, 'lib', 'node_modules', cliPackageName);
		const path = (process.env['PATH'] ?? '')
			.split(delimiter)
			.filter((folder) => !folder.includes('node_modules'));
		env = { PATH: [join(prefix, 'bin'), ...path].join(delimiter), HOME: home };
	}, 120_000);

	afterAll(() => {
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it('installs offline as the massgen command: the bundles, SDK files, configs and license, nothing else, no dependency', () => {
		expect(realpathSync(join(prefix, 'bin', 'massgen'))).toBe(
			join(realpathSync(installed), 'dist', 'cli.js'),
		);
		// Node's module lookup from the package finds no other package: its own node_modules holds it
		// alone, and no folder above the prefix has one (a module the bundles lacked would fail to load).
		expect(readdirSync(join(prefix, 'lib', 'node_modules'))).toEqual([cliPackageName]);
		for (let folder = dirname(prefix); folder !== dirname(folder); folder = dirname(folder)) {
			expect(existsSync(join(folder, 'node_modules')), folder).toBe(false);
		}
		expect(filesOf(installed).sort()).toEqual(
			[...cliPackageFiles(), 'package.json', 'README.md', 'THIRD_PARTY_NOTICES.md']
				.map((file) => file.split('/').join(sep))
				.sort(),
		);
		const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<
			string,
			unknown
		>;
		expect(manifest).toMatchObject({ name: cliPackageName, version, bin: { massgen: 'dist/cli.js' } });
		expect(manifest['dependencies']).toBeUndefined();
		expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toContain('Apache License');
		// The bundled packages' licenses, the coding agents' SDKs' included.
		const notices = readFileSync(join(installed, 'THIRD_PARTY_NOTICES.md'), 'utf8');
		for (const name of [
			'zod',
			'yaml',
			'openai',
			'@modelcontextprotocol/sdk',
			'@anthropic-ai/claude-agent-sdk',
		]) {
			expect(notices).toContain(`\n## ${name} `);
		}
		expect(notices).toContain('Permission is hereby granted');
	});

	it('--version, --help, and validate on the shipped demo team (0) and on a broken file (1)', async () => {
		const cwd = makeWorkspaceDir();
		expect(await massgen(['--version'], cwd)).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
		expect((await massgen(['--help'], cwd)).stdout).toMatch(/^Usage:\n {2}massgen run /);
		const demo = join(installed, 'configs', 'demo.yaml');
		const good = await massgen(['validate', demo], cwd);
		expect(good.code, good.stderr).toBe(0);
		expect(good.stderr).toContain('ok (3 agents)');
		writeFileSync(join(cwd, 'broken.yaml'), 'agents:\n  - id: a\n    backend: { type: nonsense }\n');
		const bad = await massgen(['validate', 'broken.yaml'], cwd);
		expect(bad.code).toBe(1);
		expect(bad.stderr).toMatch(/broken\.yaml:\d+:\d+: error:/);
		expect(bad.stderr).not.toMatch(/\n\s+at /);
	});

	it('with no key, the default team names the demo shipped in the installed package; that run proposes its change, writes none', async () => {
		const root = makeWorkspaceDir({ 'README.md': '# demo\n' });
		const before = hashTree(root, (path) => path.startsWith('.massgen'));
		const refused = await massgen(['run', 'hi'], root);
		expect(refused.code).toBe(1);
		const hint = /massgen run --config (\S+demo\.yaml) "QUESTION"/.exec(refused.stderr);
		expect(hint?.[1], refused.stderr).toBe(join(installed, 'configs', 'demo.yaml'));
		const run = await massgen(['run', '--config', hint![1]!, 'How should we document this project?'], root);
		expect(run.code, run.stderr).toBe(0);
		expect(run.stdout).toMatch(/Added \*\*CONTRIBUTING\.md\*\*/);
		expect(run.stderr).toMatch(/winner: \w+ with agent\d\.1 \(3 votes\)/);
		const [runDir] = runDirs(root);
		expect(readResult(runDir!)).toMatchObject({
			status: 'completed',
			changes: [expect.objectContaining({ path: 'CONTRIBUTING.md', kind: 'add' })],
		});
		expect(hashTree(root, (path) => path.startsWith('.massgen'))).toBe(before);
		// In the home folder, only the user's state folder: the record of the user's own runs (stateDir.ts).
		expect(
			filesOf(home).filter((file) => !file.startsWith(join('.local', 'state', 'massgen', 'runs'))),
		).toEqual([]);
	});

	it("a team over the four providers' SDKs runs from the installed copy (each SDK bundle loaded from it)", async () => {
		const team = await startLoopbackTeam();
		try {
			const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
			writeFileSync(join(root, 'team.yaml'), team.configYaml());
			const run = await massgen(['run', '--config', 'team.yaml', 'What does a.ts export?'], root);
			expect(run.code, run.stderr).toBe(0);
			const result = readResult<{ status: string; votes: { voter: string }[] }>(runDirs(root)[0]!);
			expect(result.status).toBe('completed');
			expect(result.votes.map((vote) => vote.voter).sort()).toEqual([
				'chat_agent',
				'claude_agent',
				'gemini_agent',
				'openai_agent',
			]);
			for (const server of Object.values(team.servers)) {
				expect(server.requests.length).toBeGreaterThanOrEqual(2);
			}
		} finally {
			await team.close();
		}
	}, 60_000);

	it('massgen mcp answers the official SDK client over stdio: initialize, tools/list, ask_team on the shipped demo team', async () => {
		const root = makeWorkspaceDir({ 'README.md': '# demo\n' });
		const before = hashTree(root, (path) => path.startsWith('.massgen'));
		const demo = join(installed, 'configs', 'demo.yaml');
		const transport = new StdioClientTransport({
			command: join(prefix, 'bin', 'massgen'),
			args: ['mcp', '--workspace', root, '--config', demo],
			cwd: root,
			env: env as Record<string, string>,
			stderr: 'pipe',
		});
		const client = new Client({ name: 'massgen-package-test', version: '1.0.0' });
		await client.connect(transport);
		try {
			expect(client.getServerVersion()?.version).toBe(version);
			const { tools } = await client.listTools();
			expect(tools.map((tool) => tool.name).sort()).toEqual([
				'ask_team',
				'list_runs',
				'review_changes',
				'show_run',
			]);
			const result = (await client.callTool(
				{ name: 'ask_team', arguments: { question: 'How should we document this project?' } },
				undefined,
				{ timeout: 60_000 },
			)) as CallToolResult;
			const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
			expect(result.isError, text).toBeFalsy();
			expect(text).toContain('+# Contributing');
			expect(text).toContain('NOT applied');
		} finally {
			await client.close();
		}
		expect(hashTree(root, (path) => path.startsWith('.massgen'))).toBe(before);
	}, 60_000);

	it('massgen serve --port 0 answers GET /health, lists the demo team as its model and answers a chat completion with it', async () => {
		const root = makeWorkspaceDir({ 'README.md': '# demo\n' });
		const before = hashTree(root, (path) => path.startsWith('.massgen'));
		const demo = join(installed, 'configs', 'demo.yaml');
		const serve = await startServe(['--workspace', root, '--config', demo], {
			cwd: root,
			env,
			executable: join(prefix, 'bin', 'massgen'),
		});
		try {
			expect(serve.stderr()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\n/);
			const health = await fetch(`${serve.origin}/health`);
			expect(health.status).toBe(200);
			expect(await health.json()).toEqual({ status: 'ok' });
			const models = (await (await fetch(`${serve.origin}/v1/models`)).json()) as { data: { id: string }[] };
			// The shipped demo team given as --config is that one model.
			expect(models.data.map((model) => model.id)).toEqual(['massgen/demo']);
			const reply = await fetch(`${serve.origin}/v1/chat/completions`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					model: 'massgen/demo',
					messages: [{ role: 'user', content: 'How should we document this project?' }],
				}),
			});
			expect(reply.status).toBe(200);
			const answer = (await reply.json()) as { choices: { message: { content: string } }[] };
			expect(answer.choices[0]!.message.content).toMatch(/Added \*\*CONTRIBUTING\.md\*\*/);
		} finally {
			expect(await serve.stop()).toBe(0);
		}
		expect(hashTree(root, (path) => path.startsWith('.massgen'))).toBe(before);
	}, 60_000);
});
