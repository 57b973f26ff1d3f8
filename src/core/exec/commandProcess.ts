/**
 * Child processes that leave no orphans: each one leads its own process group (POSIX) so the
 * whole tree (a shell, `npx` and the node it starts, background jobs) is signalled at once; on
 * Windows `taskkill /T` ends the tree.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export const isWindows = process.platform === 'win32';

/** Spawns `command args` as the leader of a new process group (no shell, no window). */
export function spawnGroup(
	command: string,
	args: readonly string[],
	options: Omit<SpawnOptions, 'detached' | 'shell'>,
): ChildProcess {
	return spawn(command, [...args], { ...options, detached: !isWindows, shell: false, windowsHide: true });
}

/** Signals every process of the child's group (or tree, on Windows). Never throws. */
export function killProcessTree(pid: number | undefined, signal: NodeJS.Signals = 'SIGKILL'): void {
	if (pid === undefined) return;
	if (isWindows) {
		try {
			spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true, stdio: 'ignore' }).on(
				'error',
				() => undefined,
			);
		} catch {
			// Nothing left to end.
		}
		return;
	}
	try {
		process.kill(-pid, signal);
	} catch {
		// ESRCH: the group is already gone.
	}
}

/** Whether any process of the group (POSIX) or the process itself is still alive. */
export function isGroupAlive(pid: number): boolean {
	try {
		process.kill(isWindows ? pid : -pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** Resolves once the child has exited (immediately if it already has), or after `ms`. */
export function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
	return new Promise((resolve) => {
		const timer = setTimeout(() => {
			child.off('exit', onExit);
			resolve(false);
		}, ms);
		timer.unref();
		const onExit = () => {
			clearTimeout(timer);
			resolve(true);
		};
		child.once('exit', onExit);
	});
}

/**
 * Ends a child and everything it started: SIGTERM to the group, then SIGKILL after `graceMs`
 * (also to leftovers when the leader exited on its own, e.g. a background job).
 */
export async function terminateGroup(child: ChildProcess, graceMs = 1000): Promise<void> {
	const pid = child.pid;
	if (pid === undefined) return;
	if (child.exitCode === null && child.signalCode === null) {
		killProcessTree(pid, 'SIGTERM');
		await waitForExit(child, graceMs);
	}
	killProcessTree(pid, 'SIGKILL');
}
