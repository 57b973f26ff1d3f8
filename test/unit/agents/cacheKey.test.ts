import { describe, expect, it } from 'vitest';
import { answerThenVote, runTeam } from '../../fakes/team.js';

describe('prompt-cache key', () => {
	it('is the same on every call of one agent in a run (presentation included), different between agents and runs, and names neither', async () => {
		const team = () =>
			runTeam([
				{ id: 'alice', handler: answerThenVote('A answer') },
				{ id: 'bob', handler: answerThenVote('B answer') },
			]);
		const run = await team();
		const keys = (agent: string) => run.models.get(agent)!.requests.map((r) => r.cacheKey);
		expect(keys('alice').length).toBeGreaterThanOrEqual(2);
		expect(new Set(keys('alice')).size).toBe(1);
		expect(new Set(keys('bob')).size).toBe(1);
		expect(keys('alice')[0]).not.toBe(keys('bob')[0]);
		for (const key of [...keys('alice'), ...keys('bob')]) {
			expect(key).toMatch(/^massgen-[0-9a-f]{24}$/);
			expect(key).not.toContain(run.result.runId);
		}
		const again = await team();
		expect(again.models.get('alice')!.requests[0]!.cacheKey).not.toBe(keys('alice')[0]);
	});
});
