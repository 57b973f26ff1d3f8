/**
 * Sessions rebuilt from `<workspace>/.massgen/runs/` (docs/sessions.md): every run's `result.json` names
 * its session and parent run, so no second store can drift from the runs. Runs without a
 * session record (from before sessions) are one-turn sessions; unreadable runs are skipped with
 * the reason, never thrown.
 *
 * The folder comes with the repository, so a listing is bounded whatever it holds: runs this
 * machine did not make (`ownRuns.ts`) are read only when small and only so many, every read counts
 * against a total, and the texts a turn keeps are cut when read (a 30 MiB planted question is
 * dropped at once, not held for the whole listing).
 */
import { reviewLines } from './coordinationText.js';
import { readdir, stat } from 'node:fs/promises';
import { changeOutcome, type ChangeOutcome } from '../changes/acceptRecord.js';
import { readChangeLog } from '../runStore/changeLog.js';
import { readOwnRuns } from '../runStore/ownRuns.js';
import { unfinishedReason } from '../runStore/runningMarker.js';
import { maxResultBytes, readRunResult } from '../runStore/readResult.js';
import { runDirOf, runFile, runsDir } from '../../contract/runLayout.js';
import { isSafeRunId } from '../../contract/runId.js';
import { assertRealFolder, assertRunsDirInside, RunsDirError } from '../runStore/runsDirGuard.js';
import { runCost } from './runCost.js';
import type { SessionLine, SessionsRead, TurnSummary } from './sessionTypes.js';

/** What one listing reads at most. */
export interface ListingLimits {
	/** A `result.json` or changes log of a run this machine did not make (a real small run is a few KiB). */
	readonly foreignFileBytes: number;
	/** Runs this machine did not make that are read at all; the rest are skipped with the reason. */
	readonly foreignRuns: number;
	/** All files read by one listing together; the (oldest) runs beyond are skipped with the reason. */
	readonly totalBytes: number;
	/** Characters of a question and a final answer a listed turn keeps (history reads the run again). */
	readonly textChars: number;
}

export const listingLimits: ListingLimits = {
	foreignFileBytes: 256 * 1024,
	foreignRuns: 100,
	totalBytes: 256 * 1024 * 1024,
	textChars: 2000,
};

export interface ReadSessionsOptions {
	readonly limits?: ListingLimits;
	/** Where the record of this machine's runs is looked up (default `process.env`). */
	readonly env?: NodeJS.ProcessEnv;
}

