/**
 * A lane's accepted answers, labelled `agentN.k`, each collapsible with its Markdown rendered
 * (sanitised) on first open.
 */
import { t } from '../strings.js';
import type { AnswerView } from '../../src/protocol/runState.js';
import type { ViewStateStore } from '../viewState.js';
import { collapsible } from './collapsible.js';
import { h, setText } from './dom.js';
import { formatDuration, preview } from './format.js';
import { markdownBlock } from './markdown.js';

export class AnswersView {
	readonly element: HTMLElement;
	private readonly _list: HTMLDivElement;
	private readonly _count: HTMLSpanElement;
	private _answers: readonly AnswerView[] = [];
	private _latest: HTMLElement | null = null;

	constructor(
		private readonly _agentId: string,
		private readonly _viewState: ViewStateStore,
	) {
		this._count = h('span', { class: 'count' });
		this._list = h('div', { class: 'answer-list' });
		const parts = collapsible({
			key: `answers:${_agentId}`,
			defaultOpen: true,
			viewState: _viewState,
			class: 'lane-group',
			summary: [h('span', { text: t('answers') }), this._count],
		});
		parts.body.append(this._list);
		this.element = parts.details;
		this.element.hidden = true;
	}

	update(answers: readonly AnswerView[]): void {
		if (answers === this._answers) return;
		const previous = this._answers;
		const appendOnly =
			answers.length >= previous.length && previous.every((answer, i) => answers[i] === answer);
		if (!appendOnly) {
			this._list.replaceChildren();
			this._latest = null;
		}
		for (const answer of answers.slice(appendOnly ? previous.length : 0)) {
			this._list.append(this._item(answer));
		}
		this._answers = answers;
		this.element.hidden = answers.length === 0;
		setText(this._count, String(answers.length));
		this._latest?.classList.remove('is-latest');
		this._latest = this._list.lastElementChild as HTMLElement | null;
		this._latest?.classList.add('is-latest');
	}

	private _item(answer: AnswerView): HTMLElement {
		let rendered = false;
		const parts = collapsible({
			key: `answer:${this._agentId}:${answer.label}`,
			defaultOpen: false,
			viewState: this._viewState,
			class: 'answer',
			summary: [
				h('span', {
					class: 'label-chip',
					// Items are appended in order (the list is cleared first when not): this one's number.
					text: t('answerNumber', this._list.childElementCount + 1),
					title: t('anonymousIdInPrompts', answer.label),
				}),
				h('span', { class: 'answer-meta', text: t('round', answer.round, formatDuration(answer.t)) }),
				h('span', { class: 'answer-preview', text: preview(answer.content) }),
			],
			onToggle: (open) => {
				if (!open || rendered) return;
				rendered = true;
				parts.body.append(markdownBlock(answer.content));
			},
		});
		parts.details.dataset['label'] = answer.label;
		if (parts.details.open) {
			rendered = true;
			parts.body.append(markdownBlock(answer.content));
		}
		return parts.details;
	}
}
