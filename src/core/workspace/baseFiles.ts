/** Read-only disk access for overlays: every miss is `null`, never an exception. */
import { readdir, stat } from 'node:fs/promises';
import type { DirectoryEntry } from './types.js';

const missing = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

/** What is at `absolute` (following symlinks), or null when nothing usable is. */
export async function baseKind(absolute: string): Promise<DirectoryEntry['kind'] | null> {
	try {
		const info = await stat(absolute);
		if (info.isFile()) return 'file';
		return info.isDirectory() ? 'directory' : null;
	} catch {
		return null;
	}
}

/** Raw entries of a directory (symlinks reported as such), or null when it is not a directory. */
export interface BaseEntry {
	readonly name: string;
	/** Symlinks are reported as such so callers can vet their targets. */
	readonly kind: DirectoryEntry['kind'] | 'symlink';
}

/** Entries of a directory, or null when there is no directory there. */
export async function readBaseDirectory(absolute: string): Promise<BaseEntry[] | null> {
	try {
		const entries = await readdir(absolute, { withFileTypes: true });
		return entries.flatMap((entry): BaseEntry[] => {
			if (entry.isSymbolicLink()) return [{ name: entry.name, kind: 'symlink' }];
			if (entry.isFile()) return [{ name: entry.name, kind: 'file' }];
			return entry.isDirectory() ? [{ name: entry.name, kind: 'directory' }] : [];
		});
	} catch (error) {
		if (missing.has((error as NodeJS.ErrnoException).code ?? '')) return null;
		throw error;
	}
}
