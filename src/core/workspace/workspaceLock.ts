/**
 * One writer at a time per workspace, across processes: the CLI's `--apply` and `revert`, and the
 * editor's Accept and Revert Run all hold this lock from reading the files they plan against to
 * their last write, so a second writer plans against what the first wrote (a three-way merge or a
 * clean conflict) instead of overwriting it.
 *
 * The lock is a file in the user's own state folder (`$XDG_STATE_HOME/massgen/locks`,
 * `~/.local/state/…`, `%LOCALAPPDATA%\massgen\locks`), named by the hash of the workspace's
 * realpath: never inside the workspace, where a repository could plant a link or a fake lock. It is
 * created with O_EXCL and holds its owner (host, pid, and the process's start: boot id and start
 * time on Linux). A lock is stale when its owner is gone — on this host, its pid no longer runs or
 * now belongs to a later process — and is then taken over at once, so a killed CLI never blocks
 * anyone: no timeouts to tune, and an owner busy for minutes (the editor's refactor preview) is
 * never taken for dead. A lock of another host (a shared home) cannot be checked and is waited
 * for; the error names the file to delete. `proper-lockfile` was weighed: its staleness is an
 * mtime older than a threshold (a killed CLI blocks for that long; a stalled event loop loses the
 * lock) and two processes breaking one stale lock can both end up holding it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, lstat, mkdir, open, realpath, rename, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { hasErrorMark } from '../util/errorMark.js';
import { hostProcesses, markState, type ProcessTable } from '../util/processLiveness.js';
import { userStateDir } from '../util/stateDir.js';

const mark = Symbol.for('massgen.WorkspaceLockedError');

/** Who holds a lock, as written in the lock file. */
export interface LockOwner {
	readonly host: string;
	readonly pid: number;
	/** The process's start (Linux: boot id and start time), so a reused pid is not mistaken for the owner; null where unknown. */
	readonly start: string | null;
	/** What holds it, for the waiting message: `massgen apply`, `VS Code accept`, … */
	readonly tool: string;
	readonly workspace: string;
	/** ISO time the lock was taken. */
	readonly since: string;
	/** Random: tells this taking of the lock from any later one (inode numbers are reused at once). */
	readonly token: string;
}

/** Time, injectable so tests wait without sleeping. */
export interface LockClock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

export interface LockOptions {
	/** What takes the lock (shown to whoever waits for it). */
	readonly tool: string;
	/** The lock folder (default: `defaultLockDir(process.env)`). */
	readonly dir?: string;
	/** How long to wait for a live owner before giving up (default 120 s). */
	readonly waitMs?: number;
	/** Called once when the lock is busy and the caller starts waiting (with how long it will wait). */
	readonly onWait?: (owner: LockOwner | null, waitMs: number) => void;
	/** Stops the wait (Ctrl-C): the lock is not taken and the signal's reason is thrown. */
	readonly signal?: AbortSignal;
	readonly clock?: LockClock;
	readonly processes?: ProcessTable;
	readonly host?: string;
	readonly pid?: number;
}

/** The lock stayed with a live owner for the whole wait. */
export class WorkspaceLockedError extends Error {
	override readonly name = 'WorkspaceLockedError';
	readonly [mark] = true;
	constructor(
		readonly lockFile: string,
		readonly owner: LockOwner | null,
	) {
		const who = owner
			? `${owner.tool} (pid ${owner.pid} on ${owner.host}, since ${owner.since})`
			: 'another process';
		super(
			`another MassGen write to this workspace is in progress: ${who}. Try again when it has finished; ` +
				`if no MassGen process is running there, delete ${lockFile}`,
		);
	}

	/** Survives duplicate module copies (the engine bundle), unlike `instanceof`. */
	static is(value: unknown): value is WorkspaceLockedError {
		return hasErrorMark(value, mark);
	}
}

export interface HeldLock {
	readonly file: string;
	release(): Promise<void>;
}

/** Where locks live: the user's state folder, never the workspace. */
export function defaultLockDir(env: NodeJS.ProcessEnv): string {
	return join(userStateDir(env), 'locks');
}

/** Runs `body` holding the workspace's lock; released however `body` ends. */
export async function withWorkspaceLock<T>(
	root: string,
	options: LockOptions,
	body: () => Promise<T>,
): Promise<T> {
	const lock = await acquireWorkspaceLock(root, options);
	try {
		return await body();
	} finally {
		await lock.release();
	}
}

/** A lock file written by a process that died between creating and filling it is stale after this. */
const unreadableGraceMs = 5_000;
const exclusive = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

