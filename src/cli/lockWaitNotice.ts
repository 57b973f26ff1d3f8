import type { LockOwner } from '../core/workspace/workspaceLock.js';

/** Says once, on stderr, that a write waits for another MassGen write to the same workspace. */
export function lockWaitNotice(stderr: NodeJS.WritableStream): (owner: LockOwner | null) => void {
	return (owner) => {
		const who = owner ? `${owner.tool}, pid ${owner.pid}` : 'another process';
		stderr.write(`massgen: waiting for another write to this workspace to finish (${who})\n`);
	};
}
