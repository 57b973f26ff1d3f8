/**
 * Writes that a reader or a crash can never see half done: the text goes to a temporary file in
 * the target's own folder (same file system, so the rename is atomic), is flushed to disk, and
 * then renamed over the target. A reader sees the old file or the new one, never a mix; two
 * writers racing each leave a whole file (the last rename wins: serialising them is the
 * workspace lock's job). The temporary name is random and opened with O_EXCL|O_NOFOLLOW, so a
 * link a repository planted at any name is never followed; rename replaces a link at the target
 * itself instead of writing through it (callers refuse link targets before). A hard-linked
 * target gets a new inode: the other names keep the old text rather than receiving the write.
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { type FileHandle, link, lstat, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
	/**
	 * Mode of a file that does not exist yet, before the umask (default 0o666, as `writeFile`).
	 * An existing file keeps its own mode and, where the process may set them, its owner and group.
	 */
	readonly mode?: number;
	/**
	 * `replace` (default) renames over whatever file is there; `create` writes only when nothing is
	 * there (hard link of the finished temporary file: fails with EEXIST, never clobbers).
	 */
	readonly flag?: 'replace' | 'create';
}

/** The target is not a regular file (a symlink, a folder, a device): nothing was written. */
export class NotARegularFileError extends Error {
	override readonly name = 'NotARegularFileError';
	constructor(readonly path: string) {
		super(`refused to write '${path}': it is not a regular file`);
	}
}

const exclusive = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/**
 * Replaces (or creates) `target` with `content` atomically. Throws `NotARegularFileError` when
 * the target is a symlink or anything but a regular file, EEXIST with `flag: 'create'` when it
 * exists; the temporary file is removed on every failure.
 */
export async function atomicWrite(
	target: string,
	content: string | Uint8Array,
	options: AtomicWriteOptions = {},
): Promise<void> {
	const existing = await lstatOrNull(target);
	if (existing !== null && !existing.isFile()) throw new NotARegularFileError(target);
	if (existing !== null && options.flag === 'create') {
		throw Object.assign(new Error(`EEXIST: '${target}' already exists`), { code: 'EEXIST', path: target });
	}
	const { handle, temp } = await openTemp(target, existing === null ? (options.mode ?? 0o666) : 0o600);
	try {
		try {
			if (existing !== null) await keepOwnerAndMode(handle, existing);
			await handle.writeFile(content);
			await handle.sync();
		} finally {
			await handle.close();
		}
		if (options.flag === 'create') {
			await linkNew(temp, target);
		} else {
			// A link or folder put at the target since the first check: refuse rather than replace it.
			const now = await lstatOrNull(target);
			if (now !== null && !now.isFile()) throw new NotARegularFileError(target);
			await rename(temp, target);
		}
	} catch (error) {
		await unlink(temp).catch(() => undefined);
		throw error;
	}
	await syncFolder(dirname(target));
}

/**
 * Puts the finished temporary file at `target` only if nothing is there. A hard link does that in
 * one step; a file system without hard links (FAT, some network shares) gets an empty placeholder
 * created exclusively and then replaced by the rename (a reader may see it empty, never partial).
 */
async function linkNew(temp: string, target: string): Promise<void> {
	try {
		await link(temp, target);
		await unlink(temp);
		return;
	} catch (error) {
		if (!noHardLinks.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
	}
	await (await open(target, exclusive, 0o600)).close();
	await rename(temp, target);
}

const noHardLinks = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

/** A fresh temporary file beside `target`; a name that exists (planted or not) is skipped, never opened. */
async function openTemp(target: string, mode: number): Promise<{ handle: FileHandle; temp: string }> {
	for (let attempt = 0; ; attempt++) {
		const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.massgen-tmp`);
		try {
			return { handle: await open(temp, exclusive, mode), temp };
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 8) throw error;
		}
	}
}

/** Owner and group first (chown clears set-id bits), then the mode; owner only where permitted. */
async function keepOwnerAndMode(handle: FileHandle, stats: Stats): Promise<void> {
	if (process.platform !== 'win32') {
		await handle.chown(stats.uid, stats.gid).catch((error: NodeJS.ErrnoException) => {
			if (error.code !== 'EPERM') throw error;
		});
	}
	await handle.chmod(stats.mode & 0o7777);
}

/** Makes the rename itself durable; not every platform can open a folder for that (best effort). */
async function syncFolder(folder: string): Promise<void> {
	if (process.platform === 'win32') return;
	let handle: FileHandle | undefined;
	try {
		handle = await open(folder, constants.O_RDONLY);
		await handle.sync();
	} catch {
		// The write itself is complete and atomic; only its durability across a power cut is weaker.
	} finally {
		await handle?.close();
	}
}

async function lstatOrNull(path: string): Promise<Stats | null> {
	try {
		return await lstat(path);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
		throw error;
	}
}
