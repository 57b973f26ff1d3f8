/**
 * The review loop's part of a winner hunk, apart from the diff it sits in: the "Comment on change
 * N" button and the reviewer's comments on the hunk. `WinnerHunk` (hunkView.ts) places them.
 */
import { t } from '../strings.js';
import type { HunkCommentView } from '../../src/protocol/changeSetView.js';
import { h, icon, setHidden, setTitle } from './dom.js';

/** "Comment on change N": posts `comment-hunk` for the hunk (the host asks the words). */
export class CommentButton {
	readonly element: HTMLButtonElement;

	constructor(path: string, id: string, comment: () => void) {
		this.element = h(
			'button',
			{ class: 'icon-action hunk-comment-add', attrs: { type: 'button' } },
			icon('comment'),
		);
		this.element.dataset['focusKey'] = `comment:${path}#${id}`;
		this.element.addEventListener('click', comment);
	}

	update(index: number): void {
		const label = t('commentOnChange', index);
		if (this.element.getAttribute('aria-label') === label) return;
		this.element.setAttribute('aria-label', label);
		setTitle(this.element, label);
	}
}

/**
 * The reviewer's comments on a hunk (the review loop): each with what a revision made of it,
 * "Addressed (c1)" or "Not addressed (c2)". Plain text: the words are the reviewer's.
 */
export class HunkComments {
	readonly element: HTMLUListElement;
	private _key = '';

	constructor() {
		this.element = h('ul', { class: 'hunk-comments' });
		this.element.hidden = true;
	}

	update(comments: readonly HunkCommentView[]): void {
		const key = JSON.stringify(comments);
		if (key === this._key) return;
		this._key = key;
		setHidden(this.element, comments.length === 0);
		this.element.replaceChildren(
			...comments.map((comment) => {
				const verdict =
					comment.commentId === undefined
						? null
						: h('span', {
								class: 'hunk-comment-verdict',
								text: comment.addressed
									? t('commentAddressed', comment.commentId)
									: t('commentNotAddressed', comment.commentId),
							});
				const item = h(
					'li',
					{ class: 'hunk-comment' },
					icon(comment.addressed ? 'pass' : 'comment'),
					h('span', {
						class: 'sr-only',
						text: comment.state === 'resolved' ? t('commentResolved') : t('commentOpen'),
					}),
					h('span', { class: 'hunk-comment-text', text: comment.text }),
					...(verdict ? [verdict] : []),
				);
				item.dataset['thread'] = comment.id;
				item.dataset['state'] = comment.state;
				if (comment.addressed !== undefined) item.dataset['addressed'] = String(comment.addressed);
				return item;
			}),
		);
	}
}
