import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventOf, RunEventType } from '../../../src/contract/runEvents.js';
import { Orchestrator } from '../../../src/core/orchestrator/orchestrator.js';
import type { BudgetCaps } from '../../../src/core/orchestrator/spendGuard.js';
import type { AgentSpec, OrchestratorSettings } from '../../../src/core/orchestrator/types.js';
import {
	ScriptedModel,
	type ScriptedHandler,
	type ScriptedModelOptions,
} from '../../../src/core/providers/vendors/scriptedModel.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import {
	answer,
	answerThenVote,
	fastSettings,
	look,
	makeWorkspaceDir,
	read,
	vote,
} from '../../fakes/team.js';

/** $1,000 per million tokens: a scripted call's default usage (100 in, 50 out) costs $0.15. */
const price = { input: 1_000, output: 1_000 };

interface Member {
	readonly id: string;
	readonly handler: ScriptedHandler;
	readonly options?: ScriptedModelOptions;
}

/** Runs the team; `onEvent` may act on the orchestrator mid-run (Stop agent). */
async function run(
	members: readonly Member[],
	budget?: BudgetCaps,
	onEvent?: (event: RunEvent, orchestrator: Orchestrator) => void,
	settings: Partial<OrchestratorSettings> = {},
) {
	const models = new Map<string, ScriptedModel>();
	const agents: AgentSpec[] = members.map((member) => {
		const model = new ScriptedModel(member.handler, member.options);
		models.set(member.id, model);
		return { id: member.id, model, price };
	});
	const orchestrator = new Orchestrator({
		question: 'What is 2 + 2?',
		workspace: await createWorkspace(makeWorkspaceDir()),
		agents,
		settings: { ...fastSettings, ...settings },
		anonymousOrder: 'config',
		...(budget ? { budget } : {}),
	});
	const events: RunEvent[] = [];
	for await (const event of orchestrator.run()) {
		events.push(event);
		onEvent?.(event, orchestrator);
	}
	const of = <T extends RunEventType>(type: T) =>
		events.filter((event): event is RunEventOf<T> => event.type === type);
	const requests = (id: string) => models.get(id)!.requests.length;
	return { result: orchestrator.result!, events, of, requests };
}

const cost = (limit: number): BudgetCaps => ({
	maxCostUsd: { limit, source: '--max-cost' },
	maxTokens: null,
});

describe('run budget', () => {
	it('a cost cap reached mid-coordination ends the run with the stored answers, no presentation', async () => {
		const team = await run(
			[
				{ id: 'alice', handler: () => answer('four'), options: { latencyMs: 5 } },
				{ id: 'bob', handler: () => answer('4'), options: { latencyMs: 40 } },
			],
			cost(0.25),
		);
		// alice's call ($0.15) leaves room; bob's ($0.30 in all) reaches the cap: nothing else starts.
		const reason = 'cost budget reached: $0.3000 of $0.2500 (--max-cost)';
		expect(team.of('budget-reached')).toMatchObject([{ kind: 'cost', limit: 0.25, spent: 0.3, reason }]);
		expect(team.requests('alice') + team.requests('bob')).toBe(2);
		expect(team.of('presentation-start')).toEqual([]);
		expect(team.result.status).toBe('completed');
		expect(team.result.answers.map((a) => a.content).sort()).toEqual(['4', 'four']);
		// No votes: the earliest answer is the best-supported (MassGen's rule); it stands as it was stored.
		expect(team.result.winner).toEqual({ agentId: 'alice', label: 'agent1.1' });
		expect(team.result.finalAnswer).toBe('four');
		const budget = {
			maxCostUsd: { limit: 0.25, source: '--max-cost' },
			maxTokens: null,
			spentUsd: 0.3,
			spentTokens: 300,
			reason,
		};
		expect(team.result.budget).toEqual(budget);
		expect(team.of('run-end')[0]!.budget).toEqual(budget);
		expect(team.of('run-start')[0]!.budget).toEqual({
			...budget,
			spentUsd: 0,
			spentTokens: 0,
			reason: undefined,
		});
	});

	it('a token cap stops the calls in flight; a run without an answer fails with the reason', async () => {
		const team = await run(
			[
				{ id: 'alice', handler: () => look, options: { usage: { inputTokens: 900, outputTokens: 200 } } },
				{ id: 'bob', handler: () => answer('4'), options: { latencyMs: 60_000 } },
			],
			{ maxCostUsd: null, maxTokens: { limit: 1_000, source: 'massgen.maxTokens' } },
		);
		expect(team.of('budget-reached')[0]!.reason).toBe(
			'token budget reached: 1,100 of 1,000 tokens (massgen.maxTokens)',
		);
		expect(team.of('call-aborted')).toMatchObject([{ agentId: 'bob', reason: 'stopped' }]);
		expect(team.requests('alice')).toBe(1);
		expect(team.result.status).toBe('failed');
		expect(team.result.error).toBe(team.of('budget-reached')[0]!.reason);
		expect(team.result.answers).toEqual([]);
	});

	it('without caps nothing is recorded', async () => {
		const team = await run([{ id: 'solo', handler: () => ({ text: 'four' }) }]);
		expect(team.result.budget).toBeUndefined();
		expect(team.of('run-start')[0]!.budget).toBeUndefined();
		expect(team.result.finalAnswer).toBe('four');
	});
});

