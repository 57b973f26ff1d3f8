import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/providers/spec/model.js';
import type { ScriptedReply } from '../../../src/core/providers/vendors/scriptedModel.js';
import { answer, answerThenVote, read, runTeam, sequence, vote } from '../../fakes/team.js';
import { ManualClock } from '../../support/manualClock.js';

const coordination = (requests: readonly ChatRequest[]) => requests.filter((r) => !read.isPresentation(r));
const voteEnum = (request: ChatRequest) =>
	(request.tools.find((t) => t.name === 'vote')!.parameters['properties'] as { agent_id: { enum: string[] } })
		.agent_id.enum;

describe('the tool list is the same on every coordination call (prompt caching)', () => {
	it('every call of an agent sends identical tools; vote and view_answer_changes list every agent', async () => {
		const run = await runTeam(
			[
				{ id: 'alice', handler: answerThenVote('A answer') },
				{ id: 'bob', handler: answerThenVote('B answer'), options: { latencyMs: 30 } },
				{ id: 'carol', handler: answerThenVote('C answer'), options: { latencyMs: 60 } },
			],
			{ clock: new ManualClock() },
		);
		expect(run.result.status).toBe('completed');
		for (const model of run.models.values()) {
			const calls = coordination(model.requests);
			expect(calls.length).toBeGreaterThanOrEqual(2);
			expect(new Set(calls.map((r) => JSON.stringify(r.tools))).size).toBe(1);
			expect(voteEnum(calls[0]!)).toEqual(['agent1', 'agent2', 'agent3']);
			const view = calls[0]!.tools.find((t) => t.name === 'view_answer_changes')!;
			expect(JSON.stringify(view.parameters)).toContain('["agent1","agent2","agent3"]');
		}
	});

	it('a vote before any answer, or for an agent without one, is refused with the reason', async () => {
		let call = 0;
		const alice = (request: ChatRequest): ScriptedReply => {
			if (read.isPresentation(request)) return { text: 'final' };
			call++;
			if (call === 1) return vote('agent2');
			if (call === 2) return answer('A answer');
			return vote('agent1');
		};
		const run = await runTeam(
			[
				{ id: 'alice', handler: alice },
				{ id: 'bob', handler: sequence([{ ...answer('B answer'), latencyMs: 40 }, vote('agent1')]) },
			],
			{ clock: new ManualClock() },
		);
		const errors = run.of('workflow-error').filter((e) => e.agentId === 'alice');
		expect(errors[0]!.message).toContain('no answers exist yet');
		expect(run.result.status).toBe('completed');
	});

	it('view_answer_changes on an agent that has not answered yet says so', async () => {
		const run = await runTeam(
			[
				{
					id: 'alice',
					handler: sequence([
						{ toolCalls: [{ name: 'view_answer_changes', arguments: { agent_id: 'agent2' } }] },
						answer('A answer'),
						vote('agent1'),
					]),
				},
				{ id: 'bob', handler: sequence([{ ...answer('B answer'), latencyMs: 40 }, vote('agent1')]) },
			],
			{ clock: new ManualClock() },
		);
		const result = run.of('tool-result').find((e) => e.agentId === 'alice')!;
		expect(result).toMatchObject({ isError: true });
		expect(JSON.stringify(result)).toContain('agent2 has no answer yet');
	});
});
