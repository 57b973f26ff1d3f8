/**
 * Votes: a voter → answer graph (SVG), the tally with bars, the current votes with their
 * reasons, and the vote history where invalidated votes are struck through.
 */
import { t, tc } from '../strings.js';
import { BY_USER_MESSAGE, type RunState, type VoteHistoryEntry } from '../../src/protocol/runState.js';
import type { ViewStateStore } from '../viewState.js';
import { checklistScores } from './checklistScores.js';
import { collapsible } from './collapsible.js';
import { h, icon } from './dom.js';
import { formatDuration } from './format.js';

const svgNs = 'http://www.w3.org/2000/svg';

interface Target {
	readonly label: string;
	readonly agentId: string;
	readonly votes: number;
}

export class VotesView {
	readonly element: HTMLDivElement;
	private _key: unknown[] = [];
	private _answerLabels: RunState['answerLabels'] = {};

	constructor(private readonly _viewState: ViewStateStore) {
		this.element = h('div', { class: 'votes' });
	}

	/** Returns the number of current votes (for the section heading). */
	update(state: RunState): number {
		const key = [
			state.votes,
			state.voteHistory,
			state.tally,
			state.winner,
			state.answerLabels,
			state.agentOrder,
			state.checklist,
		];
		const count = Object.keys(state.votes).length;
		if (key.every((part, i) => part === this._key[i])) return count;
		this._key = key;
		if (state.voteHistory.length === 0) {
			this.element.replaceChildren(
				h('p', {
					class: 'empty-note',
					text: t('noVotesYetAgents'),
				}),
				...[checklistScores(state)].filter((part) => part !== null),
			);
			return count;
		}
		this._answerLabels = state.answerLabels;
		const targets = voteTargets(state);
		this.element.replaceChildren(
			h('div', { class: 'votes-top' }, voteGraph(state, targets), tallyList(state, targets)),
			currentVotes(state),
			...[checklistScores(state)].filter((part) => part !== null),
			this._history(state.voteHistory),
		);
		return count;
	}

	private _history(history: readonly VoteHistoryEntry[]): HTMLElement {
		const invalidated = history.filter((entry) => entry.invalidatedBy !== null).length;
		const parts = collapsible({
			key: 'section:vote-history',
			defaultOpen: true,
			viewState: this._viewState,
			class: 'vote-history',
			summary: [
				h('h3', { text: t('voteHistory') }),
				h('span', {
					class: 'count',
					text: invalidated > 0 ? t('invalidated', history.length, invalidated) : String(history.length),
				}),
			],
		});
		const list = h('ol', { class: 'history-list' });
		for (const entry of history) {
			const invalid = entry.invalidatedBy !== null;
			const line = h(
				invalid ? 's' : 'span',
				{ class: 'history-vote' },
				h('span', { class: 'voter', text: entry.voter }),
				' → ',
				h('span', {
					class: 'voted-agent',
					text: entry.votedForAgent,
					title: t('anonymousIdInPrompts', entry.votedFor),
				}),
			);
			list.append(
				h(
					'li',
					{ class: invalid ? 'is-invalidated' : '' },
					h('span', { class: 'history-time', text: formatDuration(entry.t) }),
					line,
					entry.invalidatedBy === BY_USER_MESSAGE
						? h('span', { class: 'history-note', text: t('invalidatedByYou') })
						: invalid
							? h('span', {
									class: 'history-note',
									text: t('invalidatedBy', answerAgent(this._answerLabels, entry.invalidatedBy)),
									title: t('anonymousIdInPrompts', entry.invalidatedBy),
								})
							: null,
				),
			);
		}
		parts.body.append(list);
		return parts.details;
	}
}