describe('Stop agent', () => {
	it('the stopped agent leaves the vote, its answer stays, and the run goes on to the presentation', async () => {
		let bobCalls = 0;
		const bob: ScriptedHandler = (request) => {
			if (read.isPresentation(request)) return { text: 'bob presents' };
			bobCalls++;
			return bobCalls === 1 ? answer('bob: 4') : { ...vote('agent2'), latencyMs: 60_000 };
		};
		let aliceCalls = 0;
		const alice: ScriptedHandler = (request) => {
			if (read.isPresentation(request)) return { text: 'alice presents' };
			aliceCalls++;
			return aliceCalls === 1 ? { ...answer('alice: four'), latencyMs: 20 } : vote('agent2');
		};
		let stopped: boolean | undefined;
		const team = await run(
			[
				{ id: 'alice', handler: alice, options: { latencyMs: 5 } },
				{ id: 'bob', handler: bob, options: { latencyMs: 5 } },
			],
			undefined,
			(event, orchestrator) => {
				if (event.type === 'round-start' && event.agentId === 'bob' && event.round === 2) {
					stopped = orchestrator.stopAgent('bob');
				}
			},
		);
		expect(stopped).toBe(true);
		expect(team.of('agent-stopped')).toMatchObject([{ agentId: 'bob', reason: 'user' }]);
		expect(team.of('agent-killed')).toEqual([]);
		// alice's vote alone is consensus; bob's answer won it and stands (a stopped agent does not present).
		expect(team.of('winner-selected')[0]).toMatchObject({ agentId: 'bob', label: 'agent2.1' });
		expect(team.of('presentation-start')).toEqual([]);
		expect(team.result.status).toBe('completed');
		expect(team.result.finalAnswer).toBe('bob: 4');
		expect(team.result.votes).toMatchObject([{ voter: 'alice', votedFor: 'bob' }]);
	});

	it('stopping an unknown agent, or after coordination, does nothing', async () => {
		let late: boolean | undefined;
		let unknown: boolean | undefined;
		const team = await run(
			[
				{ id: 'alice', handler: answerThenVote('a') },
				{ id: 'bob', handler: answerThenVote('b') },
			],
			undefined,
			(event, orchestrator) => {
				if (event.type === 'run-start') unknown = orchestrator.stopAgent('nobody');
				if (event.type === 'presentation-start') late = orchestrator.stopAgent(event.agentId);
			},
		);
		expect(unknown).toBe(false);
		expect(late).toBe(false);
		expect(team.of('agent-stopped')).toEqual([]);
		expect(team.result.finalAnswer).toBe('final:a');
	});
});

