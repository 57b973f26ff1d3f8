/**
 * Why coordination ended, in words for the header: the reason, the quorum that carried it, and what
 * stopping early saved (calls stopped, agents not waited for, the estimated cost not spent).
 */
import { t, tc } from '../strings.js';
import type { RunState } from '../../src/protocol/runState.js';
import { formatCost } from './format.js';

export function coordinationEndWords(end: NonNullable<RunState['coordinationEnd']>): string {
	const words: Record<string, () => string> = {
		consensus: () => t('endConsensus'),
		quorum: () =>
			end.quorum
				? t('endQuorum', end.quorum.votes, end.quorum.required, end.quorum.label)
				: t('endQuorumBare'),
		'finished-by-user': () => t('endFinishedByUser'),
		timeout: () => t('endTimeout'),
		budget: () => t('endBudget'),
		exhausted: () => t('endExhausted'),
		cancelled: () => t('endCancelled'),
	};
	// A reason from a newer log than this panel knows: as written.
	const reason = Object.hasOwn(words, end.reason) ? words[end.reason]!() : end.reason;
	const saved = end.saved;
	if (!saved) return t('coordinationEnded', reason);
	const parts = [
		saved.callsStopped > 0 ? tc('savedCalls', saved.callsStopped, saved.callsStopped) : '',
		saved.agentsNotWaitedFor.length > 0 ? t('savedAgents', saved.agentsNotWaitedFor.join(', ')) : '',
		saved.estimatedCostUsd === null ? '' : t('savedCost', formatCost(saved.estimatedCostUsd)),
	].filter(Boolean);
	return parts.length > 0
		? t('coordinationEndedSaved', reason, parts.join(' · '))
		: t('coordinationEnded', reason);
}
