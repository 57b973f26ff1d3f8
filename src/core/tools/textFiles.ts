/** Helpers shared by the reading tools. */
import type { Overlay } from '../workspace/types.js';

/** Git's heuristic: a NUL in the first 8 KB marks a binary file. */
export function looksBinary(text: string): boolean {
	return text.slice(0, 8192).includes('\u0000');
}

/** Why `readText` found nothing at `path`: a directory, or nothing at all. */
export async function missingReason(overlay: Overlay, path: string): Promise<string> {
	try {
		await overlay.list(path);
		return `'${path}' is a directory (use list_directory)`;
	} catch {
		return `'${path}' does not exist`;
	}
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
