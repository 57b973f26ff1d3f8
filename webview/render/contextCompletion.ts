/**
 * `#` completion in the ask box (docs/context.md): typing `#` and text opens a list of what the host
 * offers for it (`search-context` → `context-results`: the fixed items, then workspace files and
 * folders). ↑/↓ move, Enter or Tab picks, Escape closes; a click picks too. Picking removes the
 * `#text` from the question and adds the item as a chip. Answers to older queries are dropped.
 */
import { t } from '../strings.js';
import type { AttachmentChip } from '../../src/protocol/attachmentChip.js';
import type { WebviewMessage } from '../../src/protocol/messages.js';
import { chipLook } from './chips.js';
import { h, icon, uniqueId } from './dom.js';

/** The `#token` that ends at the caret: where its `#` is, and the text after it. */
export function hashToken(text: string, caret: number): { start: number; query: string } | undefined {
	const match = /(?:^|\s)#([^\s#]*)$/.exec(text.slice(0, caret));
	if (!match) return undefined;
	const query = match[1]!;
	return { start: caret - query.length - 1, query };
}

export interface CompletionHost {
	/** The question's text and where the caret is. */
	readonly text: () => { value: string; caret: number };
	/** Takes `[start, end)` out of the question and puts the caret there. */
	readonly cut: (start: number, end: number) => void;
	readonly post: (message: WebviewMessage) => void;
	readonly pick: (chip: AttachmentChip) => void;
}

export class ContextCompletion {
	readonly element: HTMLDivElement;
	private readonly _list: HTMLUListElement;
	private _token: { start: number; query: string } | undefined;
	/** The `#` position the user closed the list at (Escape): it stays closed until another `#`. */
	private _dismissedAt: number | undefined;
	private _requests = 0;
	private _items: readonly AttachmentChip[] = [];
	private _active = 0;

	constructor(private readonly _host: CompletionHost) {
		this._list = h('ul', {
			class: 'context-list',
			attrs: { role: 'listbox', id: uniqueId('context-list'), 'aria-label': t('contextToAttach') },
		});
		this.element = h('div', { class: 'context-completion' }, this._list);
		this.element.hidden = true;
	}

	get open(): boolean {
		return !this.element.hidden;
	}

	/** After every edit or caret move in the question. */
	refresh(): void {
		const { value, caret } = this._host.text();
		const token = hashToken(value, caret);
		if (!token || token.start === this._dismissedAt) {
			if (!token) this._dismissedAt = undefined;
			this._close();
			return;
		}
		if (this._token && this._token.start === token.start && this._token.query === token.query) return;
		this._token = token;
		this._requests += 1;
		this._host.post({ type: 'search-context', query: token.query, requestId: `q${this._requests}` });
	}

	/** The host's answer; an answer to an earlier query is dropped. */
	results(requestId: string, items: readonly AttachmentChip[]): void {
		if (requestId !== `q${this._requests}` || !this._token) return;
		this._items = items;
		this._active = 0;
		this.element.hidden = false;
		this._render();
	}

	/** Keys while the list is open; returns whether it used the key. */
	keydown(event: KeyboardEvent): boolean {
		if (!this.open || event.ctrlKey || event.metaKey || event.altKey) return false;
		switch (event.key) {
			case 'ArrowDown':
			case 'ArrowUp': {
				if (this._items.length === 0) return false;
				const step = event.key === 'ArrowDown' ? 1 : -1;
				this._active = (this._active + step + this._items.length) % this._items.length;
				this._render();
				return true;
			}
			case 'Enter':
			case 'Tab':
				if (this._items.length === 0 || event.shiftKey) return false;
				this._choose(this._active);
				return true;
			case 'Escape':
				this._dismissedAt = this._token?.start;
				this._close();
				return true;
			default:
				return false;
		}
	}

	private _close(): void {
		this._token = undefined;
		this._items = [];
		if (this.element.hidden) return;
		this.element.hidden = true;
		this._list.replaceChildren();
	}

	private _choose(index: number): void {
		const chip = this._items[index];
		const token = this._token;
		if (!chip || !token) return;
		this._close();
		this._host.cut(token.start, token.start + 1 + token.query.length);
		this._host.pick(chip);
	}

	private _render(): void {
		if (this._items.length === 0) {
			this._list.replaceChildren(h('li', { class: 'context-empty', text: t('noMatchingContext') }));
			this._list.removeAttribute('aria-activedescendant');
			return;
		}
		this._list.replaceChildren(
			...this._items.map((chip, index) => {
				const look = chipLook(chip);
				const option = h(
					'li',
					{
						class: `context-option${index === this._active ? ' active' : ''}`,
						attrs: {
							role: 'option',
							id: `${this._list.id}-${index}`,
							'aria-selected': String(index === this._active),
							'data-kind': look.kind,
						},
					},
					icon(look.icon),
					h('span', { class: 'context-label', text: chip.label }),
					chip.detail ? h('span', { class: 'context-detail', text: chip.detail }) : null,
				);
				// Keep the caret in the question: the click picks, the textarea keeps focus.
				option.addEventListener('mousedown', (event) => event.preventDefault());
				option.addEventListener('click', () => this._choose(index));
				return option;
			}),
		);
		this._list.setAttribute('aria-activedescendant', `${this._list.id}-${this._active}`);
		this._list.children[this._active]?.scrollIntoView({ block: 'nearest' });
	}
}
