/**
 * Reads one entry of a steering inbox, or says why not. The inbox is an attacker too (anyone who
 * can write into it): nothing here follows a link, opens a FIFO or device (which could block),
 * reads a folder, reads past the size cap, or reads a file that has other names (a hard link to a
 * secret would send its text to the models as the user's words).
 */
import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '../../core/util/errorMessage.js';
import { readUpTo } from '../../core/util/regularFile.js';

/** An inbox file is a message, not a document: at most 64 KiB (the core takes 8,000 characters). */
export const maxInboxBytes = 64 * 1024;

export type InboxRead =
	{ readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

// C0, DEL, C1, and the Unicode line and bidirectional controls.
const controlChars = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

export function hasControlChars(name: string): boolean {
	return controlChars.test(name);
}

export async function readInboxEntry(dir: string, name: string): Promise<InboxRead> {
	if (hasControlChars(name)) return refuse('its name has control characters');
	const path = join(dir, name);
	const info = await lstat(path).catch(() => undefined);
	if (!info) return refuse('it vanished before it was read');
	const kind = notAFile(info);
	if (kind) return refuse(kind);
	if (info.nlink > 1) return refuse('it has other names (hard links): not read');
	if (info.size > maxInboxBytes) return refuse(`it has ${info.size} bytes; at most ${maxInboxBytes}`);
	// O_NOFOLLOW: a link swapped in since lstat is not followed; O_NONBLOCK: a FIFO swapped in does not block.
	const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(
		(error: unknown) => errorMessage(error),
	);
	if (typeof handle === 'string') return refuse(`cannot open it: ${handle}`);
	try {
		const opened = await handle.stat();
		if (opened.ino !== info.ino || opened.dev !== info.dev || notAFile(opened) || opened.nlink > 1) {
			return refuse('it was replaced while it was read');
		}
		// One byte past the cap tells a file that grew since the lstat.
		const bytes = await readUpTo(handle, maxInboxBytes + 1);
		if (bytes.length > maxInboxBytes) return refuse(`it grew past ${maxInboxBytes} bytes`);
		let text: string;
		try {
			text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
		} catch {
			return refuse('it is not UTF-8 text');
		}
		if (text.includes('\u0000')) return refuse('it is not text (NUL bytes)');
		return { ok: true, text };
	} finally {
		await handle.close();
	}
}

function notAFile(info: {
	isSymbolicLink(): boolean;
	isDirectory(): boolean;
	isFile(): boolean;
}): string | undefined {
	if (info.isSymbolicLink()) return 'a symbolic link (links are not followed)';
	if (info.isDirectory()) return 'a folder';
	if (!info.isFile()) return 'not a regular file (a FIFO, socket or device)';
	return undefined;
}

function refuse(reason: string): InboxRead {
	return { ok: false, reason };
}
