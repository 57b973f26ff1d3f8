/**
 * The panel's checklist score table as data (`webview/render/checklistScores.ts` draws it): one row
 * per criterion in force, one column per answer of the run that the current votes scored, each
 * cell the voters' scores. Bounded whatever a replayed log holds: a column only for a label the run
 * gave an answer (a planted vote's scores of made-up labels add none), at most
 * `checklistTableLimits.columns` of them (the newest answers), and every score indexed once.
 */
import type { ChecklistCriterion } from '../contract/runEvents.js';
import type { RunState } from './runState.js';

export const checklistTableLimits = {
	/** Answers shown as columns: a team's current answers, with room for earlier ones. */
	columns: 32,
} as const;

export interface ScoreCell {
	/** Each current vote's score of the column's answer on the row's criterion, oldest vote first. */
	readonly scores: readonly { readonly voter: string; readonly score: number }[];
	/** A score is below the threshold. */
	readonly below: boolean;
}

export interface ChecklistTable {
	readonly threshold: number;
	readonly columns: readonly { readonly label: string; readonly agentId: string }[];
	readonly rows: readonly { readonly criterion: ChecklistCriterion; readonly cells: readonly ScoreCell[] }[];
}

/** The table of `state`'s checklist; null without criteria. */
export function checklistTable(state: RunState): ChecklistTable | null {
	const checklist = state.checklist;
	if (!checklist || checklist.criteria.length === 0) return null;
	const votes = Object.values(state.votes)
		.filter((vote) => vote.scores?.length)
		.sort((a, b) => a.t - b.t);
	// label → criterion id → scores, in one pass over every score of every vote.
	const byLabel = new Map<string, Map<string, { voter: string; score: number }[]>>();
	for (const vote of votes) {
		for (const entry of vote.scores!) {
			if (!Object.hasOwn(state.answerLabels, entry.label)) continue;
			let byCriterion = byLabel.get(entry.label);
			if (!byCriterion) byLabel.set(entry.label, (byCriterion = new Map()));
			for (const { id, score } of entry.criteria) {
				const list = byCriterion.get(id);
				if (list) list.push({ voter: vote.voter, score });
				else byCriterion.set(id, [{ voter: vote.voter, score }]);
			}
		}
	}
	// Answer order (the order labels were given), the newest `columns` of them.
	const labels = Object.keys(state.answerLabels)
		.filter((label) => byLabel.has(label))
		.slice(-checklistTableLimits.columns);
	return {
		threshold: checklist.threshold,
		columns: labels.map((label) => ({ label, agentId: state.answerLabels[label]! })),
		rows: checklist.criteria.map((criterion) => ({
			criterion,
			cells: labels.map((label) => {
				const scores = byLabel.get(label)!.get(criterion.id) ?? [];
				return { scores, below: scores.some(({ score }) => score < checklist.threshold) };
			}),
		})),
	};
}
