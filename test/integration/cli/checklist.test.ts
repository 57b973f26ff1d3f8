/**
 * Checklist evaluation through `dist/cli.js run` on the mixed loopback team (OpenAI Responses,
 * Anthropic Messages, Gemini, Chat Completions through their official SDKs): the servers' logs show
 * every agent's scoring request with every criterion and a vote tool that takes scores, and the
 * votes carry them into result.json and events.jsonl; with bootstrap_inline a criterion proposed in
 * round 1 reaches the later rounds' requests. The auto agents score from the prompt they get.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src/contract/runResult.js';
import type { RecordedRequest } from '../../servers/loopbackProvider.js';
import type { Reply } from '../../servers/types.js';
import { startLoopbackTeam, type LoopbackTeam } from '../../servers/loopbackTeam.js';
import { readResult, runDir } from '../../support/runDir.js';
import { makeWorkspaceDir } from '../../support/tempTree.js';
import { runCli } from './cliProcess.js';

const criteria = [
	{ text: 'Names the exported constant', category: 'primary' },
	{ text: 'Says what value it has', category: 'standard' },
];
const proposal = 'Mentions the file the constant lives in';
const ids = ['openai_agent', 'claude_agent', 'gemini_agent', 'chat_agent'];

/** The EVALUATION CHECKLIST block of a request, as the model reads it ('' when none). */
const checklistBlock = (request: RecordedRequest) =>
	/<EVALUATION CHECKLIST>[\s\S]*?<\/EVALUATION CHECKLIST>/.exec(request.prompt.texts.join('\n'))?.[0] ?? '';
const voteTool = (request: RecordedRequest) => request.prompt.tools.find((tool) => tool.name === 'vote');
const properties = (tool: { parameters: Record<string, unknown> } | undefined) =>
	Object.keys((tool?.parameters['properties'] as object | undefined) ?? {});

