import { describe, expect, it } from 'vitest';
import { dayBudget, heldByGoing } from '../../../src/core/run/dayBudget.js';

const source = 'massgen.maxCostUsdPerDay';
const perRun = { limit: 1, source: 'massgen.maxCostUsd' };

describe('dayBudget', () => {
	it('a run gets its own cap when it fits in what the day leaves', () => {
		expect(dayBudget({ perDayUsd: 5, source, spentUsd: 2, going: [], perRun })).toEqual({
			ok: true,
			maxCostUsd: perRun,
		});
	});

	it('else what is left, named by the day cap', () => {
		expect(dayBudget({ perDayUsd: 5, source, spentUsd: 4.5, going: [], perRun })).toEqual({
			ok: true,
			maxCostUsd: { limit: 0.5, source },
		});
		// (s + 1) - s is 0.9999999999999999 for this s: the own cap of $1 still fits.
		const s = 0.001;
		expect(dayBudget({ perDayUsd: s + 1, source, spentUsd: s, going: [], perRun })).toEqual({
			ok: true,
			maxCostUsd: perRun,
		});
		expect(dayBudget({ perDayUsd: 5, source, spentUsd: 1, going: [], perRun: undefined })).toEqual({
			ok: true,
			maxCostUsd: { limit: 4, source },
		});
	});

	it('runs going now hold their whole cap, or their spend when more or uncapped', () => {
		const going = [
			{ capUsd: 1, spentUsd: 0.1 },
			{ capUsd: 0.5, spentUsd: 0.75 },
			{ capUsd: null, spentUsd: 0.25 },
		];
		expect(heldByGoing(going)).toBe(2);
		expect(dayBudget({ perDayUsd: 5, source, spentUsd: 2.5, going, perRun })).toEqual({
			ok: true,
			maxCostUsd: { limit: 0.5, source },
		});
	});

	it('refused when nothing is left, with the figures', () => {
		const going = [{ capUsd: 2, spentUsd: 0 }];
		expect(dayBudget({ perDayUsd: 5, source, spentUsd: 3, going, perRun })).toEqual({
			ok: false,
			perDayUsd: 5,
			spentUsd: 3,
			heldUsd: 2,
		});
		expect(dayBudget({ perDayUsd: 5, source, spentUsd: 6, going: [], perRun }).ok).toBe(false);
		// Float crumbs of the sums are nothing left: (s + 0.06) - s - 0.06 is 6.9e-18 for this s.
		const s = 0.0028500000000000005;
		const crumbs = [{ capUsd: 0.06, spentUsd: 0 }];
		expect(dayBudget({ perDayUsd: s + 0.06, source, spentUsd: s, going: crumbs, perRun }).ok).toBe(false);
	});

	it('two runs admitted one after the other never hold more than the day', () => {
		const first = dayBudget({ perDayUsd: 3, source, spentUsd: 1, going: [], perRun: undefined });
		expect(first).toEqual({ ok: true, maxCostUsd: { limit: 2, source } });
		const second = dayBudget({
			perDayUsd: 3,
			source,
			spentUsd: 1,
			going: [{ capUsd: 2, spentUsd: 0 }],
			perRun: undefined,
		});
		expect(second.ok).toBe(false);
	});
});
