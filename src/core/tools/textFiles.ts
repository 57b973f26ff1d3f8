/** Helpers shared by the reading tools. */
import { stat } from 'node:fs/promises';
import { specialKind } from '../util/regularFile.js';
import type { Overlay } from '../workspace/types.js';

/** Git's heuristic: a NUL in the first 8 KB marks a binary file. */
export function looksBinary(text: string): boolean {
	return text.slice(0, 8192).includes('\u0000');
}

/** Why `readText` found nothing at `path`: a directory, a special file, or nothing at all. */
export async function missingReason(overlay: Overlay, path: string): Promise<string> {
	const special = await specialFileReason(overlay, path);
	if (special !== null) return special;
	try {
		await overlay.list(path);
		return `'${path}' is a directory (use list_directory)`;
	} catch {
		return `'${path}' does not exist`;
	}
}

/**
 * Why the disk's entry at `path` is never read, when it is a FIFO, socket or device the overlay
 * has not replaced (the run snapshot records such a path as absent); null otherwise.
 */
export async function specialFileReason(overlay: Overlay, path: string): Promise<string | null> {
	const resolved = await overlay.workspace.resolve(path, 'read');
	if (!resolved.ok || overlay.snapshot().edits.has(resolved.path)) return null;
	const info = await stat(resolved.absolute).catch(() => null);
	const kind = info === null ? null : specialKind(info);
	return kind === null
		? null
		: `'${resolved.path}' is ${kind}, not a regular file: only regular files are read`;
}

/** Cuts `text` to at most `maxBytes` of UTF-8 without splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): string {
	const cut = Buffer.from(text, 'utf8').subarray(0, maxBytes).toString('utf8');
	return cut.endsWith('\uFFFD') && !text.startsWith(cut) ? cut.slice(0, -1) : cut;
}

export function lineCount(text: string): number {
	if (text === '') return 0;
	return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}
