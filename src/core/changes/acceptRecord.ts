/**
 * The record of what happened to a run's changes (issue 13): `<runDir>/changes-log.jsonl`, one JSON
 * line per accept, reject or revert, appended and never rewritten. Accept and revert entries hold
 * each file's text before and after, byte-exact, so a revert can write them back: this file, unlike
 * every other file of the run directory, does not pass through the run's redactor (a redacted
 * "before" would put `[redacted]` into the user's file). Secret paths are never accepted, so only
 * ordinary workspace files are stored; the file is created 0600.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { z } from 'zod';
import { readProposedChanges } from '../runStore/readResult.js';
import { runFile } from '../../contract/runLayout.js';
import { defaultMaxFileBytes } from '../workspace/runSnapshot.js';
import { sha256 } from '../workspace/sha256.js';
import { readRegularText } from '../util/regularFile.js';

/** Who wrote the entry. */
export type ChangeActor = 'editor' | 'cli';

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

const recordedFileSchema = z.object({
	/** Workspace-relative, `/` separators. */
	path: z.string().min(1),
	/** The text before the entry's write; null = there was no file. */
	before: z.string().nullable(),
	/** The text the write left; null = the write deleted the file. */
	after: z.string().nullable(),
	beforeSha256: z.string().nullable(),
	afterSha256: z.string().nullable(),
	/** A side over the core's 8 MiB cap: only the hashes are kept (`before`/`after` are null), so no revert. */
	oversize: z.literal(true).optional(),
});

const entrySchema = z.discriminatedUnion('kind', [
	z.object({
		kind: z.literal('accept'),
		at: z.string(),
		by: z.enum(['editor', 'cli']),
		/** Part of these files' proposed change was left out (hunks not selected, a conflicting file kept as it was). */
		partial: z.boolean(),
		/** The run's `protected_paths` (normalised): a revert's writes are checked against them too. */
		protectedPaths: z.array(z.string()).optional(),
		files: z.array(recordedFileSchema),
	}),
	z.object({
		kind: z.literal('reject'),
		at: z.string(),
		by: z.enum(['editor', 'cli']),
		paths: z.array(z.string()),
	}),
	z.object({
		kind: z.literal('supersede'),
		at: z.string(),
		by: z.enum(['editor', 'cli']),
		/** The run whose change set replaced this one's in the review (this one can no longer be accepted there). */
		byRun: z.string(),
	}),
	z.object({
		kind: z.literal('revert'),
		at: z.string(),
		by: z.enum(['editor', 'cli']),
		/** `revert` undid accepted files; `reapply` undid a revert (the accept's texts are back). */
		mode: z.enum(['revert', 'reapply']),
		files: z.array(recordedFileSchema),
	}),
]);

export type RecordedFile = z.infer<typeof recordedFileSchema>;
export type ChangeLogEntry = z.infer<typeof entrySchema>;
/** An entry as a caller appends it: the time is stamped on append. */
export type NewChangeLogEntry = ChangeLogEntry extends infer E
	? E extends unknown
		? Omit<E, 'at'>
		: never
	: never;

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

/**
 * Appends one entry as one line, never rewriting what is there (writers hold the workspace lock, so
 * entries do not interleave). A line torn by a crash mid-append is closed off first, so the new
 * entry never glues onto it. The file is 0600 whether it is new or not.
 */
export async function appendChangeLog(
	runDir: string,
	entry: NewChangeLogEntry,
	now: Date = new Date(),
): Promise<void> {
	const path = runFile(runDir, 'changeLog');
	// Never through a link: a repository can ship `.massgen/runs/<id>/changes-log.jsonl` pointing anywhere.
	const handle = await open(path, appendFlags, 0o600);
	try {
		if (!(await handle.stat()).isFile()) throw new Error(`refused to append to ${path}: not a regular file`);
		await handle.chmod(0o600);
		const { size } = await handle.stat();
		let torn = false;
		if (size > 0) {
			const last = Buffer.alloc(1);
			await handle.read(last, 0, 1, size - 1);
			torn = last[0] !== 0x0a;
		}
		const line = JSON.stringify({ ...entry, at: now.toISOString() });
		// Appended whole (O_APPEND; one write for any line a file system takes at once): a crash tears only its end.
		const data = Buffer.from(`${torn ? '\n' : ''}${line}\n`, 'utf8');
		for (let at = 0; at < data.length;) {
			at += (await handle.write(data, at, data.length - at, null)).bytesWritten;
		}
		await handle.sync();
	} finally {
		await handle.close();
	}
}

const appendFlags = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0);

/** Every readable entry in order; no file = no entries. Torn or malformed lines are skipped. */
export async function readChangeLog(runDir: string): Promise<ChangeLogEntry[]> {
	let text: string;
	try {
		text = await readRegularText(runFile(runDir, 'changeLog'));
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
		throw error;
	}
	const entries: ChangeLogEntry[] = [];
	for (const line of text.split('\n')) {
		if (line.trim() === '') continue;
		let value: unknown;
		try {
			value = JSON.parse(line);
		} catch {
			continue;
		}
		const parsed = entrySchema.safeParse(value);
		if (parsed.success) entries.push(parsed.data);
	}
	return entries;
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
