import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatRequest } from '../../../src/core/providers/spec/model.js';
import type { ScriptedReply } from '../../../src/core/providers/vendors/scriptedModel.js';
import { answer, answerThenVote, read, runTeam, vote } from '../../fakes/team.js';
import { ManualClock } from '../../support/manualClock.js';

/**
 * alice answers first (unless the case starts before any answer), then plays `bad` once,
 * then votes validly; bob answers at once and votes. We check the error event and what the
 * model was told in its next request.
 */
async function runCase(
	bad: (request: ChatRequest) => ScriptedReply,
	options: { first?: boolean; settings?: object } = {},
) {
	let call = 0;
	const alice = (request: ChatRequest): ScriptedReply => {
		if (read.isPresentation(request)) return { text: 'final' };
		call++;
		const badCall = options.first ? 1 : 2;
		if (call === badCall) return bad(request);
		if (call < badCall) return answer('Alice: four, because two plus two is four.');
		const ids = read.voteOptions(request);
		return ids.length ? vote(ids[0]!) : answer('Alice: the answer is 4.');
	};
	const run = await runTeam(
		[
			{ id: 'alice', handler: alice, options: { latencyMs: options.first ? 0 : 10 } },
			{ id: 'bob', handler: answerThenVote('Bob: 4'), options: { latencyMs: options.first ? 30 : 0 } },
		],
		{ clock: new ManualClock(), settings: { staleCallRestartFraction: 0, ...options.settings } },
	);
	const errors = run.of('workflow-error').filter((e) => e.agentId === 'alice');
	const requests = run.models.get('alice')!.requests.filter((r) => !read.isPresentation(r));
	const next = requests[options.first ? 1 : 2]!.messages;
	const feedback = next.at(-1) as ChatMessage;
	// Everything the model was told after its bad response (one tool result per call).
	const told = next
		.slice(next.findLastIndex((m) => m.role === 'assistant') + 1)
		.map((m) => m.content)
		.join('\n');
	return { run, errors, feedback, told };
}

describe('workflow validation', () => {
	const cases: [
		string,
		(r: ChatRequest) => ScriptedReply,
		string,
		{ first?: boolean; settings?: object }?,
	][] = [
		[
			'two votes',
			(r) => ({
				toolCalls: [
					vote(read.voteOptions(r)[0]!).toolCalls![0]!,
					vote(read.voteOptions(r)[0]!).toolCalls![0]!,
				],
			}),
			'Multiple vote calls are not allowed',
		],
		[
			'vote and new_answer together',
			(r) => ({ toolCalls: [vote(read.voteOptions(r)[0]!).toolCalls![0]!, answer('x').toolCalls![0]!] }),
			'cannot both vote and submit',
		],
		[
			'two new answers',
			() => ({ toolCalls: [answer('x').toolCalls![0]!, answer('y').toolCalls![0]!] }),
			'Multiple new_answer calls',
		],
		['vote before any answer exists', () => vote('agent2'), 'no answers exist yet', { first: true }],
		['unknown agent id', () => vote('agent9'), "Invalid agent_id 'agent9'. Valid ids: agent1, agent2"],
		[
			'vote without a reason',
			(r) => ({ toolCalls: [{ name: 'vote', arguments: { agent_id: read.voteOptions(r)[0] } }] }),
			'non-empty reason',
		],
		['empty answer', () => answer('  '), 'needs non-empty content'],
		[
			'answer over the cap',
			() => answer('Alice: a second, different answer entirely'),
			'Answer limit reached (1 per agent)',
			{ settings: { maxNewAnswersPerAgent: 1 } },
		],
		['duplicate of another answer', () => answer('Bob: 4'), 'identical to agent2'],
		[
			'too similar to another answer',
			() => answer('bob: 4 indeed'),
			'too similar to agent2',
			{ settings: { answerNoveltyRequirement: 'strict' } },
		],
		[
			'invalid JSON arguments',
			() => ({ toolCalls: [{ name: 'vote', raw: '{"agent_id": "agent1", ' }] }),
			'Invalid arguments for vote',
		],
	];

	for (const [name, bad, message, options] of cases) {
		it(`rejects ${name} with a precise error, then the agent recovers`, async () => {
			const { run, errors, feedback, told } = await runCase(bad, options);
			expect(errors[0]!.message).toContain(message);
			expect(feedback.role).toBe('tool');
			expect(told).toContain(message);
			expect((feedback as { isError?: boolean }).isError).toBe(true);
			expect(run.result.status).toBe('completed');
		});
	}

	it('plain text without a workflow call gets the enforcement message in the same conversation', async () => {
		const { errors, feedback, run } = await runCase(() => ({ text: 'I think it is 4.' }));
		expect(errors[0]!.message).toContain('no workflow call');
		expect(feedback).toMatchObject({ role: 'user' });
		expect(feedback.content).toContain('exactly one workflow tool call');
		const second = run.models.get('alice')!.requests.filter((r) => !read.isPresentation(r))[2]!;
		expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
	});

	it('novelty never compares an agent with its own earlier answer', async () => {
		let call = 0;
		const alice = (request: ChatRequest): ScriptedReply => {
			if (read.isPresentation(request)) return { text: 'final' };
			call++;
			if (call === 1) return answer('the answer is four because two plus two');
			if (call === 2) return answer('the answer is four because two plus two equals four');
			return vote(read.voteOptions(request)[0]!);
		};
		const run = await runTeam(
			[
				{ id: 'alice', handler: alice },
				{ id: 'bob', handler: answerThenVote('Completely different words here'), options: { latencyMs: 20 } },
			],
			{
				clock: new ManualClock(),
				settings: { answerNoveltyRequirement: 'strict', staleCallRestartFraction: 0 },
			},
		);
		expect(run.of('workflow-error').filter((e) => e.agentId === 'alice')).toEqual([]);
		expect(
			run
				.of('new-answer')
				.filter((e) => e.agentId === 'alice')
				.map((e) => e.label),
		).toEqual(['agent1.1', 'agent1.2']);
	});

	it('three invalid attempts end the turn; repeated failures kill the agent and the run completes', async () => {
		const run = await runTeam(
			[
				{ id: 'alice', handler: () => ({ text: 'no tools for me' }) },
				{ id: 'bob', handler: answerThenVote('Bob: 4') },
			],
			{ clock: new ManualClock(), settings: { maxAgentFailures: 2 } },
		);
		const aliceErrors = run.of('workflow-error').filter((e) => e.agentId === 'alice');
		expect(aliceErrors.map((e) => e.attempt)).toEqual([1, 2, 3, 1, 2, 3]);
		expect(run.of('agent-killed')[0]).toMatchObject({ agentId: 'alice' });
		expect(run.of('agent-killed')[0]!.reason).toContain('2 turns in a row');
		expect(run.result.status).toBe('completed');
		expect(run.result.winner?.agentId).toBe('bob');
	});
});