describe('run budget in the presentation', () => {
	it('a presentation call that reaches the cap still delivers what it wrote; nothing starts after it', async () => {
		const team = await run([{ id: 'solo', handler: () => ({ text: 'four' }) }], cost(0.1));
		expect(team.of('budget-reached')).toHaveLength(1);
		expect(team.requests('solo')).toBe(1);
		expect(team.result.finalAnswer).toBe('four');
		expect(team.result.budget?.reason).toBe('cost budget reached: $0.1500 of $0.1000 (--max-cost)');
	});

	it('a cap reached while the winner presents stops it: the stored answer stands', async () => {
		let presented = 0;
		const handler: ScriptedHandler = (request) => {
			if (!read.isPresentation(request)) {
				return read.voteOptions(request).length ? vote('agent1') : answer('4');
			}
			presented++;
			// The presenter looks first (a tool call), then would write: the look's cost reaches the cap.
			return presented === 1 ? look : { text: 'presented' };
		};
		const team = await run(
			[
				{ id: 'alice', handler, options: { latencyMs: 5 } },
				{ id: 'bob', handler, options: { latencyMs: 30 } },
			],
			cost(0.7),
		);
		// 2 answers + 2 votes ($0.60), then the presenter's look ($0.75): no further call.
		expect(team.of('presentation-start')).toHaveLength(1);
		expect(presented).toBe(1);
		expect(team.result.status).toBe('completed');
		expect(team.result.finalAnswer).toBe('4');
		expect(team.result.budget?.reason).toMatch(/^cost budget reached: \$0\.7500 of \$0\.7000/);
	});
});

describe('run budget in post-evaluation', () => {
	it('a restart verdict whose call reached the cap does not start coordination again', async () => {
		const handler: ScriptedHandler = (request) =>
			request.tools.some((tool) => tool.name === 'submit')
				? {
						toolCalls: [
							{ name: 'restart_orchestration', arguments: { reason: 'thin', instructions: 'more' } },
						],
					}
				: { text: 'four' };
		const team = await run([{ id: 'solo', handler }], cost(0.25), undefined, { maxOrchestrationRestarts: 1 });
		// The presentation ($0.15) and the evaluation ($0.30 in all): the presented answer stands.
		expect(team.requests('solo')).toBe(2);
		expect(team.of('attempt-start')).toEqual([]);
		expect(team.result.finalAnswer).toBe('four');
		expect(team.result.restarts).toBeUndefined();
		expect(team.result.budget?.reason).toBe('cost budget reached: $0.3000 of $0.2500 (--max-cost)');
	});
});

describe('run budget against a member whose server reports impossible usage', () => {
	// The adapters pass the server's JSON counts through (`usage.prompt_tokens ?? 0`): a hostile or
	// broken server can say anything there.
	const impossible = [
		['negative', { inputTokens: -10_000_000, outputTokens: -5 }],
		['NaN', { inputTokens: Number.NaN, outputTokens: Number.NaN }],
		['text', { inputTokens: '9' as unknown as number, outputTokens: '-9999999' as unknown as number }],
	] as const;

	it.each(impossible)(
		'%s counts do not offset the other members’ spend: the cost cap is still reached',
		async (_, usage) => {
			const team = await run(
				[
					{ id: 'mallory', handler: () => answer('five'), options: { latencyMs: 1, usage } },
					{ id: 'alice', handler: () => answer('four'), options: { latencyMs: 5 } },
					{ id: 'bob', handler: () => answer('4'), options: { latencyMs: 40 } },
				],
				cost(0.25),
			);
			// alice ($0.15) and bob ($0.15) reach $0.25 whatever mallory reported; mallory's call counts nothing.
			expect(team.of('budget-reached')).toMatchObject([{ kind: 'cost', limit: 0.25, spent: 0.3 }]);
			expect(team.result.budget).toMatchObject({ spentUsd: 0.3, spentTokens: 300 });
			const mallory = team.result.usage.find((u) => u.agentId === 'mallory')!;
			expect(mallory).toMatchObject({ inputTokens: 0, outputTokens: 0, costUsd: 0 });
			expect(team.of('usage').find((e) => e.agentId === 'mallory')).toMatchObject({ costUsd: 0 });
		},
	);

	it.each(impossible)('%s counts do not disable the token cap', async (_, usage) => {
		const team = await run(
			[
				{ id: 'mallory', handler: () => answer('five'), options: { latencyMs: 1, usage } },
				{
					id: 'alice',
					handler: () => look,
					options: { latencyMs: 5, usage: { inputTokens: 900, outputTokens: 200 } },
				},
				{ id: 'bob', handler: () => answer('4'), options: { latencyMs: 60_000 } },
			],
			{ maxCostUsd: null, maxTokens: { limit: 1_000, source: 'massgen.maxTokens' } },
		);
		expect(team.of('budget-reached')[0]?.reason).toBe(
			'token budget reached: 1,100 of 1,000 tokens (massgen.maxTokens)',
		);
	});
});
