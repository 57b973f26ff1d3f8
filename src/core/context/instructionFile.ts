/**
 * Reads one project instruction file (`AGENTS.md`, `CLAUDE.md` …) of a repository that may be
 * hostile: the path goes through the tools' policy first (`Workspace.resolve`: secret paths, `.git/`,
 * links leading out of the workspace or to a secret are refused before anything is opened), a
 * symbolic link or a special file (FIFO, socket, device) is refused from `lstat` without being
 * opened (and the opened file must be the one `lstat` saw), and at most `maxBytes` of a regular
 * file are read (a huge file is cut, never loaded).
 * The text must be UTF-8 (a UTF-8 or UTF-16 byte-order mark is honoured); binary or undecodable
 * content is refused with the reason.
 */
import { lstat } from 'node:fs/promises';
import { openRegularFile, readUpTo, specialKind } from '../util/regularFile.js';
import type { Workspace } from '../workspace/types.js';

export type InstructionRead =
	/** Nothing there (the usual case): not reported. */
	| { readonly kind: 'absent' }
	| { readonly kind: 'refused'; readonly path: string; readonly reason: string }
	| {
			readonly kind: 'read';
			/** Workspace-relative, `/`-separated. */
			readonly path: string;
			readonly text: string;
			/** The file's size on disk. */
			readonly size: number;
			/** Only the first `maxBytes` were read. */
			readonly truncated: boolean;
	  };

export async function readInstructionFile(
	workspace: Workspace,
	path: string,
	maxBytes: number,
): Promise<InstructionRead> {
	const resolved = await workspace.resolve(path, 'read');
	if (!resolved.ok) return { kind: 'refused', path, reason: resolved.reason };
	const info = await lstat(resolved.absolute).catch(() => null);
	if (info === null) return { kind: 'absent' };
	const refuse = (why: string): InstructionRead => ({
		kind: 'refused',
		path: resolved.path,
		reason: `'${resolved.path}' is ${why}: instruction files are read only as regular files`,
	});
	if (info.isSymbolicLink()) return refuse('a symbolic link');
	if (info.isDirectory()) return refuse('a folder');
	const special = specialKind(info);
	if (special !== null) return refuse(special);
	try {
		// Opened non-blocking and checked again on the descriptor (a FIFO swapped in meanwhile); a
		// link swapped in after the lstat opens another file: its inode differs, and it is not read.
		const { handle, info: opened } = await openRegularFile(resolved.absolute);
		let bytes: Buffer;
		try {
			if (opened.ino !== info.ino || opened.dev !== info.dev) return refuse('replaced while it was read');
			bytes = await readUpTo(handle, Math.min(opened.size, maxBytes));
		} finally {
			await handle.close();
		}
		const size = opened.size;
		const truncated = size > bytes.length;
		const text = decode(bytes, truncated);
		if (text === null) {
			return {
				kind: 'refused',
				path: resolved.path,
				reason: `'${resolved.path}' is not UTF-8 text (binary or another encoding): it is not used`,
			};
		}
		return { kind: 'read', path: resolved.path, text, size, truncated };
	} catch (error) {
		return refuse(`unreadable (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
	}
}

/** The text of `bytes`, or null when it is not text. A cut file may end inside a character. */
export function decode(bytes: Buffer, cut: boolean): string | null {
	let text: string;
	try {
		if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder('utf-16le').decode(trimOdd(bytes));
		else if (bytes[0] === 0xfe && bytes[1] === 0xff) {
			text = new TextDecoder('utf-16be').decode(trimOdd(bytes));
		} else {
			const body = cut ? bytes.subarray(0, completeUtf8Length(bytes)) : bytes;
			text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body);
		}
	} catch {
		return null;
	}
	return text.includes('\u0000') ? null : text;
}

/** UTF-16 needs whole code units. */
function trimOdd(bytes: Buffer): Buffer {
	return bytes.subarray(0, bytes.length - (bytes.length % 2));
}

/** `bytes`' length without a UTF-8 sequence cut at its end. */
function completeUtf8Length(bytes: Buffer): number {
	let start = bytes.length - 1;
	// Back over at most three continuation bytes to the lead byte of the last sequence.
	while (start > 0 && bytes.length - start < 4 && (bytes[start]! & 0xc0) === 0x80) start--;
	const lead = bytes[start];
	if (lead === undefined || lead < 0x80) return bytes.length;
	const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
	return bytes.length - start < need ? start : bytes.length;
}
