import { describe, expect, it } from 'vitest';
import { isSafeRunId, newRunId, runIdDate, runIdPattern } from '../../../src/contract/runId.js';

describe('run ids', () => {
	it('formats UTC time and four base-36 characters', () => {
		const date = new Date(Date.UTC(2025, 0, 2, 3, 4, 5));
		const values = [0, 0.5, 0.999999, 0.1];
		expect(newRunId(date, () => values.shift()!)).toBe('20250102-030405-0iz3');
	});

	it('produces safe, sortable ids that decode back to their time', () => {
		const date = new Date(Date.UTC(2031, 11, 31, 23, 59, 58));
		const id = newRunId(date);
		expect(id).toMatch(runIdPattern);
		expect(isSafeRunId(id)).toBe(true);
		expect(runIdDate(id)?.toISOString()).toBe('2031-12-31T23:59:58.000Z');
		expect(newRunId(new Date(Date.UTC(2025, 0, 1))) < id).toBe(true);
	});

	it('clamps a random source that returns 1', () => {
		expect(newRunId(new Date(0), () => 1)).toBe('19700101-000000-zzzz');
	});

	it('refuses names that are not one safe directory component', () => {
		for (const bad of ['', '.', '..', '../x', 'a/b', 'a\\b', '.hidden', 'a..b', 'x'.repeat(129), 'a b']) {
			expect(isSafeRunId(bad), bad).toBe(false);
		}
		expect(runIdDate('custom-run')).toBeNull();
		expect(isSafeRunId('custom-run_1.2')).toBe(true);
	});
});
