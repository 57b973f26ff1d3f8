import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256 } from './sha256.js';

/** A path's base as the run first saw it. */
export type SnapshotEntry =
	| { readonly kind: 'file'; readonly text: string; readonly hash: string }
	/** No file there (nothing, a directory, a socket …). */
	| { readonly kind: 'absent' }
	/** A file over the size cap: its text was never read. */
	| { readonly kind: 'too-large'; readonly size: number };

/** Thrown for any operation on a file over the cap; tools turn it into an error outcome. */
export class FileTooLargeError extends Error {
	override readonly name = 'FileTooLargeError';

	constructor(path: string, size: number, cap: number) {
		super(
			`'${path}' is ${formatBytes(size)} (${size} bytes), over the ${formatBytes(cap)} limit for a file the team may read or change`,
		);
	}
}

export const defaultMaxFileBytes = 8 * 1024 * 1024;

const missing = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ELOOP']);

/**
 * The base of one run: each path's text and hash (or "absent") captured the first time any agent
 * or tool of the run touches it, and served unchanged for the rest of the run. So every agent
 * reads the same version, and the change set carries the base the team really read: a file the
 * user saves mid-run stays the user's edit (merged on accept), never the team's "base".
 */
export class RunSnapshot {
	/** Shared promises: concurrent first touches of one path read the disk once. */
	private readonly pending = new Map<string, Promise<SnapshotEntry>>();
	/** The entries captured so far, for directory listings. */
	private readonly settled = new Map<string, SnapshotEntry>();

	constructor(
		private readonly root: string,
		readonly maxFileBytes: number = defaultMaxFileBytes,
	) {}

	/** The base of a normalised workspace-relative path (whose symlinks the caller has vetted). */
	entry(rel: string): Promise<SnapshotEntry> {
		let entry = this.pending.get(rel);
		if (entry === undefined) {
			entry = capture(join(this.root, rel), this.maxFileBytes).then((captured) => {
				this.settled.set(rel, captured);
				return captured;
			});
			this.pending.set(rel, entry);
		}
		return entry;
	}

	/** The base text, null when there is no file; throws `FileTooLargeError` over the cap. */
	async text(rel: string): Promise<string | null> {
		return this.textOf(rel, await this.entry(rel));
	}

	/**
	 * The text `text` would give, without capturing a path the run has not touched: a search reads
	 * every file, and holding each would make the run's memory grow with the tree, not with what
	 * the team read. What the run captured is served as captured.
	 */
	async peekText(rel: string): Promise<string | null> {
		const captured = this.pending.get(rel);
		return this.textOf(rel, await (captured ?? read(join(this.root, rel), this.maxFileBytes)));
	}

	/** Every path captured so far with what was found there. */
	captured(): IterableIterator<[string, SnapshotEntry]> {
		return this.settled.entries();
	}

	private textOf(rel: string, entry: SnapshotEntry | BaseRead): string | null {
		if (entry.kind === 'too-large') throw new FileTooLargeError(rel, entry.size, this.maxFileBytes);
		return entry.kind === 'file' ? entry.text : null;
	}
}

/** A file's base without its hash (what a peek needs). */
type BaseRead = { readonly kind: 'file'; readonly text: string } | Exclude<SnapshotEntry, { kind: 'file' }>;

async function capture(absolute: string, cap: number): Promise<SnapshotEntry> {
	const base = await read(absolute, cap);
	return base.kind === 'file' ? { kind: 'file', text: base.text, hash: sha256(base.text) } : base;
}

/**
 * Reads one file without trusting its size: the size is checked on the open handle, and at most
 * that many bytes are read (a file growing meanwhile is cut, never loaded whole).
 */
async function read(absolute: string, cap: number): Promise<BaseRead> {
	let handle;
	try {
		handle = await open(absolute, 'r');
	} catch (error) {
		if (missing.has((error as NodeJS.ErrnoException).code ?? '')) return { kind: 'absent' };
		throw error;
	}
	try {
		const info = await handle.stat();
		if (!info.isFile()) return { kind: 'absent' };
		if (info.size > cap) return { kind: 'too-large', size: info.size };
		const buffer = Buffer.alloc(info.size);
		let length = 0;
		while (length < buffer.length) {
			const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
			if (bytesRead === 0) break;
			length += bytesRead;
		}
		return { kind: 'file', text: buffer.subarray(0, length).toString('utf8') };
	} finally {
		await handle.close();
	}
}

function formatBytes(bytes: number): string {
	return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
