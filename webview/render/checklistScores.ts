/**
 * The evaluation checklist's scores: one row per criterion in force, one column per answer the
 * current votes scored, each cell the voters' scores (1–10), marked when one is below the threshold.
 * The table is `src/protocol/checklistTable.ts`'s (bounded whatever a replayed log holds).
 */
import { t } from '../strings.js';
import { checklistTable, type ScoreCell } from '../../src/protocol/checklistTable.js';
import type { RunState } from '../../src/protocol/runState.js';
import { h } from './dom.js';

export function checklistScores(state: RunState): HTMLElement | null {
	const table = checklistTable(state);
	if (!table) return null;
	const head = h(
		'tr',
		{},
		h('th', { text: t('criterion'), attrs: { scope: 'col' } }),
		...table.columns.map(({ label, agentId }) =>
			h('th', { text: agentId, title: t('anonymousIdInPrompts', label), attrs: { scope: 'col' } }),
		),
	);
	const rows = table.rows.map(({ criterion, cells }) => {
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
			...cells.map(scoreCell),
		);
	});
	return h(
		'div',
		{ class: 'checklist-scores' },
		h('h3', { text: t('checklistScores') }),
		h('p', { class: 'checklist-note', text: t('checklistScoresNote', table.threshold) }),
		h('table', {}, h('thead', {}, head), h('tbody', {}, ...rows)),
	);
}

function scoreCell({ scores, below }: ScoreCell): HTMLElement {
	return h('td', {
		class: below ? 'score is-below' : 'score',
		text: scores.length ? scores.map(({ score }) => String(score)).join(' · ') : '—',
		title: scores.map(({ voter, score }) => t('scoredBy', voter, score)).join('\n'),
	});
}
