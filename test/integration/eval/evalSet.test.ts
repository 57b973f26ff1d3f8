import { describe, expect, it } from 'vitest';
import { evalCases } from '../../eval/cases.js';
import { evalTable } from '../../eval/evalTable.js';
import { runCase } from '../../eval/runCase.js';

/**
 * The eval set (`npm run eval`, test/eval/) in the suite: every case through dist/cli.js on the
 * loopback servers, its team's policy deciding from the requests it gets. A prompt change that
 * hides, cuts or mislabels the answers, or lets file text stand as an instruction, fails a case.
 */
describe('eval set (dist/cli.js, loopback servers)', () => {
	for (const evalCase of evalCases) {
		it(`${evalCase.name}: ${evalCase.expected}`, { timeout: 60_000 }, async () => {
			const outcome = await runCase(evalCase, { timeoutMs: 50_000 });
			expect(outcome.failures, evalTable([outcome])).toEqual([]);
			// Every agent's model was asked something: the decisions came from real requests.
			for (const agent of evalCase.agents) expect(outcome.perAgent[agent.id]).toBeGreaterThan(1);
		});
	}
});
