import type { Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isRootOrInside } from '../util/paths.js';
import { NotRegularFileError, openRegularFile } from '../util/regularFile.js';
import { sha256 } from './sha256.js';

/**
 * A path's base as the run first saw it. A file's `hash` is sha256 of `text`, except when the run
 * could not keep what it showed (see `unkeptHash`).
 */
export type SnapshotEntry =
	| { readonly kind: 'file'; readonly text: string; readonly hash: string }
	/**
	 * No file there (nothing, a directory, a socket …). `unkept`: a command was shown a file here
	 * that the user deleted since, and no copy of it is left (the team's write of it is a conflict).
	 */
	| { readonly kind: 'absent'; readonly unkept?: true }
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
 * One version of a file as a stat tells it apart (inode, size, modification and change times):
 * any write moves the change time, so equal stamps mean the bytes were not rewritten. Numbers,
 * not a string: 50,000 exposed files hold 10-13 MB with their paths instead of 21-24 MB.
 */
export interface FileStamp {
	readonly ino: number;
	readonly size: number;
	readonly mtimeMs: number;
	readonly ctimeMs: number;
}

export function fileStamp(info: Stats): FileStamp {
	return { ino: info.ino, size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs };
}

function sameStamp(a: FileStamp, b: FileStamp): boolean {
	return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/**
 * A copy of the workspace made when a tool showed it (a command's scratch copy, a coding agent's
 * folder): where the bytes the run showed can be read back once the user has changed the file.
 */
export interface ShownCopy {
	/** The copy's root: a path's copy is at `join(dir, rel)`; undefined once it is removed. */
	readonly dir: string | undefined;
	/**
	 * When the copy was finished (epoch ms), undefined while it is being made: a copied file whose
	 * change time is later was changed since (by a command, a coding agent): no longer what was shown.
	 */
	readonly madeAt: number | undefined;
}

/** What the run showed of a path before any read captured it: its stamp, and a copy holding its bytes. */
interface Exposure extends FileStamp {
	readonly copy: ShownCopy | undefined;
}

/** A whole tree a scratch showed, every file in it exposed: a path it covers without an exposure had no file. */
export interface ShownTree {
	covers(rel: string): boolean;
}

/** A path a shown tree covers that held no file when it was shown. */
const shownAbsent = 'shown absent';

/**
 * The hash a base gets when the run could not keep the version it showed: the user changed the
 * file after a command (or a coding agent's folder) showed it and before the run captured it, and
 * no unchanged copy of the shown bytes is left. `text` is then only the disk's later version, so
 * the hash is made to match no file: an accept sees a file "changed since the team read it" and
 * never merges against a base the team did not see (`planFile` makes it a conflict).
 */
export function unkeptHash(text: string): string {
	return sha256(`massgen: the version the team saw was not kept\0${text}`);
}

/**
 * The base of one run: each path's text and hash (or "absent") captured the first time any agent
 * or tool of the run touches it, and served unchanged for the rest of the run. So every agent
 * reads the same version, and the change set carries the base the team really read: a file the
 * user saves mid-run stays the user's edit (merged on accept), never the team's "base".
 *
 * Commands and coding agents see files without a read tool (`cat` in a scratch copy or overlay,
 * a CLI's own Read): their scratch records each file it shows with `expose` — a stat stamp, no
 * content — and the first exposure fixes the version. A later capture reads the disk; when the
 * stamp moved (the user saved meanwhile), the shown bytes are read back from the scratch copy if
 * it still holds them unchanged, and otherwise the base is marked unkept (`unkeptHash`).
 */
export class RunSnapshot {
	/** Shared promises: concurrent first touches of one path read the disk once. */
	private readonly pending = new Map<string, Promise<SnapshotEntry>>();
	/** The entries captured so far, for directory listings. */
	private readonly settled = new Map<string, SnapshotEntry>();
	/** Paths a command or coding agent was shown before any capture (first exposure wins). */
	private readonly exposed = new Map<string, Exposure>();
	/** Trees shown whole (after their files were exposed). */
	private readonly trees: ShownTree[] = [];

	constructor(
		private readonly root: string,
		readonly maxFileBytes: number = defaultMaxFileBytes,
	) {}

	/** The base of a normalised workspace-relative path (whose symlinks the caller has vetted). */
	entry(rel: string): Promise<SnapshotEntry> {
		let entry = this.pending.get(rel);
		if (entry === undefined) {
			const seen =
				this.exposed.get(rel) ?? (this.trees.some((tree) => tree.covers(rel)) ? shownAbsent : undefined);
			this.exposed.delete(rel);
			entry = capture(join(this.root, rel), rel, this.maxFileBytes, seen).then((captured) => {
				this.settled.set(rel, captured);
				return captured;
			});
			this.pending.set(rel, entry);
		}
		return entry;
	}

	/**
	 * Records that a tool showed the file at `rel` (as `fileStamp` of it, following links) to an
	 * agent; `copy` holds the bytes shown. Ignored once the path was exposed or captured: the
	 * first version shown is the base.
	 */
	expose(rel: string, stamp: FileStamp, copy?: ShownCopy): void {
		if (this.pending.has(rel) || this.exposed.has(rel)) return;
		const { ino, size, mtimeMs, ctimeMs } = stamp;
		this.exposed.set(rel, { ino, size, mtimeMs, ctimeMs, copy });
	}

	/**
	 * Records that a scratch showed the whole tree `tree` covers, once each file in it was exposed:
	 * a covered path captured later without an exposure had no file then (one the user creates
	 * afterwards is not the team's base: the team's write of it is a conflict, not an overwrite).
	 */
	exposeTree(tree: ShownTree): void {
		this.trees.push(tree);
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

/** A file's base without its hash (what a peek needs), with the stamp of what was read. */
type BaseRead =
	| { readonly kind: 'file'; readonly text: string; readonly stamp: FileStamp }
	| Exclude<SnapshotEntry, { kind: 'file' }>;

async function capture(
	absolute: string,
	rel: string,
	cap: number,
	seen: Exposure | typeof shownAbsent | undefined,
): Promise<SnapshotEntry> {
	const base = await read(absolute, cap);
	if (seen === shownAbsent) return { kind: 'absent' };
	if (seen === undefined || (base.kind === 'file' && sameStamp(base.stamp, seen))) return hashed(base);
	// Changed on disk since a command or coding agent was shown it: what it saw, if a copy still holds it.
	const shown = await readShownCopy(seen, rel, cap);
	if (shown !== null) return hashed(shown);
	if (base.kind === 'file') return { kind: 'file', text: base.text, hash: unkeptHash(base.text) };
	return base.kind === 'absent' ? { kind: 'absent', unkept: true } : base;
}

function hashed(base: BaseRead): SnapshotEntry {
	return base.kind === 'file' ? { kind: 'file', text: base.text, hash: sha256(base.text) } : base;
}

/**
 * The exposed bytes from the copy made when they were shown, or null when there is no such copy
 * any more: removed, changed since it was made (a command edited it), or leading out of the copy.
 */
async function readShownCopy(seen: Exposure, rel: string, cap: number): Promise<BaseRead | null> {
	const root = seen.copy?.dir;
	const madeAt = seen.copy?.madeAt;
	if (root === undefined || madeAt === undefined) return null;
	const real = await realpath(join(root, rel)).catch(() => null);
	if (real === null || !isRootOrInside(root, real)) return null;
	const info = await stat(real).catch(() => null);
	if (info?.isFile() !== true || info.ctimeMs > madeAt) return null;
	const shown = await read(real, cap);
	return shown.kind === 'file' && sameStamp(shown.stamp, info) ? shown : null;
}

/**
 * Reads one file without trusting its size: the size is checked on the open handle, and at most
 * that many bytes are read (a file growing meanwhile is cut, never loaded whole).
 */
async function read(absolute: string, cap: number): Promise<BaseRead> {
	let handle;
	try {
		// Never a plain open: a FIFO would block it forever (see regularFile.ts).
		({ handle } = await openRegularFile(absolute));
	} catch (error) {
		if (NotRegularFileError.is(error)) return { kind: 'absent' };
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
		return { kind: 'file', text: buffer.subarray(0, length).toString('utf8'), stamp: fileStamp(info) };
	} finally {
		await handle.close();
	}
}

function formatBytes(bytes: number): string {
	return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
