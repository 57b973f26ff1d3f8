import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/providers/spec/model.js';
import type { ScriptedReply } from '../../../src/core/providers/vendors/scriptedModel.js';
import { answer, makeWorkspaceDir, read, runTeam, vote } from '../../fakes/team.js';
import { ManualClock } from '../../support/manualClock.js';

describe('RunResult.answerChanges', () => {
	it("holds every latest answer's overlay as a change set against the same base", async () => {
		const root = makeWorkspaceDir({ 'a.txt': 'one\n' });
		let aliceStep = 0;
		const alice = (request: ChatRequest): ScriptedReply => {
			if (read.isPresentation(request)) return { text: 'final' };
			aliceStep++;
			if (aliceStep === 1) {
				return { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'two\n' } }] };
			}
			if (aliceStep === 2) return answer('changed a.txt');
			return vote('agent1');
		};
		const bob = (request: ChatRequest): ScriptedReply => {
			if (read.isPresentation(request)) return { text: 'unused' };
			return read.voteOptions(request).includes('agent1') ? vote('agent1') : answer('left it alone');
		};
		const run = await runTeam(
			[
				{ id: 'alice', handler: alice },
				{ id: 'bob', handler: bob, options: { latencyMs: 30 } },
			],
			{ clock: new ManualClock(), root, anonymousOrder: 'config', settings: { staleCallRestartFraction: 0 } },
		);
		expect(run.result.winner?.agentId).toBe('alice');
		expect(run.result.answerChanges).toEqual([
			{
				agentId: 'alice',
				label: 'agent1.1',
				changes: [expect.objectContaining({ path: 'a.txt', kind: 'modify', content: 'two\n' })],
			},
			{ agentId: 'bob', label: 'agent2.1', changes: [] },
		]);
	});

	it('is absent when there is no winner', async () => {
		const failing = () => ({ text: 'no workflow call' });
		const run = await runTeam(
			[
				{ id: 'solo', handler: failing },
				{ id: 'duo', handler: failing },
			],
			{ clock: new ManualClock(), settings: { maxAttemptsPerTurn: 1, maxAgentFailures: 1 } },
		);
		expect(run.result.winner).toBeNull();
		expect(run.result.answerChanges).toBeUndefined();
	});
});
