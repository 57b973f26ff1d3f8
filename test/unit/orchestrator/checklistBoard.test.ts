import { describe, expect, it } from 'vitest';
import type { RunEventBody } from '../../../src/contract/runEvents.js';
import { ChecklistBoard } from '../../../src/core/orchestrator/checklistBoard.js';

describe('ChecklistBoard: proposal quotas per agent and round', () => {
	it('counts what entered against the round’s quota, announces each merge, and starts over on a restarted attempt', () => {
		const events: RunEventBody[] = [];
		const board = new ChecklistBoard(
			{
				threshold: 7,
				criteria: [{ text: 'Given', category: 'primary' }],
				generate: false,
				mode: 'bootstrap_inline',
				maxProposalsPerAgentPerRound: 2,
				maxProposedTotal: 30,
			},
			(body) => events.push(body),
		);
		board.merge('alice', 1, ['p1']);
		expect(board.forExecution('alice', 1).proposalQuota).toBe(1);
		board.merge('alice', 1, ['p2', 'p3']);
		expect(board.inForce.map((c) => c.text)).toEqual(['Given', 'p1', 'p2']);
		expect(board.forExecution('alice', 1).proposalQuota).toBe(0);
		expect(board.forExecution('alice', 2).proposalQuota).toBe(2);
		expect(board.forExecution('bob', 1).proposalQuota).toBe(2);
		// A duplicate costs nothing and announces nothing.
		board.merge('bob', 1, ['p1']);
		expect(board.forExecution('bob', 1).proposalQuota).toBe(2);
		expect(events).toHaveLength(2);
		board.newAttempt();
		expect(board.forExecution('alice', 1).proposalQuota).toBe(2);
		expect(board.inForce).toHaveLength(3);
	});
});
