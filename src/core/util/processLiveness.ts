/**
 * Is the process that wrote a marker still running? Shared by the workspace lock
 * (`workspace/workspaceLock.ts`) and the running-run marker (`runStore/runningMarker.ts`). A
 * process is named by host, pid and its start (Linux: boot id and start time from
 * `/proc/<pid>/stat`), so a pid the kernel handed to a later process is not mistaken for the owner.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** The processes of this host, injectable so tests decide who is alive. */
export interface ProcessTable {
	alive(pid: number): boolean;
	/** A stable id of the process's start, or null when this platform cannot tell. */
	startOf(pid: number): string | null;
}

/** Who wrote a marker. */
export interface ProcessMark {
	readonly host: string;
	readonly pid: number;
	/** The process's start, or null where unknown (then the pid alone decides). */
	readonly start: string | null;
}

/** This process (or `pid`) as a marker names it. */
export function processMark(
	processes: ProcessTable = hostProcesses,
	pid: number = process.pid,
	host: string = hostname(),
): ProcessMark {
	return { host, pid, start: processes.startOf(pid) };
}

/**
 * `alive` when the marked process still runs on this host, `dead` when its pid runs no more or now
 * belongs to a later process, `unknown` for another host (a shared home: it cannot be checked).
 */
export function markState(
	mark: ProcessMark,
	processes: ProcessTable = hostProcesses,
	host: string = hostname(),
): 'alive' | 'dead' | 'unknown' {
	if (mark.host !== host) return 'unknown';
	if (!processes.alive(mark.pid)) return 'dead';
	const start = processes.startOf(mark.pid);
	return mark.start !== null && start !== null && start !== mark.start ? 'dead' : 'alive';
}

export const hostProcesses: ProcessTable = {
	alive(pid) {
		// 0 and negative pids name process groups (kill(0) and kill(-1) always reach one): a marker or
		// lock a repository planted with them would be alive forever.
		if (!Number.isSafeInteger(pid) || pid <= 0) return false;
		try {
			process.kill(pid, 0);
			return true;
		} catch (error) {
			// EPERM: it runs, as another user.
			return (error as NodeJS.ErrnoException).code === 'EPERM';
		}
	},
	startOf(pid) {
		if (process.platform !== 'linux') return null;
		try {
			const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
			// Fields after the command name (which may hold spaces and parentheses); the 22nd is the start time.
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			return `${bootId()}:${fields[19]}`;
		} catch {
			return null;
		}
	},
};

let cachedBootId: string | undefined;
function bootId(): string {
	cachedBootId ??= (() => {
		try {
			return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
		} catch {
			return '';
		}
	})();
	return cachedBootId;
}
