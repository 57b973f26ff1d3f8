import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import {
	startLoopbackProvider,
	type LoopbackOptions,
	type LoopbackProtocol,
	type LoopbackProvider,
	type RecordedRequest,
} from '../../servers/loopbackProvider.js';
import {
	readingFiles,
	readingMarker,
	readingScript,
	summaryUsage,
	type ReadingState,
} from '../../servers/readingAgent.js';
import type { ChatServerFlavor } from '../../servers/wire/contextErrors.js';
import { makeWorkspaceDir } from '../../support/tempTree.js';
import { runCli } from './cliProcess.js';

/**
 * Long tool loops through the built CLI: an agent reads many large files until its conversation
 * outgrows its model's context window (the loopback server's `contextLimit` answers the vendor's
 * own context-length error above a size; or the config's `context_window` says so first). The
 * agent compacts its conversation (a summary by its own model), keeps working, and the run ends
 * with an answer; when even the task does not fit, that agent fails with a clear message and the
 * run goes on with the others.
 */

/** Ten files of 6 KB each, every one with a marker only it holds: 60 KB to read in all. */
const tree = readingFiles(10);
const files = Object.keys(tree);
const marker = readingMarker;

interface ReaderSetup {
	readonly protocol: LoopbackProtocol;
	readonly type: string;
	readonly model: string;
	readonly flavor?: ChatServerFlavor;
	/** The server's context window in request bytes. */
	readonly maxPromptBytes: number;
	/** The config's `context_window` for the reader. */
	readonly contextWindow?: number;
	readonly question?: string;
	/** The reader alone: a single agent's run is one tool-loop turn (the presentation). */
	readonly alone?: boolean;
}

