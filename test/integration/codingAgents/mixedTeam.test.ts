import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildReviewChangeSet, type AnswerChanges } from '../../../src/core/changes/changeSet.js';
import type { FileChange } from '../../../src/contract/fileChange.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';
import { runCli } from '../cli/cliProcess.js';
import { customToolCall } from './codexWire.js';
import { proxyOf, voteWhenShown, type ProxiedProvider } from './mixedTeamProxy.js';
import { runDir } from '../../support/runDir.js';

const anthropicKey = 'loopback-anthropic-key';
const openaiKey = 'loopback-openai-key';
/** Codex's metadata for this model gives it `apply_patch`. */
const codexModel = 'gpt-5.5';
const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** Every file of the workspace (outside `.massgen/`) by path → sha256. */
function hashes(root: string, folder = root, found: Record<string, string> = {}): Record<string, string> {
	for (const entry of readdirSync(folder, { withFileTypes: true })) {
		const full = join(folder, entry.name);
		if (entry.isDirectory()) {
			if (entry.name !== '.massgen') hashes(root, full, found);
		} else {
			found[full.slice(root.length + 1)] = sha(readFileSync(full));
		}
	}
	return found;
}

interface Result {
	readonly runId: string;
	readonly status: string;
	readonly winner: { readonly agentId: string; readonly label: string };
	readonly answerChanges: readonly AnswerChanges[];
	readonly changes: readonly FileChange[];
	readonly votes: readonly { readonly voter: string; readonly votedFor: string }[];
}

/** The answers' first lines: each names its agent, so a vote can find the anonymous id. */
const marks = {
	api: 'API',
	claude: 'CLAUDE: added shared.txt and claude.txt',
	codex: 'CODEX: added shared.txt and codex.txt',
};

/**
 * Issue 14: one team of an API agent (the Anthropic SDK), a `claude_code` and a `codex` member (the
 * real CLIs from the pinned SDKs), each on its own loopback server, through `dist/cli.js --apply`;
 * and a second `claude_code` member whose CLI is missing. Proxies queue each vote from what the
 * request shows (anonymous ids are shuffled per run), so every vote crosses providers.
 */
