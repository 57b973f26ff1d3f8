/**
 * The record of what happened to a run's changes: `<runDir>/changes-log.jsonl`, one JSON line per
 * accept, reject or revert, appended and never rewritten. Accept and revert entries hold each
 * file's text before and after, byte-exact, so a revert can write them back: this file, unlike
 * every other file of the run directory, does not pass through the run's redactor (a redacted
 * "before" would put `[redacted]` into the user's file). Secret paths are never accepted, so only
 * ordinary workspace files are stored; the file is created 0600. What the entries come to is
 * `changes/acceptRecord.ts`'s.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { z } from 'zod';
import { readRegularFile, readRegularText } from '../util/regularFile.js';
import { runFile } from '../../contract/runLayout.js';
import { readOwnRuns } from './ownRuns.js';
import { checkedRunDir } from './runsDirGuard.js';

/** Who wrote the entry. */
export type ChangeActor = 'editor' | 'cli';

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
		/** The files of `files` whose own proposed change was only partly written (absent: not recorded per file). */
		partialPaths: z.array(z.string()).optional(),
		/** The run's `protected_paths` (normalised): a revert's writes are checked against them too. */
		protectedPaths: z.array(z.string()).optional(),
		/**
		 * The runner-up hunks the user selected, one element each, with the agents (config ids) whose
		 * answers made it (editor only). A malformed list reads as none: the accept still reverts.
		 */
		runnerUpHunks: z
			.array(z.object({ path: z.string(), from: z.array(z.string()) }))
			.optional()
			.catch(undefined),
		/** Files whose proposal the user edited before accepting (editor only); malformed reads as none. */
		editedPaths: z.array(z.string()).optional().catch(undefined),
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

/** How much of a foreign run's record the panel reads (as much as a sessions listing does). */
export const foreignChangeLogBytes = 256 * 1024;

/**
 * The record of run `runId` of the workspace as the panel shows it: a run this machine made whole,
 * one that came with the folder only within `foreignChangeLogBytes` (whole lines), so a planted
 * record of hundreds of MB is not loaded into the extension host to mark the files of a viewed run.
 */
export async function readShownChangeLog(
	workspaceRoot: string,
	runId: string,
	env: NodeJS.ProcessEnv = process.env,
): Promise<ChangeLogEntry[]> {
	const runDir = await checkedRunDir(workspaceRoot, runId);
	const own = await readOwnRuns(workspaceRoot, env);
	return readChangeLog(runDir, own.has(runId) ? undefined : foreignChangeLogBytes);
}

/**
 * Every readable entry in order (within `maxBytes` when given: whole lines up to it); no file = no
 * entries. Torn or malformed lines are skipped.
 */
export async function readChangeLog(runDir: string, maxBytes?: number): Promise<ChangeLogEntry[]> {
	let text: string;
	try {
		const file = runFile(runDir, 'changeLog');
		if (maxBytes === undefined) text = await readRegularText(file);
		else {
			const { bytes } = await readRegularFile(file, maxBytes);
			const whole = bytes.length < maxBytes ? bytes : bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1);
			text = whole.toString('utf8');
		}
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
