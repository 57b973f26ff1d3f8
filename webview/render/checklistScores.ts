/**
 * The evaluation checklist's scores: one row per criterion in force, one column per answer the
 * current votes scored, each cell the voters' scores (1–10), marked when one is below the threshold.
 * Criteria and scores come from events (a replayed log is bounded by `runEventSchema`).
 */
import { t } from '../strings.js';
import type { RunState, VoteView } from '../../src/protocol/runState.js';
import { h } from './dom.js';

export function checklistScores(state: RunState): HTMLElement | null {
	const checklist = state.checklist;
	if (!checklist || checklist.criteria.length === 0) return null;
	const votes = Object.values(state.votes)
		.filter((vote) => vote.scores?.length)
		.sort((a, b) => a.t - b.t);
	const order = Object.keys(state.answerLabels);
	const labels = [...new Set(votes.flatMap((vote) => vote.scores!.map((entry) => entry.label)))].sort(
		(a, b) => order.indexOf(a) - order.indexOf(b),
	);
	const agentOf = (label: string) =>
		(Object.hasOwn(state.answerLabels, label) ? state.answerLabels[label] : undefined) ?? label;
	const head = h(
		'tr',
		{},
		h('th', { text: t('criterion'), attrs: { scope: 'col' } }),
		...labels.map((label) =>
			h('th', { text: agentOf(label), title: t('anonymousIdInPrompts', label), attrs: { scope: 'col' } }),
		),
	);
	const rows = checklist.criteria.map((criterion) => {
		const about =
			criterion.proposedBy === undefined
				? criterion.text
				: `${criterion.text}\n${t('proposedByInRound', criterion.proposedBy, criterion.round)}`;
		return h(
			'tr',
			{},
			h(
				'th',
				{ attrs: { scope: 'row' }, title: about },
				h('span', { class: 'criterion-id', text: criterion.id }),
				` ${criterion.text}`,
			),
			...labels.map((label) => scoreCell(votes, label, criterion.id, checklist.threshold)),
		);
	});
	return h(
		'div',
		{ class: 'checklist-scores' },
		h('h3', { text: t('checklistScores') }),
		h('p', { class: 'checklist-note', text: t('checklistScoresNote', checklist.threshold) }),
		h('table', {}, h('thead', {}, head), h('tbody', {}, ...rows)),
	);
}

function scoreCell(votes: readonly VoteView[], label: string, id: string, threshold: number): HTMLElement {
	const given = votes.flatMap((vote) => {
		const score = vote
			.scores!.find((entry) => entry.label === label)
			?.criteria.find((c) => c.id === id)?.score;
		return score === undefined ? [] : [{ voter: vote.voter, score }];
	});
	const below = given.some(({ score }) => score < threshold);
	return h('td', {
		class: below ? 'score is-below' : 'score',
		text: given.length ? given.map(({ score }) => String(score)).join(' · ') : '—',
		title: given.map(({ voter, score }) => t('scoredBy', voter, score)).join('\n'),
	});
}
