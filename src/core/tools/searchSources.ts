/** How `search_files` reads and orders what it searches, whichever engine reads the disk. */
import type { Overlay, OverlaySnapshot } from '../workspace/types.js';

/**
 * A file's text as the overlay shows it (its edits over the run snapshot), without capturing an
 * untouched file into the snapshot: a search is not a read of every file. null when the path is
 * refused, missing or deleted; throws `FileTooLargeError` over the snapshot's cap.
 */
export async function peekText(
	overlay: Overlay,
	edits: OverlaySnapshot['edits'],
	path: string,
): Promise<string | null> {
	const resolved = await overlay.workspace.resolve(path, 'read');
	if (!resolved.ok) return null;
	const edit = edits.get(resolved.path);
	return edit !== undefined ? edit : overlay.workspace.runSnapshot.peekText(resolved.path);
}

/** The walker's order: depth-first, each folder's entries sorted by name (ripgrep's `--sort path`). */
export function comparePaths(a: string, b: string): number {
	const left = a.split('/');
	const right = b.split('/');
	for (let i = 0; i < Math.min(left.length, right.length); i++) {
		if (left[i] !== right[i]) return left[i]! < right[i]! ? -1 : 1;
	}
	return left.length - right.length;
}
