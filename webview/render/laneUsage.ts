/**
 * A lane's usage line (tokens, cost, active time) and its breakdown tooltip.
 */
import { t } from '../strings.js';
import type { AgentLane } from '../../src/protocol/runState.js';
import { formatCost, formatDuration, formatTokens } from './format.js';

export function usage(lane: AgentLane): string {
	const tokens = lane.inputTokens + lane.outputTokens;
	const active =
		lane.firstEventT !== null && lane.lastEventT !== null ? lane.lastEventT - lane.firstEventT : 0;
	// Whole seconds: the line then changes about once a second while streaming, not every frame.
	const cached = lane.cachedInputTokens > 0 ? t('cached', formatTokens(lane.cachedInputTokens)) : '';
	// No price known: no cost at all (the tooltip says why), rather than "no price" in every lane.
	return [
		t('tok', formatTokens(tokens), cached),
		lane.costUsd === null ? '' : formatCost(lane.costUsd),
		formatDuration(active < 1_000 ? active : Math.floor(active / 1_000) * 1_000),
	]
		.filter(Boolean)
		.join(' · ');
}

export function usageTitle(lane: AgentLane): string {
	const lines = [
		t('inputTokens', lane.inputTokens.toLocaleString('en-US')),
		t('outputTokens', lane.outputTokens.toLocaleString('en-US')),
	];
	if (lane.reasoningTokens > 0) {
		lines.push(t('reasoningTokens', lane.reasoningTokens.toLocaleString('en-US')));
	}
	if (lane.cachedInputTokens > 0) {
		lines.push(t('cachedInputTokens', lane.cachedInputTokens.toLocaleString('en-US')));
	}
	lines.push(t('modelCalls', lane.calls));
	if (lane.abortedCalls > 0) {
		lines.push(t('callsEndedEarlyDropped', lane.abortedCalls));
	}
	lines.push(lane.costUsd === null ? t('costNoListPrice') : t('cost', formatCost(lane.costUsd)));
	if (lane.firstEventT !== null && lane.lastEventT !== null) {
		lines.push(
			t(
				'activeFirstEventAt',
				formatDuration(lane.lastEventT - lane.firstEventT),
				formatDuration(lane.firstEventT),
			),
		);
		if (lane.calls > 0) {
			lines.push(t('meanPerCall', formatDuration((lane.lastEventT - lane.firstEventT) / lane.calls)));
		}
	}
	return lines.join('\n');
}
