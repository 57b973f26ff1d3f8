/**
 * `massgen run --inbox DIR` (docs/cli.md#steering-a-run): each file that appears in DIR is one
 * message to the running team. Files whose name starts with `.` are left alone (write `.msg`, then
 * rename it: a file is taken whole or not at all). A delivered file moves to DIR/delivered/, a
 * refused one (unreadable, or the run said no) to DIR/refused/, so nothing is lost and nothing is
 * read twice. fs.watch wakes it at once; a poll on the run clock catches what a watch misses
 * (network folders, a watch that could not start).
 */
import { watch, type FSWatcher } from 'node:fs';
import { lstat, mkdir, readdir, realpath, rename } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { realClock, type RunClock } from '../../core/util/clock.js';
import { errorMessage } from '../../core/util/errorMessage.js';
import { hasControlChars, readInboxEntry } from './inboxEntry.js';
import type { SteerReport } from './sendSteer.js';

export const inboxFolders = { delivered: 'delivered', refused: 'refused' } as const;

export interface InboxOptions {
	/** Hands one message's text to the run; what it says is reported. */
	readonly deliver: (text: string) => SteerReport;
	/** One line for stderr (no prefix, no newline). */
	readonly report: (line: string) => void;
	readonly clock?: RunClock;
	/** Between polls (default 1 s). */
	readonly pollMs?: number;
	/** fs.watch as well as the poll (default true). */
	readonly watch?: boolean;
	/** From `prepareInbox`. */
	readonly guard?: InboxGuard;
}

/**
 * What the inbox holds to against its folder's attackers (test/unit/cli/steer/inboxGuard.test.ts):
 * the folder itself (a link or another folder swapped in mid-run would have its files, a private
 * key, sent as the user's words), and the files waiting in it when it lies inside the workspace —
 * a repository can ship them (`--inbox inbox` in a cloned project), so they are refused unread.
 */
export interface InboxGuard {
	readonly folder: { readonly dev: number; readonly ino: number };
	readonly seeded: ReadonlySet<string>;
}

/** DIR resolved, created when missing (0700), with its two folders: or why it cannot be an inbox. */
export async function prepareInbox(
	dir: string,
	workspaceRoot?: string,
): Promise<{ ok: true; dir: string; guard: InboxGuard } | { ok: false; reason: string }> {
	try {
		await mkdir(dir, { recursive: true, mode: 0o700 });
		const real = await realpath(dir);
		const info = await lstat(real);
		if (!info.isDirectory()) return { ok: false, reason: `${dir} is not a folder` };
		for (const folder of Object.values(inboxFolders)) {
			const path = join(real, folder);
			await mkdir(path, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
				if (error.code !== 'EEXIST') throw error;
			});
			// A link here would move messages out of the inbox, wherever it points.
			const info = await lstat(path);
			if (info.isSymbolicLink() || !info.isDirectory()) {
				return { ok: false, reason: `${path} is not a folder (a link or a file)` };
			}
		}
		const root =
			workspaceRoot === undefined ? undefined : await realpath(workspaceRoot).catch(() => undefined);
		const inside =
			root !== undefined && (real === root || real.startsWith(root.endsWith(sep) ? root : root + sep));
		const seeded = new Set(inside ? (await readdir(real)).filter((name) => !isInboxFolder(name)) : []);
		return { ok: true, dir: real, guard: { folder: { dev: info.dev, ino: info.ino }, seeded } };
	} catch (error) {
		return { ok: false, reason: `cannot use ${dir} as the inbox: ${errorMessage(error)}` };
	}
}

export class Inbox {
	private watcher: FSWatcher | undefined;
	private cancelPoll: (() => void) | undefined;
	private scanning: Promise<void> | undefined;
	private again = false;
	private stopped = false;
	private lastError: string | undefined;
	/** Entries that could not be moved aside: reported once, not handled again. */
	private readonly stuck = new Set<string>();
	private readonly clock: RunClock;

	constructor(
		/** From `prepareInbox`. */
		private readonly dir: string,
		private readonly options: InboxOptions,
	) {
		this.clock = options.clock ?? realClock;
	}