describe('checklist evaluation (dist/cli.js, mixed loopback team)', () => {
	let team: LoopbackTeam;
	/** Set by a test: the model as a function of the request, before the auto agent. */
	let script: ((request: RecordedRequest) => Reply | undefined) | undefined;
	beforeAll(async () => {
		team = await startLoopbackTeam({
			script: (request) => script?.(request),
			auto: {
				// The OpenAI agent proposes one criterion with its first answer (bootstrap_inline only).
				propose: (prompt) => (prompt.model === 'gpt-5-mini' ? [proposal] : []),
			},
		});
	});
	afterAll(() => team.close());

	async function run(coordination: Record<string, unknown>) {
		const since = Object.fromEntries(Object.entries(team.servers).map(([k, s]) => [k, s.requests.length]));
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const config = join(root, 'team.yaml');
		writeFileSync(
			config,
			team.configYaml({
				orchestrator: { voting_sensitivity: 'checklist_gated', voting_threshold: 7, coordination },
			}),
		);
		const done = await runCli(['run', '--config', config, 'What does a.ts export?'], {
			cwd: root,
			deadlineMs: 60_000,
		});
		const dir = runDir(root);
		const requests = Object.fromEntries(
			Object.entries(team.servers).map(([k, s]) => [
				k,
				s.requests.slice(since[k]).filter((r) => r.method === 'POST'),
			]),
		);
		const events = readFileSync(join(dir, 'events.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as { type: string; [key: string]: unknown });
		return { done, result: readResult<RunResult>(dir), requests, events, root };
	}

	it('static criteria: every agent scores with every criterion in its request; every vote carries the scores', async () => {
		const { done, result, requests, events, root } = await run({ checklist_criteria_inline: criteria });
		expect(done.code).toBe(0);
		expect(result.status).toBe('completed');
		for (const [protocol, list] of Object.entries(requests)) {
			const scoring = list.filter(
				(r) => voteTool(r) && r.prompt.texts.join('\n').includes('<answer id="agent'),
			);
			expect(scoring.length, protocol).toBeGreaterThan(0);
			for (const request of scoring) {
				const block = checklistBlock(request);
				expect(block, protocol).toContain('- C1 [primary]: Names the exported constant');
				expect(block, protocol).toContain('- C2 [standard]: Says what value it has');
				expect(block, protocol).toContain('at least 7 on all of them');
				expect(properties(voteTool(request)), protocol).toContain('scores');
				expect(properties(voteTool(request)), protocol).not.toContain('proposed_criteria');
			}
		}
		expect(result.votes.map((v) => v.voter).sort()).toEqual([...ids].sort());
		const labels = result.answers.map((a) => a.label).sort();
		for (const vote of result.votes) {
			expect(vote.scores?.map((s) => s.label).sort()).toEqual(labels);
			for (const entry of vote.scores!) {
				expect(entry.criteria.map((c) => c.id)).toEqual(['C1', 'C2']);
				expect(entry.criteria.every((c) => c.score === 8)).toBe(true);
			}
		}
		expect(result.checklist).toEqual({
			criteria: [
				{ id: 'C1', text: 'Names the exported constant', category: 'primary', round: 0 },
				{ id: 'C2', text: 'Says what value it has', category: 'standard', round: 0 },
			],
			threshold: 7,
		});
		const voteEvents = events.filter((e) => e.type === 'vote');
		expect(voteEvents.every((e) => Array.isArray(e['scores']))).toBe(true);
		expect(events.filter((e) => e.type === 'checklist')).toHaveLength(1);
		// Requests of an unchecked run would not carry the block: the first request of every agent, before any answer, has it too.
		for (const list of Object.values(requests)) expect(checklistBlock(list[0]!)).toContain('C1');
		// massgen show prints the checklist and every voter's scores.
		const show = await runCli(['show', result.runId], { cwd: root });
		expect(show.code).toBe(0);
		expect(show.stdout).toContain('C1 (primary): Names the exported constant');
		for (const voter of ids) {
			expect(show.stdout).toMatch(new RegExp(`${voter} scored: agent\\d\\.\\d C1 8 C2 8`));
		}
	});

	it('bootstrap_inline: the criterion the OpenAI agent proposed in round 1 is in the later rounds’ requests of the others', async () => {
		const { done, result, requests, events } = await run({
			checklist_criteria_inline: criteria,
			criteria_mode: 'bootstrap_inline',
		});
		expect(done.code).toBe(0);
		expect(result.status).toBe('completed');
		expect(result.checklist?.criteria.at(-1)).toEqual({
			id: 'C3',
			text: proposal,
			category: 'standard',
			round: 1,
			proposedBy: 'openai_agent',
		});
		const merged = events.filter((e) => e.type === 'checklist');
		expect(merged).toHaveLength(2);
		// The proposal is in no agent's first request, and in a later request of the other three.
		for (const [protocol, list] of Object.entries(requests)) {
			expect(checklistBlock(list[0]!), protocol).not.toContain(proposal);
			expect(properties(list[0]!.prompt.tools.find((t) => t.name === 'new_answer')), protocol).toContain(
				'proposed_criteria',
			);
		}
		for (const protocol of ['anthropic', 'gemini', 'chat'] as const) {
			const later = requests[protocol]!.filter((r) =>
				checklistBlock(r).includes(`- C3 [standard]: ${proposal}`),
			);
			expect(later.length, protocol).toBeGreaterThan(0);
		}
		// A vote cast in a round that saw C3 scores it.
		expect(result.votes.some((vote) => vote.scores?.some((s) => s.criteria.some((c) => c.id === 'C3')))).toBe(
			true,
		);
	});

	it('a vote for an answer scored under the threshold is refused by the tool, with the reason the model reads; the run goes on', async () => {
		let refusedOnce = false;
		script = (request) => {
			// The Chat Completions agent's first scoring call: votes for the first answer, scoring it 4 on C2.
			if (refusedOnce || request.model !== 'loopback-chat' || !voteTool(request)) return undefined;
			const shown = [
				...new Set(
					[...request.prompt.texts.join('\n').matchAll(/<answer id="(agent\d+)"/g)].map((m) => m[1]!),
				),
			];
			if (shown.length === 0) return undefined;
			refusedOnce = true;
			const scores = shown.map((anonId, i) => ({
				agent_id: anonId,
				criteria: [
					{ id: 'C1', score: 9 },
					{ id: 'C2', score: i === 0 ? 4 : 9 },
				],
			}));
			return {
				turn: {
					toolCalls: [{ name: 'vote', arguments: { agent_id: shown[0], reason: 'close enough', scores } }],
					usage: { input: 100, output: 20 },
				},
			};
		};
		try {
			const { done, result, requests, events } = await run({ checklist_criteria_inline: criteria });
			expect(done.code).toBe(0);
			expect(refusedOnce).toBe(true);
			expect(result.status).toBe('completed');
			const refusal = events.find((e) => e.type === 'workflow-error' && e['agentId'] === 'chat_agent');
			expect(String(refusal?.['message'])).toMatch(
				/^vote: Vote refused: you scored agent\d below the threshold 7 on C2 \(4\)/,
			);
			// The model got the refusal as the vote's tool result in its next request.
			const chat = requests['chat']!;
			expect(chat.some((r) => (r.prompt.lastToolResult ?? '').includes('improve it with new_answer'))).toBe(
				true,
			);
			// Its counted vote (cast after) passed the gate: every answer it voted for scored at least 7.
			const vote = result.votes.find((v) => v.voter === 'chat_agent')!;
			const target = vote.scores!.find((s) => s.label === vote.votedForLabel)!;
			expect(target.criteria.every((c) => c.score >= 7)).toBe(true);
		} finally {
			script = undefined;
		}
	});
});
