import { execFile } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codexOptions } from '../../../src/core/providers/codingAgents/codexOptions.js';
import { cliFiles } from '../../scripts/buildCli.js';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';

const run = promisify(execFile);
const repo = join(__dirname, '..', '..', '..');
const scripts = (
	JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;
/** What the .vsix may take from the checkout (`.vscodeignore` picks from it); `dist/` is the built one. */
const staged = [
	'package.json',
	'package.nls.json',
	'package.nls.de.json',
	'README.md',
	'CHANGELOG.md',
	'.vscodeignore',
	'configs',
	'media',
	'l10n',
	'dist',
];
const platformPackage = (scope: string) => `${scope}-${process.platform}-${process.arch}`;

/** Every file under `dir`, relative to it. */
function filesOf(dir: string, folder = dir): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? filesOf(dir, join(folder, entry.name)) : [relative(dir, join(folder, entry.name))],
	);
}

/** Runs `code` (ESM) in a plain Node process outside the checkout; its last stdout line, parsed. */
async function inNode(
	cwd: string,
	code: string,
	args: readonly string[],
): Promise<{ ok: boolean; text: string }> {
	const script = join(cwd, 'probe.mjs');
	writeFileSync(script, code);
	const { stdout } = await run(process.execPath, [script, ...args], { cwd, maxBuffer: 16 * 1024 * 1024 });
	return JSON.parse(stdout.trim().split('\n').pop()!) as { ok: boolean; text: string };
}

const claudeProbe = `
import { pathToFileURL } from 'node:url';
const [sdkFile, optionsJson] = process.argv.slice(2);
try {
	const { query } = await import(pathToFileURL(sdkFile).href);
	let text = '';
	for await (const message of query({ prompt: 'Say hi.', options: JSON.parse(optionsJson) })) {
		if (message.type === 'result') text = message.result ?? message.subtype;
	}
	console.log(JSON.stringify({ ok: true, text }));
} catch (error) {
	console.log(JSON.stringify({ ok: false, text: error.message }));
}
`;

const codexProbe = `
import { pathToFileURL } from 'node:url';
const [sdkFile, optionsJson] = process.argv.slice(2);
try {
	const { Codex } = await import(pathToFileURL(sdkFile).href);
	const { client, thread } = JSON.parse(optionsJson);
	const turn = await new Codex(client).startThread(thread).run('Say hi.');
	console.log(JSON.stringify({ ok: true, text: turn.finalResponse }));
} catch (error) {
	console.log(JSON.stringify({ ok: false, text: error.message }));
}
`;

/**
 * Issue 14, shipping: the .vsix carries both coding agents' SDKs (each its own ESM file in dist/,
 * `build:sdk`) and none of their CLIs' ~400 MB binaries. This packages with the `package` script's
 * own `vsce package` command, from a copy of what it reads (the checkout's built `dist/`: run
 * `npm run build` first), unpacks it outside the checkout (no node_modules above it, as when it is
 * installed) and drives each shipped SDK there in a plain Node process: with a configured CLI path
 * it runs the real CLI against a loopback server; without one it finds no binary.
 */
