/**
 * A lane's usage line (tokens, cost, active time) and its breakdown tooltip.
 */
import type { AgentLane } from '../../src/protocol/runState.js';
import { formatCost, formatDuration, formatTokens } from './format.js';

export function usage(lane: AgentLane): string {
	const tokens = lane.inputTokens + lane.outputTokens;
	const active =
		lane.firstEventT !== null && lane.lastEventT !== null ? lane.lastEventT - lane.firstEventT : 0;
	// Whole seconds: the line then changes about once a second while streaming, not every frame.
	const cached = lane.cachedInputTokens > 0 ? ` (${formatTokens(lane.cachedInputTokens)} cached)` : '';
	return `${formatTokens(tokens)} tok${cached} · ${formatCost(lane.costUsd)} · ${formatDuration(active < 1_000 ? active : Math.floor(active / 1_000) * 1_000)}`;
}

export function usageTitle(lane: AgentLane): string {
	const lines = [
		`Input tokens: ${lane.inputTokens.toLocaleString('en-US')}`,
		`Output tokens: ${lane.outputTokens.toLocaleString('en-US')}`,
	];
	if (lane.reasoningTokens > 0) {
		lines.push(`Reasoning tokens: ${lane.reasoningTokens.toLocaleString('en-US')}`);
	}
	if (lane.cachedInputTokens > 0) {
		lines.push(`Cached input tokens: ${lane.cachedInputTokens.toLocaleString('en-US')}`);
	}
	lines.push(`Model calls: ${lane.calls}`);
	if (lane.abortedCalls > 0) {
		lines.push(`Calls ended early: ${lane.abortedCalls} (dropped for newer answers, or stopped)`);
	}
	lines.push(
		lane.costUsd === null ? 'Cost: no list price for this model' : `Cost: ${formatCost(lane.costUsd)}`,
	);
	if (lane.firstEventT !== null && lane.lastEventT !== null) {
		lines.push(
			`Active: ${formatDuration(lane.lastEventT - lane.firstEventT)} (first event at ${formatDuration(lane.firstEventT)})`,
		);
		if (lane.calls > 0) {
			lines.push(`Mean per call: ${formatDuration((lane.lastEventT - lane.firstEventT) / lane.calls)}`);
		}
	}
	return lines.join('\n');
}