describe('compaction of long tool loops (dist/cli.js)', () => {
	const servers: LoopbackProvider[] = [];
	afterEach(async () => {
		await Promise.all(servers.splice(0).map((server) => server.close()));
	});

	async function start(protocol: LoopbackProtocol, options: LoopbackOptions) {
		const server = await startLoopbackProvider(protocol, options);
		servers.push(server);
		return server;
	}

	/** A reader on the protocol under test and a peer (auto-agent) on its own server of the same protocol. */
	async function run(setup: ReaderSetup) {
		const seen: ReadingState = { reads: 0, summaries: 0, answered: false };
		const reader = await start(setup.protocol, {
			script: readingScript(files, seen),
			contextLimit: {
				maxPromptBytes: setup.maxPromptBytes,
				...(setup.flavor ? { flavor: setup.flavor } : {}),
			},
		});
		const peer = await start(setup.protocol, { auto: { name: 'peer' } });
		const root = makeWorkspaceDir(tree);
		const backend = (server: LoopbackProvider) => ({
			type: setup.type,
			model: setup.model,
			base_url: server.baseUrl,
			api_key: 'loopback-key',
		});
		const agents = [
			{
				id: 'reader',
				backend: {
					...backend(reader),
					...(setup.contextWindow ? { context_window: setup.contextWindow } : {}),
				},
			},
			...(setup.alone ? [] : [{ id: 'peer', backend: backend(peer) }]),
		];
		const config = join(root, 'team.yaml');
		writeFileSync(config, stringify({ agents }));
		const question = setup.question ?? 'Summarise the docs folder: read every part first.';
		const cli = await runCli(['run', '--config', config, question], { cwd: root, deadlineMs: 60_000 });
		const runs = join(root, '.massgen', 'runs');
		const [dir] = readdirSync(runs).map((id) => join(runs, id));
		const events = readFileSync(join(dir!, 'events.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as Record<string, unknown>);
		const result = JSON.parse(readFileSync(join(dir!, 'result.json'), 'utf8'));
		return { cli, reader, peer, seen, events, result };
	}

	const posts = (server: LoopbackProvider) => server.requests.filter((request) => request.method === 'POST');
	const bytes = (request: RecordedRequest) => Buffer.byteLength(request.rawBody, 'utf8');

	const shapes: readonly Omit<ReaderSetup, 'maxPromptBytes'>[] = [
		{ protocol: 'responses', type: 'openai', model: 'gpt-5-mini' },
		{ protocol: 'anthropic', type: 'claude', model: 'claude-haiku-4-5' },
		{ protocol: 'gemini', type: 'gemini', model: 'gemini-2.5-flash' },
		{ protocol: 'chat', type: 'vllm', model: 'loopback-chat', flavor: 'vllm' },
	];

	for (const shape of shapes) {
		it(`${shape.type} (${shape.flavor ?? shape.protocol}): the provider's context-length error compacts, the reader reads on and the run completes`, async () => {
			const maxPromptBytes = 40_000;
			const { cli, reader, seen, events, result } = await run({ ...shape, maxPromptBytes });
			expect(cli.code, cli.stderr).toBe(0);
			expect(result.status).toBe('completed');
			expect(result.finalAnswer).toBeTruthy();
			// Every file was read, though all of them together are more than the window takes.
			expect(seen.reads).toBe(files.length);
			const answered = posts(reader).filter((request) => !request.tooLong);
			for (const path of files) {
				expect(
					answered.some((request) => request.rawBody.includes(marker(path))),
					path,
				).toBe(true);
			}
			expect(Object.values(tree).join('').length).toBeGreaterThan(maxPromptBytes);
			// The server refused some requests as too long; each refusal was followed by a compaction, and
			// every request after the last refusal fit.
			const refused = posts(reader).filter((request) => request.tooLong);
			expect(refused.length).toBeGreaterThan(0);
			const compacted = events.filter((e) => e.type === 'compacted' && e.agentId === 'reader');
			expect(compacted.length).toBeGreaterThanOrEqual(refused.length);
			for (const e of compacted) expect(e['tokensAfter']).toBeLessThan(e['tokensBefore'] as number);
			expect(compacted.every((e) => e['how'] === 'summary')).toBe(true);
			const last = posts(reader).lastIndexOf(refused.at(-1)!);
			const after = posts(reader).slice(last + 1);
			expect(after.length).toBeGreaterThan(0);
			expect(Math.max(...after.map(bytes))).toBeLessThanOrEqual(maxPromptBytes);
			// The summary call is a real call of the reader's model, counted in its usage.
			expect(seen.summaries).toBe(compacted.length);
			const usage = events.filter((e) => e.type === 'usage' && e.agentId === 'reader');
			const summaryEvents = usage.filter(
				(e) => (e['usage'] as { inputTokens: number }).inputTokens === summaryUsage.input,
			);
			expect(summaryEvents).toHaveLength(seen.summaries);
			// The reader was never given up, and its answer is in the run.
			expect(events.filter((e) => e.type === 'agent-killed')).toEqual([]);
			expect(result.answers.map((a: { agentId: string }) => a.agentId)).toContain('reader');
			expect(cli.stderr).toContain('reader: conversation compacted to fit the context window');
		}, 90_000);
	}

	it('llama.cpp server alone (the tool-loop turn): its exceed_context_size_error compacts, the run completes', async () => {
		const maxPromptBytes = 40_000;
		const { cli, reader, seen, events, result } = await run({
			protocol: 'chat',
			type: 'chatcompletion',
			model: 'local-model',
			flavor: 'llamacpp',
			maxPromptBytes,
			alone: true,
		});
		expect(cli.code, cli.stderr).toBe(0);
		expect(result.status).toBe('completed');
		expect(seen.reads).toBe(files.length);
		expect(result.finalAnswer).toContain('Final answer');
		const compacted = events.filter((e) => e.type === 'compacted');
		expect(compacted.length).toBeGreaterThan(0);
		expect(compacted.every((e) => e['phase'] === 'presentation' && e['how'] === 'summary')).toBe(true);
		const refused = posts(reader).filter((request) => request.tooLong);
		expect(refused.length).toBeGreaterThan(0);
		const after = posts(reader).slice(posts(reader).lastIndexOf(refused.at(-1)!) + 1);
		expect(Math.max(...after.map(bytes))).toBeLessThanOrEqual(maxPromptBytes);
		expect(events.filter((e) => e.type === 'agent-killed')).toEqual([]);
	}, 90_000);

	it('openai: a config context_window compacts before the provider would refuse (no request is refused)', async () => {
		// 9,000 tokens by the estimate (bytes / 3) is about 27 KB of request: under the server's 40 KB.
		const { cli, reader, seen, events, result } = await run({
			protocol: 'responses',
			type: 'openai',
			model: 'gpt-5-mini',
			maxPromptBytes: 40_000,
			contextWindow: 9_000,
		});
		expect(cli.code, cli.stderr).toBe(0);
		expect(result.status).toBe('completed');
		expect(seen.reads).toBe(files.length);
		expect(posts(reader).filter((request) => request.tooLong)).toEqual([]);
		const compacted = events.filter((e) => e.type === 'compacted' && e.agentId === 'reader');
		expect(compacted.length).toBeGreaterThan(0);
		for (const e of compacted) expect(e['tokensBefore']).toBeGreaterThan(9_000 - 9_000 / 8);
		expect(Math.max(...posts(reader).map(bytes))).toBeLessThanOrEqual(40_000);
	}, 90_000);

	it('anthropic: when the task alone does not fit, the reader fails with a clear message and the run goes on', async () => {
		const { cli, reader, peer, events, result } = await run({
			protocol: 'anthropic',
			type: 'claude',
			model: 'claude-haiku-4-5',
			// Less than the system prompt, the tools and the task take: nothing a compaction can drop.
			maxPromptBytes: 2_000,
		});
		expect(cli.code, cli.stderr).toBe(0);
		expect(result.status).toBe('completed');
		// One refused request; the compaction found nothing to drop, so no summary call was made.
		expect(posts(reader)).toHaveLength(1);
		expect(posts(reader)[0]!.tooLong).toBe(true);
		const killed = events.filter((e) => e.type === 'agent-killed');
		expect(killed).toHaveLength(1);
		expect(killed[0]).toMatchObject({ agentId: 'reader' });
		expect(String(killed[0]!['reason'])).toMatch(
			/the task does not fit claude-haiku-4-5's context window even after compaction: about \d+ tokens, at most about \d+ fit \(the provider refused a longer request\)/,
		);
		expect(events.filter((e) => e.type === 'compacted')).toEqual([]);
		// The peer answered and presented.
		expect(posts(peer).length).toBeGreaterThan(0);
		expect(result.winner.agentId).toBe('peer');
		expect(result.finalAnswer).toBeTruthy();
	}, 90_000);
});