describe('a mixed team: an API agent, claude_code and codex (dist/cli.js)', () => {
	let api: LoopbackProvider;
	let claude: LoopbackProvider;
	let codex: LoopbackProvider;
	const proxies: ProxiedProvider[] = [];
	beforeEach(async () => {
		api = await startLoopbackProvider('anthropic', { auto: { name: 'api', answer: `${marks.api}: done` } });
		claude = await startLoopbackProvider('anthropic', { auto: { name: 'claude' } });
		codex = await startLoopbackProvider('responses', { auto: { name: 'codex' } });
	});
	afterEach(async () => {
		await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
		await Promise.all([api.close(), claude.close(), codex.close()]);
	});

	it("converges: each coder's edit is a reviewable hunk, votes cross providers, nothing is written until --apply", async () => {
		const root = makeWorkspaceDir({ 'a.txt': 'old\n' });
		const before = hashes(root);
		const duringRun: Record<string, string>[] = [];
		const voteArgs = (id: string) => ({ agent_id: id, reason: 'its change is complete' });
		const apiVote = voteWhenShown(api, [marks.codex, marks.claude], (id) =>
			api.say({ toolCalls: [{ name: 'vote', arguments: voteArgs(id) }] }),
		);
		const claudeVote = voteWhenShown(claude, [marks.codex, marks.api], (id) =>
			claude.say({ toolCalls: [{ name: 'mcp__massgen__vote', arguments: voteArgs(id) }] }),
		);
		const codexVote = voteWhenShown(codex, [marks.claude, marks.api], (id) => {
			// Both coders' edits live in their answers by now: the workspace is as it was.
			duringRun.push(hashes(root));
			codex.say({ toolCalls: [{ namespace: 'mcp__massgen', name: 'vote', arguments: voteArgs(id) }] });
		});
		const apiProxy = await proxyOf(api, apiVote);
		const claudeProxy = await proxyOf(claude, claudeVote);
		const codexProxy = await proxyOf(codex, codexVote);
		proxies.push(apiProxy, claudeProxy, codexProxy);

		// claude_code: two Writes, then its answer (the vote is queued by its proxy).
		for (const [id, file, content] of [
			['toolu_w1', 'shared.txt', 'hello\n'],
			['toolu_w2', 'claude.txt', 'from claude\n'],
		] as const) {
			claude.say({ toolCalls: [{ id, name: 'Write', arguments: { file_path: file, content } }] });
		}
		claude.say({
			toolCalls: [{ id: 'toolu_a', name: 'mcp__massgen__new_answer', arguments: { content: marks.claude } }],
		});
		// codex: one patch adding the same shared.txt (a consensus hunk) and its own file, then its answer.
		const patch = [
			'*** Begin Patch',
			'*** Add File: shared.txt',
			'+hello',
			'*** Add File: codex.txt',
			'+from codex',
			'*** End Patch',
			'',
		].join('\n');
		codex.enqueue({ events: customToolCall('call_patch', 'apply_patch', patch, codexModel) });
		codex.say({
			toolCalls: [
				{
					id: 'call_answer',
					namespace: 'mcp__massgen',
					name: 'new_answer',
					arguments: { content: marks.codex },
				},
			],
		});

		const agent = (id: string, type: string, lines: string[]) => [
			`  - id: ${id}`,
			'    backend:',
			`      type: ${type}`,
			...lines.map((line) => `      ${line}`),
		];
		// The team file lives outside the workspace, which is hashed.
		const team = join(makeWorkspaceDir(), 'team.yaml');
		writeFileSync(
			team,
			[
				'agents:',
				...agent('api_agent', 'claude', ['model: claude-sonnet-4-5', `base_url: ${apiProxy.baseUrl}`]),
				...agent('claude_coder', 'claude_code', [
					'model: claude-sonnet-4-5',
					`base_url: ${claudeProxy.baseUrl}`,
				]),
				...agent('codex_coder', 'codex', [`model: ${codexModel}`, `base_url: ${codexProxy.baseUrl}`]),
				...agent('absent_coder', 'claude_code', [
					'cli_path: /nonexistent/claude',
					`base_url: ${claudeProxy.baseUrl}`,
				]),
				'',
			].join('\n'),
		);
		const run = await runCli(['run', '--config', team, '--apply', 'Add a greeting.'], {
			cwd: root,
			env: { ANTHROPIC_API_KEY: anthropicKey, OPENAI_API_KEY: openaiKey },
			// A hang fails with the CLI's stderr, before the test's timeout.
			deadlineMs: 110_000,
		});
		for (const key of [anthropicKey, openaiKey]) expect(run.stderr + run.stdout).not.toContain(key);
		expect(run.code, run.stderr).toBe(0);
		const result = JSON.parse(readFileSync(join(runDir(root), 'result.json'), 'utf8')) as Result;
		expect(result.status).toBe('completed');

		// The member without its CLI is left out with one clear message; the others went on.
		const killed = readFileSync(join(runDir(root), 'events.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as { type: string; agentId?: string; reason?: string })
			.filter((event) => event.type === 'agent-killed');
		expect(killed.map((event) => event.agentId)).toEqual(['absent_coder']);
		expect(killed[0]!.reason).toMatch(/Claude Code CLI not found .*\/nonexistent\/claude/);
		expect(run.stderr).toMatch(/absent_coder: killed: Claude Code CLI not found/);

		// Each coder's edits are its answer's changes.
		const changesOf = (agentId: string) =>
			result.answerChanges
				.find((set) => set.agentId === agentId)
				?.changes.map((change) => [change.path, change.kind, change.content])
				.sort();
		expect(changesOf('claude_coder')).toEqual([
			['claude.txt', 'add', 'from claude\n'],
			['shared.txt', 'add', 'hello\n'],
		]);
		expect(changesOf('codex_coder')).toEqual([
			['codex.txt', 'add', 'from codex\n'],
			['shared.txt', 'add', 'hello\n'],
		]);
		// Votes cross providers: the API agent and claude_code for codex, codex for claude_code.
		expect(result.votes.map((vote) => [vote.voter, vote.votedFor]).sort()).toEqual([
			['api_agent', 'codex_coder'],
			['claude_coder', 'codex_coder'],
			['codex_coder', 'claude_coder'],
		]);
		expect(result.winner.agentId).toBe('codex_coder');
		// The review: codex's shared.txt hunk carries claude_code's consensus mark, its own file none.
		const review = buildReviewChangeSet({
			runId: result.runId,
			winner: result.winner,
			changes: result.changes,
			answers: result.answerChanges,
		});
		expect(review.files.map((file) => [file.path, file.hunks.map((hunk) => hunk.agreeing)]).sort()).toEqual([
			['codex.txt', [[]]],
			['shared.txt', [['claude_coder']]],
		]);

		// Nothing reached the workspace during the run; --apply wrote exactly the winner's change.
		expect(duringRun.length).toBeGreaterThan(0);
		for (const seen of duringRun) expect(seen).toEqual(before);
		expect(hashes(root)).toEqual({
			...before,
			'codex.txt': sha('from codex\n'),
			'shared.txt': sha('hello\n'),
		});

		// What each loopback server saw: at least an answer and a vote each (two Writes and a patch
		// before those), and the winner's presentation; a vote cast before the last answer landed is
		// cast again, so more are possible.
		const counts = { api: api.requests.length, claude: claude.requests.length, codex: codex.requests.length };
		console.log(`mixed team requests per server: ${JSON.stringify(counts)}`);
		expect(counts.api).toBeGreaterThanOrEqual(2);
		expect(counts.claude).toBeGreaterThanOrEqual(4);
		expect(counts.codex).toBeGreaterThanOrEqual(4);
		expect(claude.pending()).toBe(0);
		expect(codex.pending()).toBe(0);
		expect(api.pending()).toBe(0);
	}, 120_000);
});
