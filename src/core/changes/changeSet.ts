import type { ChangeKind } from '../../contract/runEvents.js';
import type { FileChange } from '../../contract/fileChange.js';
import { toggleHunk as toggleSelection } from '../../contract/hunkRules.js';
import { hunkAgreement } from './hunkAgreement.js';
import { applyHunks, type Hunk, hunksOverlap, sameHunk, splitHunks } from './hunks.js';

/** One answer's change set (an agent's latest answer overlay against the same base). */
export interface AnswerChanges {
	readonly agentId: string;
	/** `agentN.k`. */
	readonly label: string;
	readonly changes: readonly FileChange[];
}

/** A hunk of the winner's change, with the other agents whose answers made the same change. */
export interface ReviewHunk extends Hunk {
	/** `final#<n>`: unique within the file. */
	readonly id: string;
	/**
	 * Config ids of the other agents (not the winner) whose latest answer has this hunk, equal after
	 * normalising whitespace (`hunkAgreement.ts`: same).
	 */
	readonly agreeing: readonly string[];
	/** Other agents whose change of the same lines differs only in a few names (`hunkAgreement.ts`: similar). */
	readonly similar: readonly string[];
	/**
	 * In a file whose proposal the user edited (`userProposal.ts`): set on a hunk that is none of
	 * the team's ("edited by you"); `from` on one that is a runner-up's hunk the user kept.
	 */
	readonly byUser?: true;
	readonly from?: readonly { readonly agentId: string; readonly label: string }[];
}

/** A hunk that other agents made and the winner did not: an alternative or an extra. */
export interface AlternativeHunk extends Hunk {
	/** `alt#<n>`: unique within the file. */
	readonly id: string;
	/** The answers that made it (config id and answer label). */
	readonly from: readonly { readonly agentId: string; readonly label: string }[];
	/** Ids of the winner's hunks it would replace (overlapping base lines); empty for an extra. */
	readonly replaces: readonly string[];
}

export interface ReviewFile {
	readonly path: string;
	readonly kind: ChangeKind;
	readonly baseHash: string | null;
	/** The text the agents read, from the run snapshot ('' for an added file). */
	readonly base: string;
	/** The winner's version; null for a deletion. */
	readonly final: string | null;
	readonly hunks: readonly ReviewHunk[];
	readonly alternatives: readonly AlternativeHunk[];
	/** Set on an added file whose content equals a file the same change set deletes. */
	readonly renamedFrom: string | null;
	/** `FileChange.landsAt`: where the write lands through a link, when not at `path`. */
	readonly landsAt?: string;
}

export interface ReviewChangeSet {
	readonly runId: string;
	readonly winner: { readonly agentId: string; readonly label: string } | null;
	/** Agents whose answers count for consensus: the winner plus every other agent with an answer. */
	readonly agentCount: number;
	readonly files: readonly ReviewFile[];
}

export interface ChangeSetInput {
	readonly runId: string;
	readonly winner: { readonly agentId: string; readonly label: string } | null;
	/** The winner's changes, each carrying the base the agents read. */
	readonly changes: readonly FileChange[];
	/** Every agent's latest answer change set (optional: without it there are no consensus marks). */
	readonly answers?: readonly AnswerChanges[];
}

/** Builds the reviewable change set: per-file hunks, consensus marks and runner-up alternatives. */
export function buildReviewChangeSet(input: ChangeSetInput): ReviewChangeSet {
	const others = (input.answers ?? []).filter((answer) => answer.agentId !== input.winner?.agentId);
	const files = input.changes.map((change) => buildFile(change, others));
	const withRenames = markRenames(files);
	return {
		runId: input.runId,
		winner: input.winner,
		agentCount: (input.winner ? 1 : 0) + new Set(others.map((answer) => answer.agentId)).size,
		files: withRenames,
	};
}

