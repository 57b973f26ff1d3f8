/**
 * The outcome: winner banner, the final answer as sanitised Markdown, and the changed files.
 */
import { t, tc } from '../strings.js';
import type { ChangeOutcomesView } from '../../src/protocol/changeSetView.js';
import type { WebviewMessage } from '../../src/protocol/messages.js';
import type { RunState } from '../../src/protocol/runState.js';
import type { ViewStateStore } from '../viewState.js';
import { ChangesView, type ChangeSetInput } from './changes.js';
import { collapsible } from './collapsible.js';
import { h, icon, setHidden } from './dom.js';
import { markdownBlock } from './markdown.js';

const winnerReason = (): Record<string, string> => ({
	votes: t('chosenByVotes'),
	'tie-break': t('tieBrokenByThe'),
	'no-votes': t('noVotesFirstAgent'),
});

export class ResultView {
	readonly element: HTMLElement;
	private readonly _banner: HTMLDivElement;
	private readonly _final: HTMLElement;
	private readonly _finalBody: HTMLDivElement;
	private readonly _changes: ChangesView;
	private _winner: RunState['winner'] = null;
	private _tally: RunState['tally'] | null = null;
	private _finalAnswer: RunState['finalAnswer'] = null;

	constructor(viewState: ViewStateStore, post: (message: WebviewMessage) => void) {
		this._banner = h('div', { class: 'winner-banner', attrs: { role: 'status' } });
		this._banner.hidden = true;
		const final = collapsible({
			key: 'section:final-answer',
			defaultOpen: true,
			viewState,
			class: 'final-answer',
			summary: [h('h2', { text: t('finalAnswer'), attrs: { id: 'final-heading' } })],
		});
		this._final = final.details;
		this._final.hidden = true;
		this._finalBody = final.body;
		this._changes = new ChangesView(post, viewState);
		this.element = h(
			'section',
			{ class: 'result', attrs: { 'aria-label': t('result') } },
			this._banner,
			this._final,
			this._changes.element,
		);
		this.element.hidden = true;
	}

	update(state: RunState, changeSet: ChangeSetInput, outcomes?: ChangeOutcomesView): void {
		if (state.winner !== this._winner || state.tally !== this._tally) {
			this._winner = state.winner;
			this._tally = state.tally;
			this._renderBanner(state);
		}
		if (state.finalAnswer !== this._finalAnswer) {
			this._finalAnswer = state.finalAnswer;
			setHidden(this._final, state.finalAnswer === null);
			this._finalBody.replaceChildren();
			if (state.finalAnswer) {
				this._finalBody.append(
					h('div', {
						class: 'final-meta',
						text: t('presentedBy', state.finalAnswer.agentId),
						title: t('fromAnswers', state.finalAnswer.label),
					}),
					markdownBlock(state.finalAnswer.content, 'markdown final-markdown'),
				);
			}
		}
		this._changes.update(state, changeSet, outcomes);
		setHidden(
			this.element,
			state.winner === null && state.finalAnswer === null && this._changes.element.hidden,
		);
	}

	private _renderBanner(state: RunState): void {
		const winner = state.winner;
		setHidden(this._banner, winner === null);
		if (!winner) return;
		const votes = Object.hasOwn(state.tally, winner.agentId) ? (state.tally[winner.agentId] ?? 0) : 0;
		const voters = Object.values(state.tally).reduce((sum, n) => sum + n, 0);
		this._banner.replaceChildren(
			icon('star-full', 'winner-icon'),
			h(
				'div',
				{ class: 'winner-text' },
				h(
					'div',
					{ class: 'winner-title' },
					t('winner3'),
					h('strong', { text: winner.agentId, title: t('fromAnswers', winner.label) }),
				),
				h('div', {
					class: 'winner-sub',
					text: tc('ofVote', voters, votes, voters, winnerReason()[winner.reason] ?? winner.reason),
				}),
			),
		);
	}
}
