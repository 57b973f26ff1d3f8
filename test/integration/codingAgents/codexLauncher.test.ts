import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CodexOptions } from '@openai/codex-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { usableBubblewrap } from '../../../src/core/providers/codingAgents/cliBinaries.js';
import { containedClient } from '../../../src/core/providers/codingAgents/codexLauncher.js';
import { codexOptions } from '../../../src/core/providers/codingAgents/codexOptions.js';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';
import { customToolCall } from './codexWire.js';

const model = 'gpt-5.5';

/**
 * Issue 14: the Codex CLI in our bubblewrap, through the launcher the SDK runs as its executable.
 * Even with Codex's own sandbox off (`danger-full-access`: its patches may go anywhere), ours
 * keeps them in the folder. (The adapter keeps Codex's sandbox on inside ours: both hold.)
 */
describe('the Codex CLI inside our bubblewrap (codexLauncher)', () => {
	let server: LoopbackProvider;
	let scratch: string;
	let agentDir: string;
	let codexHome: string;
	let outside: string;
	beforeEach(async () => {
		server = await startLoopbackProvider('responses');
		scratch = mkdtempSync(join(tmpdir(), 'massgen-codex-scratch-'));
		// Not under the temp folder: Codex installs its sandbox helper in CODEX_HOME, and not there.
		const base = join(homedir(), '.cache', 'massgen-test');
		mkdirSync(base, { recursive: true });
		agentDir = mkdtempSync(join(base, 'codex-agent-'));
		codexHome = join(agentDir, 'home');
		mkdirSync(codexHome);
		outside = mkdtempSync(join(base, 'outside-'));
	});
	afterEach(async () => {
		await server.close();
		for (const dir of [scratch, agentDir, outside]) rmSync(dir, { recursive: true, force: true });
	});

	/** One turn of the scripted patches; the one inside the folder always applies. */
	async function patchTurn(client: CodexOptions): Promise<void> {
		const { Codex } = await import('@openai/codex-sdk');
		const { thread } = plain();
		// Codex's own sandbox off: only ours stands between its patches and `outside`.
		const started = new Codex(client).startThread({ ...thread, sandboxMode: 'danger-full-access' });
		const { events } = await started.runStreamed('Patch the files.');
		for await (const event of events) void event;
		expect(readFileSync(join(scratch, 'in.txt'), 'utf8')).toBe('inside\n');
	}

	function plain() {
		return codexOptions({
			settings: {},
			model,
			apiKey: 'loopback-openai-key',
			baseUrl: server.baseUrl,
			hostEnv: { PATH: process.env.PATH, HOME: homedir() },
			codexHome,
			cwd: scratch,
			systemPrompt: 'You are agent1 of a team.',
			mcpServers: {},
		});
	}

	function scriptPatches(target: string): void {
		const patch = (file: string, text: string) =>
			['*** Begin Patch', `*** Add File: ${file}`, `+${text}`, '*** End Patch', ''].join('\n');
		server.enqueue({ events: customToolCall('call_in', 'apply_patch', patch('in.txt', 'inside'), model) });
		server.enqueue({ events: customToolCall('call_out', 'apply_patch', patch(target, 'escaped'), model) });
		server.say({ text: 'Done.' });
	}

	it('with its own sandbox off, a patch in its folder applies and one outside never reaches the host', async () => {
		const bwrap = await usableBubblewrap(process.env);
		// This machine and CI have bubblewrap (.ci/run installs it).
		expect(bwrap).toBeDefined();
		const { Codex } = await import('@openai/codex-sdk');
		const client = await containedClient(Codex, plain().client, {
			bwrap: bwrap!,
			launcherDir: agentDir,
			folder: scratch,
			writable: [codexHome],
			dependencyMounts: [],
			hidden: [],
		});
		expect(client.codexPathOverride).toBe(join(agentDir, 'codex-in-sandbox'));
		const target = join(outside, 'escaped.txt');
		scriptPatches(target);
		await patchTurn(client);
		// `outside` is in the user's home, which the sandbox hides under an empty tmpfs: the patch
		// lands there, if anywhere, and vanishes with the sandbox; the host's file is never written.
		expect(existsSync(target)).toBe(false);
		expect(server.requests).toHaveLength(3);

		// The same turn without our launcher: nothing else stops it.
		rmSync(join(scratch, 'in.txt'));
		scriptPatches(target);
		await patchTurn(plain().client);
		expect(readFileSync(target, 'utf8')).toBe('escaped\n');
	});

	it('a cli_path that does not exist is the SDK’s own spawn error, not a failure inside bwrap', async () => {
		const { Codex } = await import('@openai/codex-sdk');
		const missing = join(agentDir, 'no-such-codex');
		await expect(
			containedClient(
				Codex,
				{ ...plain().client, codexPathOverride: missing },
				{
					bwrap: '/usr/bin/bwrap',
					launcherDir: agentDir,
					folder: scratch,
					writable: [],
					dependencyMounts: [],
					hidden: [],
				},
			),
		).rejects.toThrow(`spawn ${missing} ENOENT`);
		expect(server.requests).toHaveLength(0);
	});
});