function buildFile(change: FileChange, others: readonly AnswerChanges[]): ReviewFile {
	const base = change.base ?? '';
	const winnerHunks = wholeFileHunks(change.kind, base, change.content ?? '');
	const theirs = others.map((answer) => ({
		answer,
		hunks: splitHunks(base, versionOf(answer, change.path, base)),
	}));
	const hunks: ReviewHunk[] = winnerHunks.map((hunk, n) => {
		const agreement = theirs.map(({ answer, hunks: their }) => {
			const kinds = their.map((other) => hunkAgreement(hunk, other));
			return { agentId: answer.agentId, kind: kinds.includes('same') ? 'same' : kinds.find(Boolean) };
		});
		return {
			...hunk,
			id: `final#${n}`,
			agreeing: agreement.filter((one) => one.kind === 'same').map((one) => one.agentId),
			similar: agreement.filter((one) => one.kind === 'similar').map((one) => one.agentId),
		};
	});
	const alternatives: AlternativeHunk[] = [];
	for (const { answer, hunks: theirHunks } of theirs) {
		for (const hunk of theirHunks) {
			if (winnerHunks.some((own) => sameHunk(own, hunk))) continue;
			const known = alternatives.findIndex((alt) => sameHunk(alt, hunk));
			const from = { agentId: answer.agentId, label: answer.label };
			if (known >= 0) {
				alternatives[known] = { ...alternatives[known]!, from: [...alternatives[known]!.from, from] };
				continue;
			}
			const replaces = hunks.filter((own) => hunksOverlap(own, hunk)).map((own) => own.id);
			alternatives.push({ ...hunk, id: `alt#${alternatives.length}`, from: [from], replaces });
		}
	}
	return {
		path: change.path,
		kind: change.kind,
		baseHash: change.baseHash,
		base,
		final: change.content,
		hunks,
		alternatives,
		renamedFrom: null,
		...(change.landsAt === undefined ? {} : { landsAt: change.landsAt }),
	};
}

/**
 * The winner's hunks. Adding an empty file or deleting one has no changed lines, so it gets one
 * empty hunk: every file in a change set has at least one hunk to select.
 */
function wholeFileHunks(kind: ChangeKind, base: string, next: string): Hunk[] {
	const hunks = splitHunks(base, next);
	if (hunks.length > 0 || kind === 'modify') return hunks;
	return [{ oldStart: 0, oldLines: 0, newStart: 0, newLines: 0, removed: '', added: '' }];
}

/** An answer's text for a path: its edit, or the base when it left the file alone ('' = deleted). */
function versionOf(answer: AnswerChanges, path: string, base: string): string {
	const edit = answer.changes.find((change) => change.path === path);
	return edit === undefined ? base : (edit.content ?? '');
}

function markRenames(files: ReviewFile[]): ReviewFile[] {
	const deleted = files.filter((file) => file.kind === 'delete');
	return files.map((file) => {
		if (file.kind !== 'add') return file;
		const source = deleted.find((gone) => gone.base === file.final);
		return source ? { ...file, renamedFrom: source.path } : file;
	});
}

/** What accepting a file with a given hunk selection does to it. */
export type FileTarget =
	{ readonly op: 'none' } | { readonly op: 'write'; readonly text: string } | { readonly op: 'delete' };

/**
 * The file's target for a selection of hunk ids (winner hunks and alternatives). Nothing
 * selected = leave the file alone; the winner's whole deletion selected = delete it.
 * Throws `HunkApplyError` when the selection holds overlapping hunks.
 */
export function targetOf(file: ReviewFile, selected: ReadonlySet<string>): FileTarget {
	const own = file.hunks.filter((hunk) => selected.has(hunk.id));
	const taken = file.alternatives.filter((hunk) => selected.has(hunk.id));
	if (own.length === 0 && taken.length === 0) return { op: 'none' };
	if (file.kind === 'delete' && taken.length === 0) return { op: 'delete' };
	const text = applyHunks(file.base, [...own, ...taken]);
	if (file.kind !== 'add' && text === file.base) return { op: 'none' };
	return { op: 'write', text };
}

/** Ids of every winner hunk of a file (the default selection). */
export function allHunkIds(file: ReviewFile): string[] {
	return file.hunks.map((hunk) => hunk.id);
}

/**
 * A selection with `id` switched on or off. Switching a hunk on switches off every selected
 * hunk it overlaps (taking a runner-up's hunk instead of the winner's, or back).
 */
export function toggleHunk(
	file: ReviewFile,
	selected: ReadonlySet<string>,
	id: string,
	on: boolean,
): Set<string> {
	return toggleSelection([...file.hunks, ...file.alternatives], selected, id, on);
}
