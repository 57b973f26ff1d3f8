/**
 * "edited by you" on a winner hunk: the user wrote this change in the diff's proposed side
 * (`HunkView.byUser`, from the host's proposal edits). Its own file so the hunk view does not
 * carry the proposal-edit state; `WinnerHunk` (hunkView.ts) places it in the hunk's head.
 */
import { t } from '../strings.js';
import type { HunkView } from '../../src/protocol/changeSetView.js';
import { h, icon, setData, setHidden, uniqueId } from './dom.js';

export class ByUserMark {
	readonly element: HTMLSpanElement;
	/** For the checkbox's `aria-describedby`. */
	readonly id = uniqueId('by-user');

	constructor() {
		this.element = h(
			'span',
			{ class: 'hunk-by-user', title: t('editedByYouHunk'), attrs: { id: this.id } },
			icon('edit'),
			h('span', { text: t('editedByYou') }),
		);
	}

	/** Shows or hides the mark; `hunkElement` gets `data-by-user` (the stylesheet and tests read it). */
	update(hunk: HunkView, hunkElement: HTMLElement): void {
		setHidden(this.element, hunk.byUser !== true);
		setData(hunkElement, 'byUser', String(hunk.byUser === true));
	}
}
