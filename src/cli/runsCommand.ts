/**
 * `massgen runs`: every run of the workspace, newest first, from the run directories (docs/sessions.md).
 * A run this machine did not make (it came with the folder) is marked; `--continue` and `revert`
 * refuse it. The listing's reads are bounded (`readSessions`), so a planted folder cannot stall it.
 */
import { resolve } from 'node:path';
import { planRunLabel } from '../contract/plan.js';
import { readSessions } from '../core/sessions/readSessions.js';
import { formatChanges, formatCost, formatTime, oneLine } from '../core/sessions/reportFormat.js';
import type { TurnSummary } from '../core/sessions/sessionTypes.js';
import type { CliCommand } from './args.js';
import type { CliIo } from './cliIo.js';

export async function runsCommand(
	command: Extract<CliCommand, { kind: 'runs' }>,
	io: CliIo,
): Promise<number> {
	const root = resolve(command.workspace);
	if (command.keep) {
		const { pruneWorkspaceRuns } = await import('../core/sessions/pruneWorkspaceRuns.js');
		const deleted = await pruneWorkspaceRuns(root, command.keep);
		io.stderr.write(
			deleted.length > 0 ? `deleted ${deleted.length} run(s): ${deleted.join(', ')}\n` : 'deleted no runs\n',
		);
	}
	const { sessions, skipped } = await readSessions(root);
	const runs = sessions.flatMap((line) => line.turns).sort(newestFirst);
	if (command.json) {
		// The list, not the answers: `massgen show` prints one run whole.
		const listed = runs.map(({ finalAnswer: _, ...turn }) => turn);
		io.stdout.write(`${JSON.stringify({ runs: listed, skipped }, null, 2)}\n`);
		return 0;
	}
	if (runs.length === 0) io.stderr.write('no runs in this workspace\n');
	else io.stdout.write(`${formatRuns(runs)}\n`);
	for (const skip of skipped) io.stderr.write(`skipped ${skip.runId}: ${skip.reason}\n`);
	return 0;
}

/** A follow-up is marked `↳`, a fork's first turn `⑂` (its parent in the last column of `--json`). */
function formatRuns(runs: readonly TurnSummary[]): string {
	const rows = runs.map((run) => [
		run.runId,
		formatTime(run.startedAt),
		run.status,
		run.winner?.agentId ?? '-',
		formatCost(run.costUsd),
		formatChanges(0, run.changes),
		// A plan's runs by their part in it (the question is the long planning or step prompt).
		`${run.madeHere ? '' : '[not made on this machine] '}${mark(run)}${oneLine(run.plan ? planRunLabel(run.plan) : run.question, 60)}`,
	]);
	const head = ['RUN', 'STARTED', 'STATUS', 'WINNER', 'COST', 'CHANGES', 'QUESTION'];
	const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
	return [head, ...rows]
		.map((row) =>
			row
				.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
				.join('  ')
				.trimEnd(),
		)
		.join('\n');
}

function mark(run: TurnSummary): string {
	if (run.parentRunId === null) return '';
	return run.sessionId === run.runId ? '⑂ ' : '↳ ';
}

function newestFirst(a: TurnSummary, b: TurnSummary): number {
	return b.startedAt.localeCompare(a.startedAt) || b.runId.localeCompare(a.runId);
}
