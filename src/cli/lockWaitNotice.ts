import type { LockOwner } from '../core/workspace/workspaceLock.js';

/** Says once, on stderr, that a write waits for another MassGen write to the same workspace, for how long, and how to stop. */
export function lockWaitNotice(
	stderr: NodeJS.WritableStream,
): (owner: LockOwner | null, waitMs: number) => void {
	return (owner, waitMs) => {
		const who = owner ? `${owner.tool}, pid ${owner.pid}` : 'another process';
		stderr.write(
			`massgen: waiting for another write to this workspace to finish (${who}); up to ${Math.round(waitMs / 1000)} s, Ctrl-C stops waiting\n`,
		);
	};
}
