/**
 * Turns a shell's attachment requests into attachments (docs/context.md). Paths go through the tools'
 * policy (`Workspace.resolve`: outside the workspace, `.git/`, `.massgen/` and secret paths are
 * refused before anything is read); text is cut to a cap per attachment and one for all of them,
 * with a "[truncated …]" note; images over their cap are refused with the reason.
 */
import { stat } from 'node:fs/promises';
import { GitignoreFilter } from '../tools/gitignoreFilter.js';
import { looksBinary, truncateUtf8 } from '../tools/textFiles.js';
import { TimeSlice } from '../tools/timeSlice.js';
import { walkFiles } from '../tools/workspaceWalk.js';
import { NotRegularFileError, readRegularFile, specialKind } from '../util/regularFile.js';
import { policyRefusal } from '../workspace/pathPolicy.js';
import { fileStamp } from '../workspace/runSnapshot.js';
import type { Workspace } from '../workspace/types.js';
import {
	AttachmentError,
	type Attachment,
	type AttachmentRequest,
	type Diagnostic,
	type LineRange,
} from './attachment.js';
import { gitDiff } from './gitDiff.js';
import { imageExtension, sniffImageType } from './imageType.js';

export interface ContextLimits {
	/** UTF-8 bytes of one text attachment the agents see. */
	readonly perAttachmentBytes: number;
	/** UTF-8 bytes of all text attachments together (every agent reads them on every first call). */
	readonly totalBytes: number;
	/** An image larger than this is refused (this slice does not downscale). */
	readonly imageBytes: number;
	/** Files a folder's listing names. */
	readonly folderEntries: number;
}

export const defaultContextLimits: ContextLimits = {
	perAttachmentBytes: 100 * 1024,
	totalBytes: 400 * 1024,
	// Anthropic's limit for one image; the others accept more.
	imageBytes: 5 * 1024 * 1024,
	folderEntries: 500,
};

/** A file is read up to this many bytes; the caps above cut far below it. */
const maxReadBytes = 8 * 1024 * 1024;

export interface ResolveOptions {
	readonly limits?: Partial<ContextLimits>;
	/** Stops a long folder walk. */
	readonly signal?: AbortSignal;
}

/** Resolves every request in order; throws `AttachmentError` for the first that cannot be attached. */
export async function resolveAttachments(
	requests: readonly AttachmentRequest[],
	workspace: Workspace,
	options: ResolveOptions = {},
): Promise<Attachment[]> {
	const limits = { ...defaultContextLimits, ...options.limits };
	const signal = options.signal ?? new AbortController().signal;
	let budget = limits.totalBytes;
	/** Cuts a text attachment to the caps and charges it to the total. */
	const capped = (text: string): { text: string; truncated?: string } => {
		const cap = Math.min(limits.perAttachmentBytes, budget);
		const size = Buffer.byteLength(text, 'utf8');
		if (size <= cap) {
			budget -= size;
			return { text };
		}
		const kept = truncateUtf8(text, cap);
		const keptBytes = Buffer.byteLength(kept, 'utf8');
		budget -= keptBytes;
		const why =
			cap < limits.perAttachmentBytes
				? `the ${formatBytes(limits.totalBytes)} cap for all attachments is reached`
				: `the cap per attachment is ${formatBytes(limits.perAttachmentBytes)}`;
		return {
			text: kept,
			truncated: `[truncated: the first ${formatBytes(keptBytes)} of ${formatBytes(size)}; ${why}]`,
		};
	};
	const attachments: Attachment[] = [];
	for (const request of requests) {
		switch (request.kind) {
			case 'path':
			case 'file':
				attachments.push(await fromPath(request, workspace, limits, signal, capped));
				break;
			case 'diff': {
				const refusal = (path: string) =>
					policyRefusal(path, path, 'read', workspace.protectedPaths, workspace.secretPaths);
				const diff = await gitDiff(workspace.root, request.source, refusal, signal);
				const left = diff.omitted.map((file) => `[left out ${file.path}: ${file.reason}]`);
				const empty =
					request.source === 'staged'
						? '(nothing is staged)'
						: request.source === 'working-tree'
							? '(the working tree has no changes)'
							: `(no changes in ${request.source})`;
				const text = [diff.text || empty, ...left].join('\n');
				attachments.push({ kind: 'diff', source: request.source, ...capped(text) });
				break;
			}
			case 'diagnostics': {
				const resolved = await workspace.resolve(request.path, 'read');
				if (!resolved.ok) throw new AttachmentError(`cannot attach diagnostics: ${resolved.reason}`);
				const text = request.items.map((item) => diagnosticLine(resolved.path, item)).join('\n');
				attachments.push({ kind: 'diagnostics', path: resolved.path, items: request.items, ...capped(text) });
				break;
			}
			case 'terminal':
			case 'text':
				attachments.push({ kind: request.kind, source: request.source, ...capped(request.text) });
				break;
			case 'image':
				attachments.push(checkedImage(request.path, request.data, limits));
				break;
		}
	}
	return attachments;
}

