/**
 * The vote strip, pinned in the run header: one chip per agent saying whom it votes for now
 * ("reviewer → architect", the reason and answer in the tooltip) or that it has not voted, the
 * winner starred. The whole team's votes stay in sight while the lanes and the vote graph scroll.
 */
import { t } from '../strings.js';
import type { RunState } from '../../src/protocol/runState.js';
import { h, icon, setHidden } from './dom.js';

export class VoteStrip {
	readonly element: HTMLDivElement;
	private readonly _list: HTMLUListElement;
	private _key: unknown[] = [];

	constructor() {
		this._list = h('ul', { class: 'vote-strip-list' });
		this.element = h(
			'div',
			{ class: 'vote-strip', attrs: { role: 'group', 'aria-label': t('votes') } },
			h('span', { class: 'vote-strip-title', text: t('votes') }),
			this._list,
		);
		this.element.hidden = true;
	}

	update(state: RunState): void {
		const key = [state.votes, state.winner, state.agentOrder, state.agents, state.answerLabels];
		if (key.every((part, i) => part === this._key[i])) return;
		this._key = key;
		// Shown once there is something to vote on (an answer) or a vote.
		const hidden = Object.keys(state.answerLabels).length === 0 && Object.keys(state.votes).length === 0;
		setHidden(this.element, hidden);
		if (hidden) return;
		this._list.replaceChildren(
			...state.agentOrder.map((agentId) => {
				const vote = Object.hasOwn(state.votes, agentId) ? state.votes[agentId] : undefined;
				const killed = state.agents[agentId]?.state === 'killed';
				const winner = state.winner?.agentId === agentId;
				const text = vote
					? t('votesFor', agentId, vote.votedForAgent)
					: killed
						? t('stoppedShort', agentId)
						: t('noVoteYet', agentId);
				const item = h(
					'li',
					{
						class: `vote-chip${vote ? ' has-vote' : ''}${winner ? ' is-winner' : ''}`,
						title: vote ? `${text} (${vote.votedFor}): ${vote.reason}` : text,
					},
					winner ? icon('star-full') : null,
					h('span', { text }),
				);
				item.dataset['agent'] = agentId;
				return item;
			}),
		);
	}
}
