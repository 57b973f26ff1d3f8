/**
 * Reading files someone else wrote (a cloned repository, a command, a coding agent) without
 * letting a special file stop the process: opening a FIFO for reading blocks until a writer comes
 * (forever), and the blocked `open` holds one of libuv's four pool threads, so four FIFOs freeze
 * every file operation of the engine; `/dev/zero` or `/dev/urandom` never end. So every read of
 * such content goes through here: the type is checked with `stat` before the open (a device is
 * never even opened), the open is non-blocking (a FIFO swapped in after the check opens at once
 * instead of waiting for a writer), and the descriptor is checked again with `fstat` before a
 * byte is read. Only regular files pass; at most `maxBytes` are read.
 */
import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';

/** Thrown for a path that is there but is not a regular file (nor a directory). `code` is `ENOTREGULAR`. */
export class NotRegularFileError extends Error {
	override readonly name = 'NotRegularFileError';
	readonly code = 'ENOTREGULAR';

	constructor(
		readonly path: string,
		/** E.g. "a FIFO (named pipe)". */
		readonly kind: string,
	) {
		super(`'${path}' is ${kind}, not a regular file: it is never read`);
	}

	static is(error: unknown): error is NotRegularFileError {
		return error instanceof NotRegularFileError;
	}
}

/** What a non-regular, non-directory entry is, in words; null for a regular file or a directory. */
export function specialKind(info: Stats): string | null {
	if (info.isFile() || info.isDirectory()) return null;
	if (info.isFIFO()) return 'a FIFO (named pipe)';
	if (info.isSocket()) return 'a socket';
	if (info.isCharacterDevice()) return 'a character device';
	if (info.isBlockDevice()) return 'a block device';
	return 'a special file';
}

// O_NONBLOCK and O_NOCTTY are POSIX; Windows has no FIFOs to open (its constants lack them).
const readFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * Opens a regular file for reading. Throws `NotRegularFileError` for a FIFO, socket or device,
 * and the usual errors otherwise (ENOENT, EISDIR for a directory, EACCES …). Follows links:
 * callers vet where a path leads before reading it.
 */
export async function openRegularFile(path: string): Promise<{ handle: FileHandle; info: Stats }> {
	const before = await stat(path);
	if (before.isDirectory()) throw Object.assign(new Error(`'${path}' is a directory`), { code: 'EISDIR' });
	const kind = specialKind(before);
	if (kind !== null) throw new NotRegularFileError(path, kind);
	const handle = await open(path, readFlags);
	try {
		// The path may have been swapped since the stat: the descriptor is what will be read.
		const info = await handle.stat();
		if (!info.isFile()) {
			if (info.isDirectory()) throw Object.assign(new Error(`'${path}' is a directory`), { code: 'EISDIR' });
			throw new NotRegularFileError(path, specialKind(info) ?? 'a special file');
		}
		return { handle, info };
	} catch (error) {
		await handle.close();
		throw error;
	}
}

/** A regular file's first bytes: `bytes` holds at most `maxBytes`; `size` is the file's size when opened. */
export interface RegularRead {
	readonly bytes: Buffer;
	readonly size: number;
}

/**
 * Reads at most `maxBytes` of a regular file (see `openRegularFile` for what it throws). A file
 * that grows while it is read is cut at `maxBytes`, never loaded whole; compare `size` (or
 * `bytes.length`, for a file that grew) with the cap to tell a cut file.
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<RegularRead> {
	const { handle, info } = await openRegularFile(path);
	try {
		return { bytes: await readUpTo(handle, Math.min(info.size, maxBytes)), size: info.size };
	} finally {
		await handle.close();
	}
}

/** At most `maxBytes` from the start of an open file (fewer when it ends first), never more. */
export async function readUpTo(handle: FileHandle, maxBytes: number): Promise<Buffer> {
	const buffer = Buffer.alloc(maxBytes);
	let length = 0;
	while (length < buffer.length) {
		const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
		if (bytesRead === 0) break;
		length += bytesRead;
	}
	return buffer.subarray(0, length);
}

/** A regular file's whole UTF-8 text (for files we wrote ourselves, in a folder a repository may also fill). */
export async function readRegularText(path: string): Promise<string> {
	const { handle } = await openRegularFile(path);
	try {
		return await handle.readFile('utf8');
	} finally {
		await handle.close();
	}
}

/**
 * A regular file's UTF-8 text when it has at most `maxBytes`; null when it is absent, not a
 * regular file, over the cap or unreadable (for optional files such as `.env` or `.gitignore`).
 */
export async function readRegularTextOrNull(path: string, maxBytes: number): Promise<string | null> {
	try {
		const { bytes, size } = await readRegularFile(path, maxBytes);
		return size > maxBytes ? null : bytes.toString('utf8');
	} catch {
		return null;
	}
}