export async function acquireWorkspaceLock(root: string, options: LockOptions): Promise<HeldLock> {
	const clock = options.clock ?? realClock;
	const processes = options.processes ?? hostProcesses;
	const host = options.host ?? hostname();
	const pid = options.pid ?? process.pid;
	const workspace = await realpath(root);
	const dir = options.dir ?? defaultLockDir(process.env);
	await mkdir(dir, { recursive: true, mode: 0o700 });
	if ((await lstat(dir)).isSymbolicLink()) throw new Error(`refused to lock: ${dir} is a symlink`);
	const key = process.platform === 'win32' ? workspace.toLowerCase() : workspace;
	const file = join(dir, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.lock`);
	const owner: LockOwner = {
		host,
		pid,
		start: processes.startOf(pid),
		tool: options.tool,
		workspace,
		since: new Date(clock.now()).toISOString(),
		token: randomBytes(12).toString('hex'),
	};
	const text = JSON.stringify(owner);
	const waitMs = options.waitMs ?? 120_000;
	const deadline = clock.now() + waitMs;
	let delay = 10;
	let waiting = false;
	for (;;) {
		options.signal?.throwIfAborted();
		if (await tryCreate(file, text)) return { file, release: () => release(file, text) };
		const found = await readOwner(file);
		if (found === 'gone') continue;
		if (isStale(found, { host, processes, now: clock.now() })) {
			await breakStale(file, found);
			continue;
		}
		if (clock.now() >= deadline) throw new WorkspaceLockedError(file, found.owner);
		if (!waiting) options.onWait?.(found.owner, waitMs);
		waiting = true;
		await clock.sleep(delay);
		delay = Math.min(delay * 2, 250);
	}
}

/** Creates the lock file with our owner in it; false when it exists. */
async function tryCreate(file: string, text: string): Promise<boolean> {
	let handle;
	try {
		handle = await open(file, exclusive, 0o600);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
		throw error;
	}
	try {
		await handle.writeFile(text);
		await handle.sync();
		return true;
	} catch (error) {
		await unlink(file).catch(() => undefined);
		throw error;
	} finally {
		await handle.close();
	}
}

interface FoundLock {
	readonly ino: number;
	readonly text: string;
	/** Null when the file holds no owner (torn, or being written right now). */
	readonly owner: LockOwner | null;
	readonly mtimeMs: number;
}

async function readOwner(file: string): Promise<FoundLock | 'gone'> {
	let handle;
	try {
		handle = await open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
		throw error;
	}
	try {
		const stats = await handle.stat();
		const text = await handle.readFile('utf8');
		return { ino: stats.ino, text, owner: parseOwner(text), mtimeMs: stats.mtimeMs };
	} finally {
		await handle.close();
	}
}

function parseOwner(text: string): LockOwner | null {
	try {
		const value = JSON.parse(text) as Partial<LockOwner>;
		if (typeof value.host !== 'string' || typeof value.pid !== 'number') return null;
		return value as LockOwner;
	} catch {
		return null;
	}
}

function isStale(found: FoundLock, here: { host: string; processes: ProcessTable; now: number }): boolean {
	const { owner } = found;
	if (owner === null) return here.now - found.mtimeMs > unreadableGraceMs;
	return markState({ ...owner, start: owner.start ?? null }, here.processes, here.host) === 'dead';
}

/**
 * Removes a stale lock file, and only that one: it is renamed aside (one process wins the rename)
 * and checked to be the file judged stale (inode and text). If another process took the lock
 * between our check and our rename, its file is linked back (unless a third process has taken the
 * name meanwhile, which needs three processes racing over one dead owner within microseconds).
 */
async function breakStale(file: string, stale: FoundLock): Promise<void> {
	const aside = `${file}.${randomBytes(6).toString('hex')}.stale`;
	try {
		await rename(file, aside);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
		throw error;
	}
	try {
		const moved = await readOwner(aside);
		const same = moved !== 'gone' && moved.ino === stale.ino && moved.text === stale.text;
		if (!same) await link(aside, file).catch(() => undefined);
	} finally {
		await unlink(aside).catch(() => undefined);
	}
}

/** Deletes the lock file if it is still ours (one someone else took meanwhile is left alone). */
async function release(file: string, text: string): Promise<void> {
	const now = await readOwner(file).catch(() => 'gone' as const);
	if (now !== 'gone' && now.text === text) await unlink(file).catch(() => undefined);
}

const realClock: LockClock = {
	now: () => Date.now(),
	sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
