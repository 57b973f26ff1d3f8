import type { FileTarget, ReviewFile } from './changeSet.js';
import { type MergeLabels, merge3 } from './merge3.js';

/** What accepting does to one file on disk or in its buffer. */
export type FileOp =
	{ readonly kind: 'write'; readonly text: string; readonly create: boolean } | { readonly kind: 'delete' };

/** Why a file cannot simply be written. */
export type ConflictReason =
	/** The user changed the file and the changes overlap the team's. */
	| 'overlap'
	/** The file was deleted since the team read it. */
	| 'deleted'
	/** A file the team adds exists now (with other content). */
	| 'exists'
	/** The team deletes a file the user changed since. */
	| 'modified'
	/**
	 * The team saw the file only through a command (or a coding agent's folder), its view was not
	 * kept, and the file changed since (`unkeptHash`): there is no base to merge against.
	 */
	| 'unseen'
	/** A revert of a file over the 8 MiB cap: only its hashes were recorded, so there is no text to restore. */
	| 'too-large';

export type FilePlan =
	/** Nothing selected in this file. */
	| { readonly path: string; readonly outcome: 'skip' }
	/** The file already is what the selection makes it. */
	| { readonly path: string; readonly outcome: 'already' }
	/** The file is the base the agents read: apply as is. */
	| { readonly path: string; readonly outcome: 'apply'; readonly op: FileOp }
	/** The user changed the file; the changes do not overlap, so this op holds both. */
	| { readonly path: string; readonly outcome: 'merged'; readonly op: FileOp }
	/**
	 * Needs the user. `resolution` is what "resolve in the editor" writes: the text with conflict
	 * markers, the team's version of a deleted file, or nothing (keep the user's file).
	 */
	| {
			readonly path: string;
			readonly outcome: 'conflict';
			readonly reason: ConflictReason;
			readonly resolution: FileOp | null;
			readonly conflicts: number;
	  };

/**
 * Decides how to apply one file given its current text (open buffer or disk; null = no file).
 * The base-hash check: the current text must hash to the base the agents read; otherwise the
 * user's change and the team's are merged three-way, and overlapping changes are conflicts.
 */
export function planFile(
	file: ReviewFile,
	target: FileTarget,
	current: string | null,
	hash: (text: string) => string,
	labels?: MergeLabels,
): FilePlan {
	const path = file.path;
	if (target.op === 'none') return { path, outcome: 'skip' };
	if (target.op === 'delete') {
		if (current === null) return { path, outcome: 'already' };
		if (hash(current) === file.baseHash) return { path, outcome: 'apply', op: { kind: 'delete' } };
		return { path, outcome: 'conflict', reason: 'modified', resolution: null, conflicts: 1 };
	}
	if (current === target.text) return { path, outcome: 'already' };
	if (current === null) {
		const create: FileOp = { kind: 'write', text: target.text, create: true };
		if (file.kind === 'add') return { path, outcome: 'apply', op: create };
		return { path, outcome: 'conflict', reason: 'deleted', resolution: create, conflicts: 1 };
	}
	if (file.kind === 'add') {
		const merged = merge3('', current, target.text, labels);
		return {
			path,
			outcome: 'conflict',
			reason: 'exists',
			resolution: write(merged.text),
			conflicts: merged.conflicts,
		};
	}
	if (hash(current) === file.baseHash) return { path, outcome: 'apply', op: write(target.text) };
	if (isUnkept(file, hash)) {
		// The version the team saw was not kept (`unkeptHash`): `base` is a later one, perhaps the
		// user's own, so a merge against it could silently undo the user's edit. The user decides.
		const both = merge3('', current, target.text, labels);
		return { path, outcome: 'conflict', reason: 'unseen', resolution: write(both.text), conflicts: 1 };
	}
	const merged = merge3(file.base, current, target.text, labels);
	if (merged.clean) {
		return merged.text === current
			? { path, outcome: 'already' }
			: { path, outcome: 'merged', op: write(merged.text) };
	}
	return {
		path,
		outcome: 'conflict',
		reason: 'overlap',
		resolution: write(merged.text),
		conflicts: merged.conflicts,
	};
}

/**
 * Whether the file's base is unkept (`unkeptHash`): its hash matches no text, so `base` is not the
 * version the team saw but a later one (perhaps with the user's edit).
 */
export function isUnkept(
	file: Pick<ReviewFile, 'base' | 'baseHash'>,
	hash: (text: string) => string,
): boolean {
	return file.baseHash !== null && hash(file.base) !== file.baseHash;
}

function write(text: string): FileOp {
	return { kind: 'write', text, create: false };
}
