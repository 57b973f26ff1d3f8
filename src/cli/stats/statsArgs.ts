/** `massgen stats`'s options (docs/cli.md#massgen-stats), parsed apart from the other commands'. */
import { parseArgs } from 'node:util';
import { UsageError } from '../usageError.js';

export interface StatsArgs {
	readonly kind: 'stats';
	readonly workspace: string;
	/** `--since 30d|12h|2026-11-01`: runs started before it are left out. */
	readonly since?: Date;
	/** `--json`: the leaderboard as one JSON object on stdout. */
	readonly json: boolean;
	/** `--min-runs N`: rows with fewer runs are not ranked (default 5). */
	readonly minRuns?: number;
}

export const statsUsage = `  massgen stats [--since 30d|12h|2026-11-01] [--json] [--min-runs N] [--workspace DIR]`;

export const statsHelp = `stats     What this machine's runs in the workspace came to, per model, per agent and per team: runs,
          answers, wins, votes, agreement with the final vote, your accepts, rejects and reverts of the
          winning changes, runner-up hunks taken, cost and time per run (docs/stats.md). Runs that came
          with the folder, and unfinished or unreadable runs, are skipped with the reason
          --since      only runs started in the last N days (30d) or hours (12h), or since a date
          --json       the leaderboard as one JSON object on stdout
          --min-runs   rows with fewer runs are listed unranked (default 5)`;

/** Parses the words after `stats`; `now` places a relative `--since`. Throws UsageError with a message for the user. */
export function parseStatsArgs(
	argv: readonly string[],
	cwd: string,
	now: Date = new Date(),
): StatsArgs | { readonly kind: 'help' } {
	let parsed;
	try {
		parsed = parseArgs({
			args: [...argv],
			allowPositionals: true,
			strict: true,
			options: {
				since: { type: 'string' },
				json: { type: 'boolean', default: false },
				'min-runs': { type: 'string' },
				workspace: { type: 'string' },
				help: { type: 'boolean', short: 'h', default: false },
			},
		});
	} catch (error) {
		throw new UsageError((error as Error).message);
	}
	const { values, positionals } = parsed;
	if (values.help) return { kind: 'help' };
	if (positionals.length > 0) throw new UsageError(`stats takes no arguments, not '${positionals[0]}'`);
	const since = values.since === undefined ? undefined : sinceDate(values.since, now);
	const minRuns = values['min-runs'] === undefined ? undefined : wholeNumber(values['min-runs']);
	return {
		kind: 'stats',
		workspace: values.workspace ?? cwd,
		json: values.json ?? false,
		...(since ? { since } : {}),
		...(minRuns !== undefined ? { minRuns } : {}),
	};
}

/**
 * `30d`, `12h` (before `now`) or a date `2026-11-01` / a time `2026-11-01T09:30[:00[.000]][Z]`,
 * always UTC. A day or time that does not exist (`2026-02-31`, `T24:00`) is refused: `Date` would
 * roll it over into another day without a word.
 */
export function sinceDate(text: string, now: Date): Date {
	const relative = /^([1-9]\d{0,4})([dh])$/.exec(text);
	if (relative) {
		const hours = Number(relative[1]) * (relative[2] === 'd' ? 24 : 1);
		return new Date(now.getTime() - hours * 3600 * 1000);
	}
	const parts = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?Z?)?$/.exec(text);
	if (parts) {
		const [year, month, day, hour = 0, minute = 0, second = 0] = parts
			.slice(1, 7)
			.map((part) => Number(part ?? 0));
		const ms = Number((parts[7] ?? '0').padEnd(3, '0'));
		const date = new Date(Date.UTC(year!, month! - 1, day, hour, minute, second, ms));
		const exists =
			date.getUTCFullYear() === year &&
			date.getUTCMonth() === month! - 1 &&
			date.getUTCDate() === day &&
			date.getUTCHours() === hour &&
			date.getUTCMinutes() === minute &&
			date.getUTCSeconds() === second;
		if (exists) return date;
	}
	throw new UsageError(
		`--since is a number of days (30d), hours (12h) or a date (2026-11-01), not '${text}'`,
	);
}

function wholeNumber(text: string): number {
	if (/^[1-9]\d{0,5}$/.test(text)) return Number(text);
	throw new UsageError(`--min-runs must be a whole number of runs, 1 or more, not '${text}'`);
}
