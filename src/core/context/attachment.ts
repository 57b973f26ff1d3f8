/**
 * Context the user attaches to a question (docs/context.md): what both shells hand the core, and what
 * the agents see. Every attachment is resolved once per run, before the first event, and reaches
 * every agent identically in the first user message (`contextSection`).
 */
import { createHash } from 'node:crypto';
import type { AttachmentRecord } from '../../contract/runEvents.js';
import { hasErrorMark } from '../util/errorMark.js';

const mark = Symbol.for('massgen.AttachmentError');

/** 1-based, inclusive. */
export interface LineRange {
	readonly start: number;
	readonly end: number;
}

/** `A..B`: the changes from commit A to commit B (`git diff A..B`); `commitRange` checks its form. */
export type CommitRange = `${string}..${string}`;
/** What the editor's context picker offers: the working tree's changes or the index's. */
export type LocalDiffSource = 'working-tree' | 'staged';
export type DiffSource = LocalDiffSource | CommitRange;

/** One revision of a range: a ref name or a hash with `~N`/`^N`, never an option or a pathspec. */
const revisionPattern = /^[A-Za-z0-9_][A-Za-z0-9_./+-]*(?:[~^][0-9]*)*$/;

/** The range if `text` is `A..B` with two plain revisions (no options, no `...`), else undefined. */
export function commitRange(text: string): CommitRange | undefined {
	const parts = text.split('..');
	if (parts.length !== 2 || text.length > 200) return undefined;
	return parts.every(isRevision) ? (text as CommitRange) : undefined;
}

/** `text` is one plain revision (a ref name or a hash, with `~N`/`^N`): never an option or a pathspec. */
export function isRevision(text: string): boolean {
	return revisionPattern.test(text);
}
export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export interface Diagnostic {
	readonly range: LineRange & { readonly column?: number };
	readonly severity: 'error' | 'warning' | 'info' | 'hint';
	readonly message: string;
	/** The tool that reported it (`ts`, `eslint`). */
	readonly source?: string;
}

/** `truncated` says what was cut ("[truncated …]"); absent when the agents see everything. */
export type Attachment =
	| {
			readonly kind: 'file';
			readonly path: string;
			readonly range?: LineRange;
			readonly text: string;
			readonly truncated?: string;
	  }
	| { readonly kind: 'folder'; readonly path: string; readonly text: string; readonly truncated?: string }
	| { readonly kind: 'diff'; readonly source: DiffSource; readonly text: string; readonly truncated?: string }
	| {
			readonly kind: 'diagnostics';
			readonly path: string;
			readonly items: readonly Diagnostic[];
			readonly text: string;
			readonly truncated?: string;
	  }
	| { readonly kind: 'terminal'; readonly source: string; readonly text: string; readonly truncated?: string }
	| { readonly kind: 'text'; readonly source: string; readonly text: string; readonly truncated?: string }
	| {
			readonly kind: 'image';
			readonly path: string;
			readonly mediaType: ImageMediaType;
			readonly data: Uint8Array;
	  };

/**
 * What a shell asks for. Paths are read by the resolver under the tools' path policy; the other
 * kinds carry what the shell already holds (the editor's diagnostics, a terminal's text, stdin).
 */
export type AttachmentRequest =
	/** A file, folder or image, told apart by what is on disk (the CLI's `--attach`). */
	| { readonly kind: 'path'; readonly path: string }
	/** A file, or a selection of it. */
	| { readonly kind: 'file'; readonly path: string; readonly range?: LineRange }
	| { readonly kind: 'diff'; readonly source: DiffSource }
	| { readonly kind: 'diagnostics'; readonly path: string; readonly items: readonly Diagnostic[] }
	| { readonly kind: 'terminal'; readonly source: string; readonly text: string }
	| { readonly kind: 'text'; readonly source: string; readonly text: string }
	/** A pasted image (bytes in hand); `path` names where it came from. */
	| { readonly kind: 'image'; readonly path: string; readonly data: Uint8Array };

/** An attachment that cannot be given (missing, secret, not a repository, too large): the run does not start. */
export class AttachmentError extends Error {
	override readonly name = 'AttachmentError';
	readonly [mark] = true;

	/** Survives duplicate module copies (the engine bundle), unlike `instanceof`. */
	static is(value: unknown): value is AttachmentError {
		return hasErrorMark(value, mark);
	}
}

/** Where an attachment came from, as its label and record show it. */
export function attachmentSource(attachment: Attachment): string {
	return 'path' in attachment ? attachment.path : attachment.source;
}

/** What `result.json` and `run-start` keep: never the contents (those are in the prompt only). */
export function attachmentRecord(attachment: Attachment): AttachmentRecord {
	const bytes =
		attachment.kind === 'image' ? Buffer.from(attachment.data) : Buffer.from(attachment.text, 'utf8');
	return {
		kind: attachment.kind,
		source: attachmentSource(attachment),
		...(attachment.kind === 'file' && attachment.range ? { lines: attachment.range } : {}),
		...(attachment.kind === 'image' ? { mediaType: attachment.mediaType } : {}),
		bytes: bytes.byteLength,
		sha256: createHash('sha256').update(bytes).digest('hex'),
		...(attachment.kind !== 'image' && attachment.truncated ? { truncated: true } : {}),
	};
}