/** Every session line of the workspace, newest activity first, turns oldest first. */
export async function readSessions(
	workspaceRoot: string,
	options: ReadSessionsOptions = {},
): Promise<SessionsRead> {
	const limits = options.limits ?? listingLimits;
	const own = await readOwnRuns(workspaceRoot, options.env);
	// Ours first, newest id first: when the budget runs out, what is left out is foreign or old.
	const names = (await runDirNames(workspaceRoot)).sort(
		(a, b) => Number(own.has(b)) - Number(own.has(a)) || b.localeCompare(a),
	);
	const skipped: { runId: string; reason: string }[] = [];
	const turns: TurnSummary[] = [];
	let bytesLeft = limits.totalBytes;
	let foreignLeft = limits.foreignRuns;
	// One at a time: bounded memory (each read is one result.json) on a folder of thousands of runs.
	for (const runId of names) {
		const madeHere = own.has(runId);
		if (!madeHere && foreignLeft-- <= 0) {
			skipped.push({
				runId,
				reason: `not made on this machine; only ${limits.foreignRuns} such runs are read`,
			});
			continue;
		}
		const cap = Math.min(madeHere ? maxResultBytes : limits.foreignFileBytes, bytesLeft);
		const read = await readTurnWithin(workspaceRoot, runId, madeHere, cap, limits.textChars);
		if ('reason' in read) {
			const budget = read.tooLarge && cap === bytesLeft ? '; the listing read its total budget' : '';
			const foreign = madeHere ? '' : ' (not made on this machine)';
			skipped.push({ runId, reason: `${read.reason}${foreign}${budget}` });
			continue;
		}
		bytesLeft -= read.bytes;
		turns.push(read.turn);
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

/**
 * One run as a turn with its texts whole (a follow-up's history), or why it is not one. A run
 * this machine did not make is read only up to the listing's cap for such runs.
 */
export async function readTurn(
	workspaceRoot: string,
	runId: string,
	own: ReadonlySet<string>,
): Promise<TurnSummary | { runId: string; reason: string }> {
	const madeHere = own.has(runId);
	const cap = madeHere ? maxResultBytes : listingLimits.foreignFileBytes;
	const read = await readTurnWithin(workspaceRoot, runId, madeHere, cap, Infinity);
	return 'reason' in read ? { runId, reason: read.reason } : read.turn;
}

type TurnRead =
	| { readonly turn: TurnSummary; readonly bytes: number }
	| { readonly reason: string; readonly tooLarge: boolean };

async function readTurnWithin(
	workspaceRoot: string,
	runId: string,
	madeHere: boolean,
	maxBytes: number,
	textChars: number,
): Promise<TurnRead> {
	if (!isSafeRunId(runId)) return { reason: 'not a run id', tooLarge: false };
	await assertRunsDirInside(workspaceRoot);
	const runDir = runDirOf(workspaceRoot, runId);
	// A run folder that is a link would be read from elsewhere.
	const linked = await assertRealFolder(runDir).then(
		() => undefined,
		(error: unknown) => {
			if (RunsDirError.is(error)) return error.message;
			throw error;
		},
	);
	if (linked) return { reason: linked, tooLarge: false };
	const read = await readRunResult(runDir, runId, maxBytes);
	if (!read.ok) {
		// No result yet: going on in some process (another `massgen run`, `mcp`, the editor), or it died.
		const reason = (read.missing && (await unfinishedReason(runDir))) || read.reason;
		return { reason, tooLarge: read.tooLarge === true };
	}
	const { result, session, startedAt } = read;
	const logCap = madeHere ? Infinity : Math.min(maxBytes - read.bytes, listingLimits.foreignFileBytes);
	const changes = await outcomeOf(runDir, result.changes.length, logCap);
	const turn: TurnSummary = {
		runId,
		sessionId: session.id,
		parentRunId: session.parentRunId,
		question: cut(result.question, textChars),
		status: result.status,
		winner: result.winner,
		costUsd: runCost(result),
		startedAt,
		finalAnswer: result.finalAnswer === null ? null : cut(result.finalAnswer, textChars),
		...(result.steering?.length
			? { steering: result.steering.map((note) => cut(note.text, textChars)) }
			: {}),
		...(result.revision?.comments.length
			? { reviewComments: reviewLines(result.revision).map((line) => cut(line, textChars)) }
			: {}),
		...(result.plan ? { plan: result.plan } : {}),
		changes: changes.outcome,
		files: result.changes.length,
		madeHere,
	};
	return { turn, bytes: read.bytes + changes.bytes };
}

/**
 * Reads the change record only when there were changes (it holds file texts) and it is within
 * `maxBytes`; unreadable or over the cap = no entries (the changes count as pending).
 */
async function outcomeOf(
	runDir: string,
	proposed: number,
	maxBytes: number,
): Promise<{ outcome: ChangeOutcome; bytes: number }> {
	if (proposed === 0) return { outcome: 'none', bytes: 0 };
	const size = await stat(runFile(runDir, 'changeLog')).then(
		(info) => info.size,
		() => 0,
	);
	if (size > maxBytes) return { outcome: changeOutcome([], proposed), bytes: 0 };
	return { outcome: changeOutcome(await readChangeLog(runDir).catch(() => []), proposed), bytes: size };
}

/** At most `chars` characters, copied: a slice would keep the whole parsed text alive. */
function cut(text: string, chars: number): string {
	if (text.length <= chars) return text;
	return Buffer.from(`${text.slice(0, chars)}…`, 'utf8').toString('utf8');
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