/** Answers that hold votes, plus every agent's latest answer (so unvoted answers show too). */
function voteTargets(state: RunState): Target[] {
	const counts = new Map<string, number>();
	for (const vote of Object.values(state.votes)) {
		counts.set(vote.votedFor, (counts.get(vote.votedFor) ?? 0) + 1);
	}
	const labels = new Set<string>(counts.keys());
	for (const agentId of state.agentOrder) {
		const lane = Object.hasOwn(state.agents, agentId) ? state.agents[agentId] : undefined;
		const latest = lane?.answers.at(-1);
		if (latest) labels.add(latest.label);
	}
	const order = Object.keys(state.answerLabels);
	return [...labels]
		.map((label) => ({
			label,
			agentId: Object.hasOwn(state.answerLabels, label) ? (state.answerLabels[label] ?? '') : '',
			votes: counts.get(label) ?? 0,
		}))
		.sort((a, b) => b.votes - a.votes || order.indexOf(a.label) - order.indexOf(b.label));
}

/** The agent an answer label belongs to (the label itself when it is not known). */
function answerAgent(labels: RunState['answerLabels'], label: string | null): string {
	if (label === null) return '';
	return (Object.hasOwn(labels, label) ? labels[label] : undefined) ?? label;
}

function voteGraph(state: RunState, targets: readonly Target[]): Element {
	const voters = state.agentOrder.filter((id) => Object.hasOwn(state.agents, id));
	const rowHeight = 30;
	const width = 480;
	const voterWidth = 150;
	const targetWidth = 200;
	const height = Math.max(voters.length, targets.length, 1) * rowHeight + 10;
	const svg = document.createElementNS(svgNs, 'svg');
	svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
	svg.setAttribute('width', String(width));
	svg.setAttribute('height', String(height));
	svg.setAttribute('class', 'vote-graph');
	svg.setAttribute('role', 'img');
	const described = Object.values(state.votes).map((v) => t('votedFor', v.voter, v.votedForAgent));
	svg.setAttribute(
		'aria-label',
		t('voteGraph', described.length > 0 ? described.join('; ') : 'no current votes'),
	);
	const markerId = `arrow-${Math.random().toString(36).slice(2, 8)}`;
	const defs = svgElement('defs', {});
	const marker = svgElement('marker', {
		id: markerId,
		viewBox: '0 0 10 10',
		refX: '9',
		refY: '5',
		markerWidth: '7',
		markerHeight: '7',
		orient: 'auto-start-reverse',
	});
	marker.append(svgElement('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'vote-arrow' }));
	defs.append(marker);
	svg.append(defs);

	const yOf = (index: number, count: number) => {
		const offset = (height - count * rowHeight) / 2;
		return offset + index * rowHeight + rowHeight / 2;
	};
	const targetIndex = new Map(targets.map((target, i) => [target.label, i]));
	for (const vote of Object.values(state.votes)) {
		const from = voters.indexOf(vote.voter);
		const to = targetIndex.get(vote.votedFor);
		if (from < 0 || to === undefined) continue;
		const y1 = yOf(from, voters.length);
		const y2 = yOf(to, targets.length);
		const x1 = voterWidth + 4;
		const x2 = width - targetWidth - 6;
		const path = svgElement('path', {
			d: `M ${x1} ${y1} C ${(x1 + x2) / 2} ${y1}, ${(x1 + x2) / 2} ${y2}, ${x2} ${y2}`,
			class: `vote-edge${state.winner?.label === vote.votedFor ? ' is-winning' : ''}`,
			'marker-end': `url(#${markerId})`,
		});
		const title = svgElement('title', {});
		title.textContent = `${vote.voter} → ${vote.votedForAgent} (${vote.votedFor}): ${vote.reason}`;
		path.append(title);
		svg.append(path);
	}
	voters.forEach((voter, i) => {
		const lane = state.agents[voter];
		const status =
			lane?.state === 'killed' ? 'killed' : Object.hasOwn(state.votes, voter) ? 'voted' : t('noVote');
		svg.append(
			node(
				voter,
				status,
				2,
				yOf(i, voters.length),
				voterWidth,
				`vote-node voter${status === 'killed' ? ' is-killed' : ''}`,
			),
		);
	});
	targets.forEach((target, i) => {
		const winning = state.winner?.label === target.label;
		// The answer by its agent's name; an answer that is not the agent's latest says so.
		const latest = state.agents[target.agentId]?.answers.at(-1)?.label;
		const name = latest === target.label || !latest ? target.agentId : t('earlierAnswerOf', target.agentId);
		svg.append(
			node(
				name,
				tc('vote', target.votes, target.votes),
				width - targetWidth - 2,
				yOf(i, targets.length),
				targetWidth,
				`vote-node target${winning ? ' is-winner' : ''}`,
			),
		);
	});
	return h('div', { class: 'vote-graph-wrap' }, svg);
}

function clip(text: string, max: number): string {
	return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function node(
	title: string,
	subtitle: string,
	x: number,
	y: number,
	width: number,
	className: string,
): SVGGElement {
	const group = svgElement('g', { class: className }) as SVGGElement;
	const tooltip = svgElement('title', {});
	tooltip.textContent = `${title} (${subtitle})`;
	group.append(tooltip);
	group.append(
		svgElement('rect', { x: String(x), y: String(y - 12), width: String(width), height: '24', rx: '3' }),
	);
	const text = svgElement('text', { x: String(x + 8), y: String(y + 4), class: 'vote-node-title' });
	text.textContent = clip(title, Math.max(6, Math.floor((width - 64) / 7.5)));
	const sub = svgElement('text', {
		x: String(x + width - 8),
		y: String(y + 4),
		class: 'vote-node-sub',
		'text-anchor': 'end',
	});
	sub.textContent = subtitle;
	group.append(text, sub);
	return group;
}

function svgElement(tag: string, attrs: Record<string, string>): SVGElement {
	const element = document.createElementNS(svgNs, tag);
	for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, value);
	return element;
}

function tallyList(state: RunState, targets: readonly Target[]): HTMLElement {
	const total = Math.max(1, Object.keys(state.votes).length);
	const byAgent = new Map<string, number>();
	for (const [agentId, votes] of Object.entries(state.tally)) byAgent.set(agentId, votes);
	const agents = state.agentOrder.filter((id) => byAgent.has(id) || targets.some((t) => t.agentId === id));
	const max = Math.max(total, ...byAgent.values());
	const list = h('ul', { class: 'tally', attrs: { 'aria-label': t('tally') } });
	for (const agentId of agents) {
		const votes = byAgent.get(agentId) ?? 0;
		const winner = state.winner?.agentId === agentId;
		const bar = h('span', { class: 'tally-bar' }, h('span', { class: 'tally-fill' }));
		(bar.firstElementChild as HTMLElement).style.setProperty('--share', String(votes / max));
		list.append(
			h(
				'li',
				{ class: winner ? 'is-winner' : '' },
				h('span', { class: 'tally-agent' }, winner ? icon('star-full') : null, agentId),
				bar,
				h('span', { class: 'tally-count', text: tc('vote', votes, votes) }),
			),
		);
	}
	return list;
}

function currentVotes(state: RunState): HTMLElement {
	const votes = Object.values(state.votes).sort((a, b) => a.t - b.t);
	const list = h('ul', { class: 'reasons', attrs: { 'aria-label': t('currentVotesAndReasons') } });
	for (const vote of votes) {
		list.append(
			h(
				'li',
				{},
				h('span', { class: 'voter', text: vote.voter }),
				icon('arrow-right'),
				h('span', {
					class: 'voted-agent',
					text: vote.votedForAgent,
					title: t('anonymousIdInPrompts', vote.votedFor),
				}),
				h('q', { class: 'reason', text: vote.reason }),
			),
		);
	}
	if (votes.length === 0) {
		list.append(
			h('li', {
				class: 'empty-note',
				text: t('noVoteCurrentlyCounts'),
			}),
		);
	}
	return list;
}