async function fromPath(
	request: Extract<AttachmentRequest, { kind: 'path' | 'file' }>,
	workspace: Workspace,
	limits: ContextLimits,
	signal: AbortSignal,
	capped: (text: string) => { text: string; truncated?: string },
): Promise<Attachment> {
	const resolved = await workspace.resolve(request.path, 'read');
	if (!resolved.ok) throw new AttachmentError(`cannot attach '${request.path}': ${resolved.reason}`);
	const path = resolved.path;
	const info = await stat(resolved.absolute).catch(() => null);
	if (info === null) throw new AttachmentError(`cannot attach '${request.path}': no such file or folder`);
	if (info.isDirectory()) {
		if (request.kind === 'file') throw new AttachmentError(`cannot attach '${request.path}': it is a folder`);
		return {
			kind: 'folder',
			path,
			...capped(await folderListing(workspace, path, limits.folderEntries, signal)),
		};
	}
	if (!info.isFile()) {
		const kind = specialKind(info) ?? 'a special file';
		throw new AttachmentError(`cannot attach '${request.path}': it is ${kind}, not a regular file`);
	}
	const range = request.kind === 'file' ? request.range : undefined;
	if (range === undefined && imageExtension.test(path)) {
		if (info.size > limits.imageBytes) throw new AttachmentError(imageTooLarge(path, info.size, limits));
		return checkedImage(path, await readHead(resolved.absolute, info.size, request.path), limits);
	}
	const bytes = await readHead(resolved.absolute, Math.min(info.size, maxReadBytes), request.path);
	if (range === undefined && sniffImageType(bytes) !== null) {
		if (info.size > limits.imageBytes) throw new AttachmentError(imageTooLarge(path, info.size, limits));
		return checkedImage(path, bytes, limits);
	}
	const whole = bytes.toString('utf8');
	if (looksBinary(whole)) {
		throw new AttachmentError(
			`cannot attach '${request.path}': a binary file (images: PNG, JPEG, GIF or WebP)`,
		);
	}
	// The team is shown this text: it is the file's base from now on (`RunSnapshot`), so the user's
	// later edit is merged against it. Exposed with the stamp taken before the read: a file changed
	// in between has an unkept base (a conflict on accept), never the user's version as the base.
	workspace.runSnapshot.expose(path, fileStamp(info));
	await workspace.runSnapshot.entry(path);
	if (range === undefined) return { kind: 'file', path, ...capped(whole) };
	return { kind: 'file', path, range, ...capped(selectLines(whole, range, request.path)) };
}

function checkedImage(path: string, data: Uint8Array, limits: ContextLimits): Attachment {
	if (data.byteLength > limits.imageBytes) {
		throw new AttachmentError(imageTooLarge(path, data.byteLength, limits));
	}
	const mediaType = sniffImageType(data);
	if (mediaType === null) {
		throw new AttachmentError(`cannot attach '${path}': not a PNG, JPEG, GIF or WebP image`);
	}
	return { kind: 'image', path, mediaType, data };
}

function imageTooLarge(path: string, size: number, limits: ContextLimits): string {
	return `cannot attach '${path}': the image is ${formatBytes(size)}, over the ${formatBytes(limits.imageBytes)} cap for an image`;
}

/** The files under `path` as the tools' walk sees them: .gitignore'd and secret entries left out. */
async function folderListing(
	workspace: Workspace,
	path: string,
	cap: number,
	signal: AbortSignal,
): Promise<string> {
	const overlay = workspace.createOverlay();
	const files: string[] = [];
	let more = false;
	const report = await walkFiles(
		overlay,
		path,
		{ filter: new GitignoreFilter(overlay), slice: new TimeSlice(signal) },
		async (file) => {
			if (files.length === cap) {
				more = true;
				return false;
			}
			files.push(file);
			return true;
		},
	);
	const notes = [...(more ? [`listing stopped after ${cap} files`] : []), ...report.cuts];
	return [files.length ? files.join('\n') : '(no files)', ...notes.map((note) => `[${note}]`)].join('\n');
}

function selectLines(text: string, range: LineRange, given: string): string {
	const lines = text.split('\n');
	const count = lines.length - (text.endsWith('\n') ? 1 : 0);
	if (
		!Number.isInteger(range.start) ||
		!Number.isInteger(range.end) ||
		range.start < 1 ||
		range.end < range.start
	) {
		throw new AttachmentError(`cannot attach '${given}': lines ${range.start}-${range.end} are not a range`);
	}
	if (range.start > count) {
		throw new AttachmentError(
			`cannot attach '${given}': it has ${count} line(s), the selection starts at ${range.start}`,
		);
	}
	return lines.slice(range.start - 1, range.end).join('\n');
}

function diagnosticLine(path: string, item: Diagnostic): string {
	const column = item.range.column === undefined ? '' : `:${item.range.column}`;
	const source = item.source ? ` (${item.source})` : '';
	return `${path}:${item.range.start}${column}: ${item.severity}: ${item.message}${source}`;
}

/** The file's first `length` bytes; through `readRegularFile`, so a FIFO swapped in after the stat cannot block. */
async function readHead(path: string, length: number, given: string): Promise<Buffer> {
	try {
		return (await readRegularFile(path, length)).bytes;
	} catch (error) {
		if (NotRegularFileError.is(error)) {
			throw new AttachmentError(`cannot attach '${given}': it is ${error.kind}, not a regular file`);
		}
		throw error;
	}
}

export function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes % 1024 === 0 ? 0 : 1)} KiB`;
	return `${(bytes / 2 ** 20).toFixed(bytes % 2 ** 20 === 0 ? 0 : 1)} MiB`;
}
