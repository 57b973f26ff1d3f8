/**
 * Sessions rebuilt from `<workspace>/.massgen/runs/` (issue 13): every run's `result.json` names
 * its session and parent run, so no second store can drift from the runs. Runs without a
 * session record (from before sessions) are one-turn sessions; unreadable runs are skipped with
 * the reason, never thrown.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { changeOutcome, readChangeLog, type ChangeOutcome } from '../changes/acceptRecord.js';
import { runsDir } from '../logs/runLog.js';
import { isSafeRunId } from '../logs/runId.js';
import { assertRealFolder, assertRunsDirInside, RunsDirError } from '../logs/runsDirGuard.js';
import { readRunRecord, runCost } from './readRunRecord.js';
import type { SessionLine, SessionsRead, TurnSummary } from './sessionTypes.js';

/** Every session line of the workspace, newest activity first, turns oldest first. */
export async function readSessions(workspaceRoot: string): Promise<SessionsRead> {
	const names = await runDirNames(workspaceRoot);
	const skipped: { runId: string; reason: string }[] = [];
	const turns: TurnSummary[] = [];
	// One at a time: bounded memory (each read is one result.json) on a folder of thousands of runs.
	for (const runId of names) {
		const turn = await readTurn(workspaceRoot, runId);
		if ('reason' in turn) skipped.push(turn);
		else turns.push(turn);
	}
	const lines = new Map<string, TurnSummary[]>();
	for (const turn of turns) {
		const line = lines.get(turn.sessionId);
		if (line) line.push(turn);
		else lines.set(turn.sessionId, [turn]);
	}
	const sessions: SessionLine[] = [...lines].map(([id, line]) => {
		const ordered = inChainOrder(line);
		return { id, forkedFrom: ordered[0]!.parentRunId, turns: ordered };
	});
	sessions.sort((a, b) => byStart(b.turns.at(-1)!, a.turns.at(-1)!));
	return { sessions, skipped };
}

/** One run as a turn, or why it is not one. */
export async function readTurn(
	workspaceRoot: string,
	runId: string,
): Promise<TurnSummary | { runId: string; reason: string }> {
	if (!isSafeRunId(runId)) return { runId, reason: 'not a run id' };
	await assertRunsDirInside(workspaceRoot);
	const runDir = join(runsDir(workspaceRoot), runId);
	// A run folder that is a link would be read from elsewhere.
	const linked = await assertRealFolder(runDir).then(
		() => undefined,
		(error: unknown) => {
			if (error instanceof RunsDirError) return error.message;
			throw error;
		},
	);
	if (linked) return { runId, reason: linked };
	const read = await readRunRecord(runDir, runId);
	if (!read.ok) return { runId, reason: read.reason };
	const { result, session, startedAt } = read;
	return {
		runId,
		sessionId: session.id,
		parentRunId: session.parentRunId,
		question: result.question,
		status: result.status,
		winner: result.winner,
		costUsd: runCost(result),
		startedAt,
		finalAnswer: result.finalAnswer,
		changes: await outcomeOf(runDir, result.changes.length),
	};
}

/** Reads the change record only when there were changes (it holds file texts); unreadable = no entries. */
async function outcomeOf(runDir: string, proposed: number): Promise<ChangeOutcome> {
	if (proposed === 0) return 'none';
	return changeOutcome(await readChangeLog(runDir).catch(() => []), proposed);
}

async function runDirNames(workspaceRoot: string): Promise<string[]> {
	await assertRunsDirInside(workspaceRoot);
	try {
		const entries = await readdir(runsDir(workspaceRoot), { withFileTypes: true });
		return entries.filter((e) => e.isDirectory() && isSafeRunId(e.name)).map((e) => e.name);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
		throw error;
	}
}

/**
 * By depth along `parentRunId` within the line, then start time: run ids order by the second
 * only, and a quick follow-up often starts within the same second as its parent.
 */
function inChainOrder(line: readonly TurnSummary[]): TurnSummary[] {
	const byId = new Map(line.map((turn) => [turn.runId, turn]));
	const depth = (turn: TurnSummary): number => {
		let d = 0;
		for (let p = turn.parentRunId; p !== null && byId.has(p) && d < byId.size; d++) {
			p = byId.get(p)!.parentRunId;
		}
		return d;
	};
	const depths = new Map(line.map((turn) => [turn.runId, depth(turn)]));
	return [...line].sort((a, b) => depths.get(a.runId)! - depths.get(b.runId)! || byStart(a, b));
}

function byStart(a: TurnSummary, b: TurnSummary): number {
	return a.startedAt.localeCompare(b.startedAt) || a.runId.localeCompare(b.runId);
}
