/**
 * `massgen stats`: the leaderboard of this machine's runs in the workspace (docs/stats.md), as a
 * table or `--json`. A pure read: nothing is written. Runs that came with the folder, and runs
 * that are unfinished or unreadable, are skipped with the reason (listed after the table).
 */
import { resolve } from 'node:path';
import { leaderboard } from '../../core/stats/leaderboard.js';
import { readRunFacts } from '../../core/stats/runFacts.js';
import { statsReport } from '../../core/stats/statsReport.js';
import type { CliIo } from '../cliIo.js';
import type { StatsArgs } from './statsArgs.js';

export async function statsCommand(args: StatsArgs, io: CliIo): Promise<number> {
	const facts = await readRunFacts(resolve(args.workspace), {
		...(args.since ? { since: args.since } : {}),
		env: io.env,
	});
	const board = leaderboard(facts, {
		...(args.since ? { since: args.since } : {}),
		...(args.minRuns !== undefined ? { minRuns: args.minRuns } : {}),
	});
	io.stdout.write(args.json ? `${JSON.stringify(board, null, 2)}\n` : statsReport(board, 'text'));
	return 0;
}
