/**
 * The consensus mark of a hunk ("2 of 3 agents" with a dot meter), shared by the winner's hunks and
 * the runner-ups' alternatives (hunkView.ts); it keeps only its own last-rendered key.
 */
import { t } from '../strings.js';
import type { HunkView } from '../../src/protocol/changeSetView.js';
import { h, icon, setData, setHidden, setTitle, uniqueId } from './dom.js';

/** Dots of the consensus meter (more agents: text only). */
const MAX_DOTS = 8;

/** "a, b and c" (the strings table's `and`). */
export function joinWords(items: readonly string[]): string {
	if (items.length <= 1) return items.join('');
	return t('and', items.slice(0, -1).join(', '), items.at(-1) ?? '');
}

/**
 * "K of N agents" with a dot meter, "(similar)" when agents whose change differs only in a few
 * names are counted (`core/changes/hunkAgreement.ts`); every agent agreeing is highlighted, "only
 * the winner" is neutral. The agents, with their answer labels, are in the tooltip and for screen
 * readers.
 */
export class ConsensusMark {
	readonly element: HTMLSpanElement;
	readonly id = uniqueId('consensus');
	private _key = '';

	constructor() {
		this.element = h('span', { class: 'consensus', attrs: { id: this.id } });
	}

	update(hunk: HunkView, agentCount: number, winnerHunk: boolean): void {
		const similar = hunk.similar ?? [];
		const k = hunk.agents.length + similar.length;
		const key = `${k}/${agentCount}/${winnerHunk}/${hunk.agents.join(',')}/${similar.join(',')}/${hunk.sources.join(',')}`;
		if (key === this._key) return;
		this._key = key;
		const hidden = agentCount <= 1 || k === 0;
		setHidden(this.element, hidden);
		if (hidden) return;
		const solo = winnerHunk && k === 1;
		const level = solo ? 'solo' : k >= agentCount && similar.length === 0 ? 'all' : 'some';
		setData(this.element, 'level', level);
		setData(this.element, 'agents', String(k));
		setData(this.element, 'of', String(agentCount));
		const who = hunk.agents.map((agent, i) => {
			const label = hunk.sources[i];
			const role = winnerHunk && i === 0 ? t('winnerSr') : label;
			return role ? `${agent} (${role})` : agent;
		});
		const counted = t('ofAgents', k, agentCount) + (similar.length > 0 ? t('similarMark') : '');
		const title =
			t('madeThisChange', counted, joinWords(who)) +
			(similar.length > 0 ? t('similarChangeBy', joinWords(similar)) : '');
		setTitle(this.element, title);
		const dots =
			agentCount <= MAX_DOTS
				? h(
						'span',
						{ class: 'consensus-dots', attrs: { 'aria-hidden': 'true' } },
						...Array.from({ length: agentCount }, (_, i) =>
							h('span', { class: i < k ? 'dot is-on' : 'dot' }),
						),
					)
				: null;
		this.element.replaceChildren(
			dots ?? icon(solo ? 'person' : 'organization'),
			h('span', { class: 'consensus-text', text: solo ? t('onlyTheWinner') : counted }),
			h('span', {
				class: 'sr-only',
				text:
					(solo ? ` (${counted}): ${joinWords(who)}` : `: ${joinWords(who)}`) +
					(similar.length > 0 ? t('similarChangeBy', joinWords(similar)) : ''),
			}),
		);
	}
}
