/**
 * The Runs view's filter: by status and by text (question, final answer, run id, winner). Pure.
 */
import type { TurnSummary } from '../../core/sessions/sessionTypes.js';

export type TurnStatus = TurnSummary['status'];

export const turnStatuses: readonly TurnStatus[] = ['completed', 'failed', 'timeout', 'cancelled'];

export interface RunsFilter {
	/** Shown statuses; empty = every status. */
	readonly statuses: readonly TurnStatus[];
	/** Case-insensitive substring; empty = any text. */
	readonly text: string;
}

export const noFilter: RunsFilter = { statuses: [], text: '' };

export function isFiltering(filter: RunsFilter): boolean {
	return filter.statuses.length > 0 || filter.text.trim() !== '';
}

export function matchesFilter(turn: TurnSummary, filter: RunsFilter): boolean {
	if (filter.statuses.length > 0 && !filter.statuses.includes(turn.status)) return false;
	const needle = filter.text.trim().toLowerCase();
	if (!needle) return true;
	const haystack = [turn.question, turn.finalAnswer ?? '', turn.runId, turn.winner?.agentId ?? ''];
	return haystack.some((text) => text.toLowerCase().includes(needle));
}

/** The view's `description` while a filter applies (e.g. `failed, timeout · "retry"`); '' otherwise. */
export function describeFilter(filter: RunsFilter): string {
	const parts: string[] = [];
	if (filter.statuses.length > 0) parts.push(filter.statuses.join(', '));
	if (filter.text.trim()) parts.push(`"${filter.text.trim()}"`);
	return parts.join(' · ');
}