	start(): void {
		if (this.options.watch !== false) {
			try {
				this.watcher = watch(this.dir, { persistent: false }, () => this.scan());
				// Out of inotify watches, or the folder went away: the poll carries on.
				this.watcher.on('error', () => this.closeWatcher());
			} catch {
				this.watcher = undefined;
			}
		}
		this.poll();
		this.scan();
	}

	/** Stops watching; resolves once the scan in progress (if any) has moved its files. */
	async stop(): Promise<void> {
		this.stopped = true;
		this.closeWatcher();
		this.cancelPoll?.();
		await this.scanning;
	}

	/** Looks at the folder now (a scan in progress looks again when it ends); resolves when it has. */
	scan(): Promise<void> {
		if (this.stopped) return this.scanning ?? Promise.resolve();
		if (this.scanning) {
			this.again = true;
			return this.scanning;
		}
		this.scanning = (async () => {
			do {
				this.again = false;
				await this.scanOnce().then(
					() => (this.lastError = undefined),
					(error: unknown) => {
						// Said once, not at every poll, until the folder can be read again.
						const message = `inbox: cannot read ${this.dir}: ${errorMessage(error)}`;
						if (message !== this.lastError) this.options.report(message);
						this.lastError = message;
					},
				);
			} while (this.again && !this.stopped);
		})().finally(() => (this.scanning = undefined));
		return this.scanning;
	}

	private poll(): void {
		this.cancelPoll = this.clock.setTimer(this.options.pollMs ?? 1_000, () => {
			if (this.stopped) return;
			void this.scan();
			this.poll();
		});
	}

	private async scanOnce(): Promise<void> {
		const folder = this.options.guard?.folder;
		if (folder) {
			const now = await lstat(this.dir);
			if (now.isSymbolicLink() || !now.isDirectory() || now.dev !== folder.dev || now.ino !== folder.ino) {
				throw new Error(
					'it was replaced (a link or another folder) since the run began: its files are not read',
				);
			}
		}
		const names = (await readdir(this.dir))
			.filter((name) => !name.startsWith('.') && !isInboxFolder(name))
			.filter((name) => !this.stuck.has(name))
			.sort();
		for (const name of names) {
			if (this.stopped) return;
			await this.take(name);
		}
	}

	private async take(name: string): Promise<void> {
		const read = this.options.guard?.seeded.has(name)
			? {
					ok: false as const,
					reason:
						'it was in the inbox, inside the workspace, before the run: the repository may have put it there',
				}
			: await readInboxEntry(this.dir, name);
		// A file that vanished meanwhile (its writer renamed it again) is nobody's message.
		if (!read.ok && read.reason === 'it vanished before it was read') return;
		const outcome = read.ok
			? this.options.deliver(read.text)
			: { ok: false, text: `refused: ${read.reason}` };
		const folder = outcome.ok ? inboxFolders.delivered : inboxFolders.refused;
		const moved = await this.moveTo(name, folder);
		const where = moved === null ? '' : ` (moved to ${folder}/)`;
		this.options.report(`inbox ${shownName(name)}: ${outcome.text}${where}`);
		if (moved !== null) return;
		this.stuck.add(name);
		this.options.report(`inbox ${shownName(name)}: cannot be moved aside; left where it is`);
	}

	/** The name it got in `folder` (a suffix when taken), or null when it could not be moved. */
	private async moveTo(name: string, folder: string): Promise<string | null> {
		for (let n = 0; n < 1_000; n++) {
			const target = n === 0 ? name : `${name}.${n}`;
			const path = join(this.dir, folder, target);
			const taken = await lstat(path).then(
				() => true,
				() => false,
			);
			if (taken) continue;
			try {
				// rename moves the entry itself: a link stays a link, a FIFO is never opened.
				await rename(join(this.dir, name), path);
				return target;
			} catch {
				return null;
			}
		}
		return null;
	}

	private closeWatcher(): void {
		this.watcher?.close();
		this.watcher = undefined;
	}
}

function isInboxFolder(name: string): boolean {
	return name === inboxFolders.delivered || name === inboxFolders.refused;
}

/** A name as it can be printed: control characters as `\u{…}`. */
export function shownName(name: string): string {
	if (!hasControlChars(name)) return name;
	return [...name]
		.map((char) => (hasControlChars(char) ? `\\u{${char.codePointAt(0)!.toString(16)}}` : char))
		.join('');
}
