/**
 * How each lane state reads and looks (label, codicon, tone for the badge colour).
 */
import type { AgentLaneState, RunStateStatus } from '../../src/protocol/runState.js';

export interface StateLook {
	readonly label: string;
	readonly icon: string;
	readonly spin?: boolean;
}

const laneLooks: Record<AgentLaneState, StateLook> = {
	idle: { label: 'idle', icon: 'circle-outline' },
	streaming: { label: 'streaming', icon: 'loading', spin: true },
	answered: { label: 'answered', icon: 'comment' },
	voted: { label: 'voted', icon: 'thumbsup' },
	presenting: { label: 'presenting', icon: 'star-full' },
	error: { label: 'error', icon: 'error' },
	killed: { label: 'killed', icon: 'circle-slash' },
	done: { label: 'done', icon: 'check' },
};

const runLooks: Record<RunStateStatus, StateLook> = {
	idle: { label: 'Waiting', icon: 'circle-outline' },
	running: { label: 'Running', icon: 'sync', spin: true },
	completed: { label: 'Completed', icon: 'pass-filled' },
	cancelled: { label: 'Cancelled', icon: 'circle-slash' },
	timeout: { label: 'Timed out', icon: 'watch' },
	failed: { label: 'Failed', icon: 'error' },
};

export function laneLook(state: AgentLaneState): StateLook {
	return laneLooks[state] ?? { label: String(state), icon: 'question' };
}

export function runLook(status: RunStateStatus): StateLook {
	return runLooks[status] ?? { label: String(status), icon: 'question' };
}
