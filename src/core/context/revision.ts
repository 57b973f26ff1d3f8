/**
 * A revision's request made safe to run (docs/changes.md, "Comments back to the team"): every
 * proposal path passes the tools' write policy, every comment points at lines that exist, and the
 * comments get the ids agents cite. Problems throw `AttachmentError` before any run directory exists,
 * as an attachment that cannot be given does.
 */
import type { LineRange, RevisionRequest } from '../../contract/revision.js';
import type { OverlaySnapshot, Workspace } from '../workspace/types.js';
import { AttachmentError } from './attachment.js';

/** A comment as the agents read it: its id, anchor and the lines it is on. */
export interface ResolvedComment extends LineRange {
	readonly id: string;
	readonly ref?: string;
	readonly path: string;
	readonly text: string;
	/** The commented lines of the proposal (or the file), cut to `maxQuoteChars`. */
	readonly quote: string;
}

/** What a revision gives the run: the proposal as every agent's starting edits, and the comments. */
export interface Revision {
	readonly fromRunId: string;
	readonly comments: readonly ResolvedComment[];
	/** The proposal: every agent's overlay starts with these edits (path → text, null = deleted). */
	readonly startingEdits: OverlaySnapshot;
	/** The proposal's texts by path, to map the comments' lines onto the new change set. */
	readonly proposed: ReadonlyMap<string, string | null>;
	readonly userEdited: ReadonlyMap<string, readonly LineRange[]>;
}

export const revisionLimits = {
	comments: 100,
	commentChars: 4_000,
	quoteChars: 2_000,
	files: 200,
	/** The proposal's texts together (each also obeys the run snapshot's 8 MiB file cap when read). */
	totalBytes: 32 * 1024 * 1024,
} as const;

export async function resolveRevision(
	request: RevisionRequest,
	workspace: Workspace,
	/** What the refusal says cannot be sent (a plan step's earlier changes are not a review). */
	what = 'the review',
): Promise<Revision> {
	const fail = (why: string): never => {
		throw new AttachmentError(`cannot send ${what} to the team: ${why}`);
	};
	if (typeof request.fromRunId !== 'string' || request.fromRunId === '') fail('it names no run');
	if (request.files.length > revisionLimits.files) {
		fail(
			`the proposal has ${request.files.length} files; at most ${revisionLimits.files} can be revised at once`,
		);
	}
	if (request.comments.length > revisionLimits.comments) {
		fail(`${request.comments.length} comments; at most ${revisionLimits.comments} go to the team at once`);
	}
	const proposed = new Map<string, string | null>();
	const userEdited = new Map<string, readonly LineRange[]>();
	let bytes = 0;
	for (const file of request.files) {
		const resolved = await workspace.resolve(file.path, 'write');
		if (!resolved.ok) fail(`the proposal's file ${resolved.reason}`);
		const path = (resolved as Extract<typeof resolved, { ok: true }>).path;
		if (proposed.has(path)) fail(`the proposal names '${path}' twice`);
		bytes += Buffer.byteLength(file.content ?? '', 'utf8');
		if (bytes > revisionLimits.totalBytes) {
			fail(`the proposal is over ${revisionLimits.totalBytes / 1024 / 1024} MiB`);
		}
		proposed.set(path, file.content);
		// The disk's text now is the base of the revised change: captured before the run, since the
		// agents' copies start with the proposal and never read the disk's version. Captured later (at
		// the run's end), a file the user saved meanwhile became the base and Accept wrote over it.
		await workspace.runSnapshot.entry(path);
		const ranges = (file.userEdited ?? []).filter((range) => withinText(range, file.content ?? ''));
		if (ranges.length) userEdited.set(path, ranges);
	}
	const overlay = workspace.createOverlay({ edits: proposed });
	const comments: ResolvedComment[] = [];
	for (const [index, comment] of request.comments.entries()) {
		const where = `comment ${index + 1}`;
		const text = typeof comment.text === 'string' ? comment.text.trim() : '';
		if (text === '') fail(`${where} has no text`);
		if (text.length > revisionLimits.commentChars) {
			fail(`${where} is ${text.length} characters; at most ${revisionLimits.commentChars}`);
		}
		const resolved = await workspace.resolve(comment.path, 'read');
		if (!resolved.ok) fail(`${where}'s file ${resolved.reason}`);
		const path = (resolved as Extract<typeof resolved, { ok: true }>).path;
		const content = await overlay.readText(path).catch(() => null);
		if (content === null) {
			fail(`${where} is on '${path}', which the proposal deletes or which does not exist`);
		}
		const range = { line: comment.line, endLine: comment.endLine ?? comment.line };
		if (!withinText(range, content!)) {
			fail(
				`${where} is on lines ${range.line}–${range.endLine} of '${path}', which has ${lineCount(content!)} line(s)`,
			);
		}
		comments.push({
			id: `c${index + 1}`,
			...(typeof comment.id === 'string' && comment.id ? { ref: comment.id.slice(0, 200) } : {}),
			path,
			...range,
			text,
			quote: quoteLines(content!, range),
		});
	}
	return { fromRunId: request.fromRunId, comments, startingEdits: { edits: proposed }, proposed, userEdited };
}

function lineCount(text: string): number {
	return text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

function withinText(range: LineRange, text: string): boolean {
	return (
		Number.isInteger(range.line) &&
		Number.isInteger(range.endLine) &&
		range.line >= 1 &&
		range.endLine >= range.line &&
		range.endLine <= Math.max(1, lineCount(text))
	);
}

function quoteLines(text: string, range: LineRange): string {
	const lines = text
		.split('\n')
		.slice(range.line - 1, range.endLine)
		.join('\n');
	return lines.length > revisionLimits.quoteChars ? `${lines.slice(0, revisionLimits.quoteChars)}…` : lines;
}
