/**
 * The record of what happened to a run's changes (`changes-log.jsonl`, `runStore/changeLog.ts`)
 * read as outcomes: what became of the change set, which accepted files are in, and the entries'
 * file records.
 */
import type { FileOutcome } from '../../contract/fileOutcome.js';
import { readProposedChanges } from '../runStore/readResult.js';
import { type ChangeLogEntry, readChangeLog, type RecordedFile } from '../runStore/changeLog.js';
import { defaultMaxFileBytes } from '../workspace/runSnapshot.js';
import { sha256 } from '../workspace/sha256.js';

/** What the run's changes came to, from its record (and `result.json` when there is none). */
export type ChangeOutcome =
	| 'none'
	| 'pending'
	| 'accepted'
	| 'partly-accepted'
	| 'rejected'
	| 'reverted'
	/** Never accepted or rejected: a later run's changes took its place in the editor's review. */
	| 'superseded';

/** One file's before/after for the record; texts over the cap keep only their hashes. */
export function recordFile(
	path: string,
	before: string | null,
	after: string | null,
	maxBytes = defaultMaxFileBytes,
): RecordedFile {
	const beforeSha256 = before === null ? null : sha256(before);
	const afterSha256 = after === null ? null : sha256(after);
	const tooLarge = (text: string | null) => text !== null && Buffer.byteLength(text, 'utf8') > maxBytes;
	if (tooLarge(before) || tooLarge(after)) {
		return { path, before: null, after: null, beforeSha256, afterSha256, oversize: true };
	}
	return { path, before, after, beforeSha256, afterSha256 };
}

/** Where one accepted file stands: the last accept or revert that wrote it, and whether the team's text is in. */
export interface AcceptedFileState {
	readonly last: RecordedFile;
	/** True after an accept or a re-apply; false after a revert. */
	readonly applied: boolean;
}

/** Every file any accept wrote, by path, with the last entry that wrote it. */
export function acceptedFiles(entries: readonly ChangeLogEntry[]): Map<string, AcceptedFileState> {
	const states = new Map<string, AcceptedFileState>();
	for (const entry of entries) {
		if (entry.kind === 'reject' || entry.kind === 'supersede') continue;
		for (const file of entry.files) {
			if (entry.kind === 'revert' && !states.has(file.path)) continue;
			states.set(file.path, { last: file, applied: entry.kind === 'accept' || entry.mode === 'reapply' });
		}
	}
	return states;
}

/**
 * Each file's outcome from the entries, the last word counting: an accept (partly when its entry
 * names the file in `partialPaths`: some of its hunks were left out), a reject, a revert (a
 * re-apply restores what the accept was).
 */
/** Absent from the map: still pending, or never proposed. */
export function fileOutcomes(entries: readonly ChangeLogEntry[]): Map<string, FileOutcome> {
	const outcomes = new Map<string, FileOutcome>();
	const accepted = new Map<string, FileOutcome>();
	for (const entry of entries) {
		if (entry.kind === 'accept') {
			for (const file of entry.files) {
				const outcome = entry.partialPaths?.includes(file.path) ? 'partly-accepted' : 'accepted';
				accepted.set(file.path, outcome);
				outcomes.set(file.path, outcome);
			}
		} else if (entry.kind === 'reject') {
			for (const path of entry.paths) outcomes.set(path, 'rejected');
		} else if (entry.kind === 'revert') {
			for (const file of entry.files) {
				const before = accepted.get(file.path);
				if (before) outcomes.set(file.path, entry.mode === 'revert' ? 'reverted' : before);
			}
		}
	}
	return outcomes;
}

/**
 * The outcome from the entries; `proposed` = how many files the run's change set has. Partly
 * accepted: something accepted is still in, and something proposed is not (left out, rejected,
 * still pending, or reverted since).
 */
export function changeOutcome(entries: readonly ChangeLogEntry[], proposed: number): ChangeOutcome {
	const accepts = entries.filter((entry) => entry.kind === 'accept');
	const rejects = entries.filter((entry) => entry.kind === 'reject');
	if (accepts.length === 0) {
		if (rejects.length > 0) return 'rejected';
		if (proposed === 0) return 'none';
		return entries.some((entry) => entry.kind === 'supersede') ? 'superseded' : 'pending';
	}
	const states = [...acceptedFiles(entries).values()];
	const applied = states.filter((state) => state.applied).length;
	if (applied === 0) return 'reverted';
	const whole =
		applied === states.length &&
		rejects.length === 0 &&
		states.length >= proposed &&
		accepts.every((entry) => !entry.partial);
	return whole ? 'accepted' : 'partly-accepted';
}

/** The run's outcome from its record and `result.json`'s change count (none when it is unreadable). */
export async function readChangeOutcome(runDir: string): Promise<ChangeOutcome> {
	return changeOutcome(await readChangeLog(runDir), (await readProposedChanges(runDir)).count);
}
