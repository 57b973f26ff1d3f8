/**
 * How each lane state reads and looks (label, codicon, tone for the badge colour).
 */
import { t } from '../strings.js';
import type { AgentLaneState, RunStateStatus } from '../../src/protocol/runState.js';

export interface StateLook {
	readonly label: string;
	readonly icon: string;
	readonly spin?: boolean;
}

const laneLooks = (): Record<AgentLaneState, StateLook> => ({
	idle: { label: t('laneIdle'), icon: 'circle-outline' },
	streaming: { label: t('laneStreaming'), icon: 'loading', spin: true },
	answered: { label: t('laneAnswered'), icon: 'comment' },
	voted: { label: t('laneVoted'), icon: 'thumbsup' },
	presenting: { label: t('lanePresenting'), icon: 'star-full' },
	error: { label: t('laneError'), icon: 'error' },
	killed: { label: t('laneKilled'), icon: 'circle-slash' },
	done: { label: t('laneDone'), icon: 'check' },
});

const runLooks = (): Record<RunStateStatus, StateLook> => ({
	idle: { label: t('waiting'), icon: 'circle-outline' },
	running: { label: t('running'), icon: 'sync', spin: true },
	completed: { label: t('completed'), icon: 'pass-filled' },
	cancelled: { label: t('cancelled'), icon: 'circle-slash' },
	timeout: { label: t('timedOut'), icon: 'watch' },
	failed: { label: t('failed'), icon: 'error' },
});

export function laneLook(state: AgentLaneState): StateLook {
	return laneLooks()[state] ?? { label: String(state), icon: 'question' };
}

export function runLook(status: RunStateStatus): StateLook {
	return runLooks()[status] ?? { label: String(status), icon: 'question' };
}
