/**
 * The ask box's attachment chips (docs/context.md): one removable chip per attachment, with its kind's
 * icon, its label (and a thumbnail for images), and a × button. A focused chip is removed with
 * Backspace or Delete; focus then moves to its neighbour, or back to the question.
 */
import { t } from '../strings.js';
import type { AttachmentChip, ChipRequest } from '../../src/protocol/attachmentChip.js';
import { h, icon } from './dom.js';

/**
 * The codicon and the spoken kind of a chip. A `path` chip may be a folder: the `#` list labels
 * one `name/`, the context picker says `folder` in its detail.
 */
export function chipLook(chip: AttachmentChip): { icon: string; kind: string } {
	return requestLook(chip.request, chip.label.endsWith('/') || /^folder\b/.test(chip.detail ?? ''));
}

function requestLook(request: ChipRequest, folder: boolean): { icon: string; kind: string } {
	switch (request.kind) {
		case 'path':
			return folder ? { icon: 'folder', kind: 'folder' } : { icon: 'file', kind: 'file' };
		case 'file':
			return request.range ? { icon: 'selection', kind: 'selection' } : { icon: 'file', kind: 'file' };
		case 'diff':
			return { icon: 'git-compare', kind: 'changes' };
		case 'diagnostics':
			return { icon: 'warning', kind: 'problems' };
		case 'terminal':
			return { icon: 'terminal', kind: t('terminalOutput') };
		case 'text':
			return { icon: 'note', kind: 'text' };
		case 'image':
			return { icon: 'file-media', kind: 'image' };
	}
}

export class ChipList {
	readonly element: HTMLUListElement;
	private _chips: readonly AttachmentChip[] = [];

	constructor(
		private readonly _onRemove: (id: string) => void,
		/** Where focus goes when the last chip is removed from the keyboard. */
		private readonly _focusQuestion: () => void,
	) {
		this.element = h('ul', { class: 'ask-chips', attrs: { 'aria-label': t('attachedContext') } });
		this.element.hidden = true;
	}

	update(chips: readonly AttachmentChip[]): void {
		if (chips === this._chips) return;
		this._chips = chips;
		this.element.hidden = chips.length === 0;
		this.element.replaceChildren(...chips.map((chip) => this._chip(chip)));
	}

	private _chip(chip: AttachmentChip): HTMLLIElement {
		const look = chipLook(chip);
		const name = `${look.kind} ${chip.label}${chip.detail ? `, ${chip.detail}` : ''}`;
		const remove = h('button', {
			class: 'chip-remove',
			attrs: { type: 'button', 'aria-label': t('remove', chip.label), title: t('remove2') },
		});
		remove.append(icon('close'));
		remove.addEventListener('click', (event) => {
			event.stopPropagation();
			this._remove(chip.id, false);
		});
		const item = h(
			'li',
			{
				class: 'ask-chip',
				title: chip.detail ?? chip.label,
				attrs: { tabindex: '0', 'aria-label': name, 'data-kind': look.kind, 'data-chip-id': chip.id },
			},
			chip.thumbnail
				? h('img', { class: 'chip-thumbnail', attrs: { src: chip.thumbnail, alt: '' } })
				: icon(look.icon, 'chip-icon'),
			h('span', { class: 'chip-label', text: chip.label }),
			remove,
		);
		item.addEventListener('keydown', (event) => {
			if (event.target !== item) return;
			if (event.key === 'Backspace' || event.key === 'Delete') {
				event.preventDefault();
				this._remove(chip.id, true);
			}
		});
		return item;
	}

	/** From the keyboard, focus stays in the list: the next chip, else the previous, else the question. */
	private _remove(id: string, fromKeyboard: boolean): void {
		const index = this._chips.findIndex((chip) => chip.id === id);
		this._onRemove(id);
		if (!fromKeyboard) return;
		const items = [...this.element.querySelectorAll<HTMLElement>('.ask-chip')];
		const next = items[Math.min(index, items.length - 1)];
		if (next) next.focus();
		else this._focusQuestion();
	}
}
