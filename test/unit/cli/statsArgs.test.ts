import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../src/cli/args.js';
import { parseStatsArgs } from '../../../src/cli/stats/statsArgs.js';

const now = new Date('2026-12-03T12:00:00.000Z');

describe('massgen stats arguments', () => {
	it('--since as days, hours or a date; --json; --min-runs; --workspace', () => {
		expect(parseStatsArgs(['--since', '30d', '--json', '--min-runs', '3'], '/ws', now)).toEqual({
			kind: 'stats',
			workspace: '/ws',
			json: true,
			since: new Date('2026-11-03T12:00:00.000Z'),
			minRuns: 3,
		});
		expect(parseStatsArgs(['--since', '12h'], '/ws', now)).toMatchObject({
			since: new Date('2026-12-03T00:00:00.000Z'),
		});
		expect(parseStatsArgs(['--since', '2026-11-01', '--workspace', '/other'], '/ws', now)).toEqual({
			kind: 'stats',
			workspace: '/other',
			json: false,
			since: new Date('2026-11-01T00:00:00.000Z'),
		});
		expect(parseCliArgs(['stats'], '/ws')).toEqual({ kind: 'stats', workspace: '/ws', json: false });
		expect(parseCliArgs(['stats', '--help'], '/ws')).toEqual({ kind: 'help' });
	});

	it('refuses a bad --since, --min-runs, an unknown flag or an argument with a clear message', () => {
		expect(() => parseStatsArgs(['--since', 'last week'], '/ws', now)).toThrow(
			"--since is a number of days (30d), hours (12h) or a date (2026-11-01), not 'last week'",
		);
		expect(() => parseStatsArgs(['--since', '2026-13-45'], '/ws', now)).toThrow(
			'--since is a number of days',
		);
		expect(() => parseStatsArgs(['--since', '0d'], '/ws', now)).toThrow('--since is a number of days');
		// A day or time that does not exist is refused, not rolled over (2026-02-31 was read as March 3).
		for (const bad of [
			'2026-02-31',
			'2026-04-31',
			'2025-02-29',
			'2026-11-01T24:00',
			'2026-11-01T10:60Z',
			'2026-11-01T10:00:61Z',
		]) {
			expect(() => parseStatsArgs(['--since', bad], '/ws', now), bad).toThrow('--since is a number of days');
		}
	});

	it('--since a time is UTC, with or without Z', () => {
		expect(parseStatsArgs(['--since', '2024-02-29'], '/ws', now)).toMatchObject({
			since: new Date('2024-02-29T00:00:00.000Z'),
		});
		expect(parseStatsArgs(['--since', '2026-11-01T09:30'], '/ws', now)).toMatchObject({
			since: new Date('2026-11-01T09:30:00.000Z'),
		});
		expect(parseStatsArgs(['--since', '2026-11-01T09:30:15.5Z'], '/ws', now)).toMatchObject({
			since: new Date('2026-11-01T09:30:15.500Z'),
		});
		for (const bad of ['0', '-2', '1.5', 'many']) {
			expect(() => parseStatsArgs([`--min-runs=${bad}`], '/ws', now)).toThrow(
				`--min-runs must be a whole number of runs, 1 or more, not '${bad}'`,
			);
		}
		expect(() => parseStatsArgs(['--apply'], '/ws', now)).toThrow("Unknown option '--apply'");
		expect(() => parseStatsArgs(['models'], '/ws', now)).toThrow("stats takes no arguments, not 'models'");
	});
});
