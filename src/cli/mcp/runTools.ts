/**
 * `list_runs` and `show_run`: the workspace's runs read back from their directories through the
 * run store (bounded reads, no links, zod-checked), as `massgen runs` and `massgen show` read them.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isSafeRunId } from '../../contract/runId.js';
import { RunsDirError } from '../../core/runStore/runsDirGuard.js';
import { SessionError } from '../../core/sessions/historyOf.js';
import { readSessions } from '../../core/sessions/readSessions.js';
import { formatChanges, formatVotes, formatWinner, oneLine } from '../../core/sessions/reportFormat.js';
import { readRunReport } from '../../core/sessions/runReport.js';
import type { TurnSummary } from '../../core/sessions/sessionTypes.js';
import { textResult, toolError } from './toolResult.js';

export async function listRuns(root: string, limit: number, now: Date): Promise<CallToolResult> {
	const { sessions, skipped } = await readSessions(root);
	const runs = sessions
		.flatMap((line) => line.turns)
		.sort((a, b) => b.startedAt.localeCompare(a.startedAt) || b.runId.localeCompare(a.runId));
	if (runs.length === 0) return textResult('No runs in this workspace yet (ask_team starts one).');
	const shown = runs.slice(0, limit);
	const lines = shown.map((run) => runLine(run, now));
	const more = runs.length > shown.length ? [`(${runs.length - shown.length} older run(s) not listed)`] : [];
	const left = skipped.map((skip) => `(skipped ${skip.runId}: ${skip.reason})`);
	return textResult(
		[`${runs.length} run(s), newest first (show_run gives one whole):`, ...lines, ...more, ...left].join(
			'\n',
		),
	);
}

function runLine(run: TurnSummary, now: Date): string {
	const winner = run.winner ? `winner ${run.winner.agentId}` : 'no winner';
	const files = formatChanges(run.files ?? 0, run.changes);
	const foreign = run.madeHere ? '' : ', not made on this machine';
	return `- ${run.runId} (${age(run.startedAt, now)}): ${run.status}, ${winner}, changes: ${files}${foreign}: "${oneLine(run.question, 100)}"`;
}

function age(startedAt: string, now: Date): string {
	const seconds = Math.max(0, Math.round((now.getTime() - Date.parse(startedAt)) / 1000));
	if (seconds < 90) return `${seconds} s ago`;
	if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min ago`;
	if (seconds < 36 * 3600) return `${Math.round(seconds / 3600)} h ago`;
	return `${Math.round(seconds / 86_400)} days ago`;
}

export async function showRun(root: string, runId: string): Promise<CallToolResult> {
	if (!isSafeRunId(runId)) return toolError(`'${oneLine(runId, 80)}' is not a run id (list_runs lists them)`);
	let report;
	try {
		report = await readRunReport(root, runId);
	} catch (error) {
		if (SessionError.is(error) || RunsDirError.is(error)) {
			return toolError(`${error.message} (list_runs lists the runs)`);
		}
		throw error;
	}
	const { result } = report;
	const head = [
		`run ${result.runId}: ${result.status}`,
		`question: ${result.question}`,
		`winner: ${formatWinner(result)}`,
		...formatVotes(result.votes).map((line) => `- ${line}`),
		...(result.error ? [`error: ${result.error}`] : []),
		`changes: ${formatChanges(result.changes.length, report.changes)}`,
	].join('\n');
	const answer = `Final answer:\n${result.finalAnswer ?? '(none)'}`;
	const patch = report.patch.trim() ? `Proposed changes (unified diff):\n${report.patch}` : '';
	return textResult(head, answer, patch);
}