describe('the .vsix ships the coding agents SDKs, the massgen CLI and no CLI binary', () => {
	let stage: string;
	let unpacked: string;
	let vsix: string;

	beforeAll(async () => {
		for (const file of ['claude-agent-sdk.mjs', 'codex-sdk.mjs', 'engine.js', 'extension.js', 'webview.js']) {
			if (!existsSync(join(repo, 'dist', file))) {
				throw new Error(`dist/${file} is missing: run \`npm run build\` first`);
			}
		}
		stage = mkdtempSync(join(tmpdir(), 'massgen-vsix-stage-'));
		for (const entry of staged) cpSync(join(repo, entry), join(stage, entry), { recursive: true });
		const vsce = scripts['package']!.split(' && ').pop()!;
		expect(vsce).toMatch(/^vsce package /);
		vsix = join(stage, 'out.vsix');
		const args = vsce
			.replace(/^vsce /, '')
			.split(/\s+/)
			.filter((arg, i, all) => arg !== '--out' && all[i - 1] !== '--out');
		await run(join(repo, 'node_modules', '.bin', 'vsce'), [...args, '--out', vsix], { cwd: stage });
		unpacked = mkdtempSync(join(tmpdir(), 'massgen-vsix-unpacked-'));
		const zip = await JSZip.loadAsync(readFileSync(vsix));
		for (const entry of Object.values(zip.files).filter((file) => !file.dir)) {
			mkdirSync(dirname(join(unpacked, entry.name)), { recursive: true });
			writeFileSync(join(unpacked, entry.name), await entry.async('nodebuffer'));
		}
	}, 120_000);

	afterAll(() => {
		for (const dir of [stage, unpacked]) if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it('holds both SDK files beside the engine, no node_modules and no native binary; small', () => {
		const files = filesOf(join(unpacked, 'extension'));
		expect(files).toEqual(
			expect.arrayContaining(['dist/claude-agent-sdk.mjs', 'dist/codex-sdk.mjs', 'dist/engine.js']),
		);
		expect(files.filter((file) => file.includes('node_modules'))).toEqual([]);
		// No executable of another platform's or ours: no ELF, Mach-O or PE file.
		const magic = (file: string) =>
			readFileSync(join(unpacked, 'extension', file))
				.subarray(0, 4)
				.toString('hex');
		expect(files.filter((file) => /^(7f454c46|cffaedfe|cefaedfe|4d5a)/.test(magic(file)))).toEqual([]);
		// The SDKs are ~1.4 MB of JavaScript; the CLIs' binaries ~400 MB each.
		expect(statSync(vsix).size).toBeLessThan(5 * 1024 * 1024);
		expect(statSync(join(unpacked, 'extension', 'dist', 'claude-agent-sdk.mjs')).size).toBeLessThan(
			4 * 1024 * 1024,
		);
		// The runtime strings' German bundle (package.json "l10n") goes with it.
		expect(files).toContain('l10n/bundle.l10n.de.json');
	});

	it('carries the CLI agent mode starts (massgen mcp), which serves its tools from the unpacked copy', async () => {
		const files = filesOf(join(unpacked, 'extension'));
		expect(files).toEqual(expect.arrayContaining(cliFiles.map((file) => `dist/${file}`)));
		const workspace = mkdtempSync(join(tmpdir(), 'massgen-vsix-mcp-'));
		const client = new Client({ name: 'vsix-test', version: '1.0.0' });
		await client.connect(
			new StdioClientTransport({
				command: process.execPath,
				args: [join(unpacked, 'extension', 'dist', 'cli.js'), 'mcp', '--workspace', workspace],
				env: { PATH: process.env.PATH ?? '', HOME: workspace },
				cwd: unpacked,
				stderr: 'ignore',
			}),
		);
		try {
			const { tools } = await client.listTools();
			expect(tools.map((tool) => tool.name).sort()).toEqual([
				'ask_team',
				'list_runs',
				'review_changes',
				'show_run',
			]);
		} finally {
			await client.close();
		}
	});

	describe('the shipped SDKs, loaded from the unpacked copy', () => {
		let server: LoopbackProvider;
		let work: string;
		beforeAll(async () => {
			work = mkdtempSync(join(tmpdir(), 'massgen-vsix-run-'));
		});
		afterAll(async () => {
			await server?.close();
			rmSync(work, { recursive: true, force: true });
		});

		it('claude-agent-sdk.mjs runs the Claude Code CLI named by its path; without one it finds none', async () => {
			server = await startLoopbackProvider('anthropic', {
				auto: { name: 'claude', presentation: 'hello from loopback' },
			});
			const sdk = join(unpacked, 'extension', 'dist', 'claude-agent-sdk.mjs');
			const cli = join(repo, 'node_modules', platformPackage('@anthropic-ai/claude-agent-sdk'), 'claude');
			const home = join(work, 'home');
			mkdirSync(home);
			const options = {
				cwd: work,
				model: 'claude-sonnet-4-5',
				settingSources: [],
				maxTurns: 1,
				env: {
					PATH: process.env.PATH,
					HOME: home,
					CLAUDE_CONFIG_DIR: join(home, '.claude'),
					ANTHROPIC_BASE_URL: server.baseUrl,
					ANTHROPIC_API_KEY: 'loopback-key',
					CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
					DISABLE_AUTOUPDATER: '1',
				},
			};
			const missing = await inNode(work, claudeProbe, [sdk, JSON.stringify(options)]);
			expect(missing).toEqual({
				ok: false,
				text: expect.stringMatching(/Native CLI binary for .* not found/),
			});
			expect(server.requests).toHaveLength(0);
			const ran = await inNode(work, claudeProbe, [
				sdk,
				JSON.stringify({ ...options, pathToClaudeCodeExecutable: cli }),
			]);
			expect(ran).toEqual({ ok: true, text: 'hello from loopback' });
			expect(server.requests.length).toBeGreaterThan(0);
		}, 60_000);

		it('codex-sdk.mjs runs the Codex CLI named by its path; without one it finds none', async () => {
			await server?.close();
			server = await startLoopbackProvider('responses', {
				auto: { name: 'codex', presentation: 'hello from loopback' },
			});
			const sdk = join(unpacked, 'extension', 'dist', 'codex-sdk.mjs');
			const vendor = join(repo, 'node_modules', platformPackage('@openai/codex'), 'vendor');
			const cli = join(vendor, readdirSync(vendor)[0]!, 'bin', 'codex');
			// Codex will not install its sandbox helper under the temp folder.
			const base = join(homedir(), '.cache', 'massgen-test');
			mkdirSync(base, { recursive: true });
			const codexHome = mkdtempSync(join(base, 'codex-home-'));
			try {
				const launch = (settings: { cli_path?: string }) =>
					JSON.stringify(
						codexOptions({
							settings,
							model: 'gpt-5.5',
							apiKey: 'loopback-key',
							baseUrl: server.baseUrl,
							hostEnv: { PATH: process.env.PATH, HOME: join(work, 'home') },
							codexHome,
							cwd: work,
							systemPrompt: 'Answer briefly.',
							mcpServers: {},
						}),
					);
				const missing = await inNode(work, codexProbe, [sdk, launch({})]);
				expect(missing).toEqual({
					ok: false,
					text: expect.stringMatching(/Unable to locate Codex CLI binaries/),
				});
				expect(server.requests).toHaveLength(0);
				const ran = await inNode(work, codexProbe, [sdk, launch({ cli_path: cli })]);
				expect(ran).toEqual({ ok: true, text: 'hello from loopback' });
				expect(server.requests.length).toBeGreaterThan(0);
			} finally {
				rmSync(codexHome, { recursive: true, force: true });
			}
		}, 60_000);
	});
});
