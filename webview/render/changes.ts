/**
 * The run's change set (the winner's presentation edits): one row per file with its kind and an
 * "Open diff" button, plus Accept all / Reject. Kept separate so per-hunk review (issue 5) can
 * grow each row without touching the rest of the panel.
 */
import type { WebviewMessage } from '../../src/protocol/messages.js';
import { presentationChanges, type FileEditView, type RunState } from '../../src/protocol/runState.js';
import { button, h, icon, setDisabled, setHidden, setText } from './dom.js';

const kindLook: Record<FileEditView['kind'], { icon: string; label: string }> = {
	add: { icon: 'diff-added', label: 'added' },
	modify: { icon: 'diff-modified', label: 'modified' },
	delete: { icon: 'diff-removed', label: 'deleted' },
};

export class ChangesView {
	readonly element: HTMLElement;
	private readonly _list: HTMLUListElement;
	private readonly _note: HTMLParagraphElement;
	private readonly _accept: HTMLElement;
	private readonly _reject: HTMLElement;
	private readonly _title: HTMLHeadingElement;
	private _edits: RunState['fileEdits'] | null = null;
	private _status = '';

	constructor(private readonly _post: (message: WebviewMessage) => void) {
		this._title = h('h3', { class: 'changes-title', attrs: { id: 'changes-heading' } });
		this._list = h('ul', { class: 'change-list' });
		this._note = h('p', { class: 'changes-note' });
		this._accept = button('Accept all', () => this._post({ type: 'accept' }), { icon: 'check-all', class: 'accept-all' });
		this._reject = button('Reject', () => this._post({ type: 'reject' }), { icon: 'close', secondary: true, class: 'reject-all' });
		this.element = h(
			'section',
			{ class: 'changes', attrs: { 'aria-labelledby': 'changes-heading' } },
			h('div', { class: 'changes-head' }, this._title, h('div', { class: 'changes-actions' }, this._accept, this._reject)),
			this._list,
			this._note,
		);
		this.element.hidden = true;
	}

	update(state: RunState): void {
		if (state.fileEdits === this._edits && state.status === this._status) return;
		const editsChanged = state.fileEdits !== this._edits;
		this._edits = state.fileEdits;
		this._status = state.status;
		const changes = presentationChanges(state);
		setHidden(this.element, changes.length === 0);
		if (changes.length === 0) return;
		setText(this._title, `Changed files (${changes.length})`);
		if (editsChanged) this._list.replaceChildren(...changes.map((change) => this._row(change)));
		const reviewable = state.status === 'completed' || state.status === 'timeout';
		setDisabled(this._accept, !reviewable);
		setDisabled(this._reject, !reviewable);
		setText(
			this._note,
			state.status === 'running'
				? 'The winner is still writing. Nothing is written to your workspace until you accept.'
				: reviewable
					? 'Nothing has been written yet. Open a diff to review, then accept or reject.'
					: 'The run did not complete; these changes cannot be applied.',
		);
	}

	private _row(change: FileEditView): HTMLLIElement {
		const look = kindLook[change.kind] ?? { icon: 'file', label: change.kind };
		const slash = change.path.lastIndexOf('/');
		const name = change.path.slice(slash + 1);
		const dir = slash > 0 ? change.path.slice(0, slash) : '';
		const open = button('Open diff', () => this._post({ type: 'open-diff', path: change.path }), {
			icon: 'diff',
			secondary: true,
			ariaLabel: `Open diff of ${change.path}`,
			class: 'open-diff',
		});
		const row = h(
			'li',
			{ class: `change change-${change.kind}` },
			h('span', { class: 'change-icon', title: look.label }, icon(look.icon)),
			h('span', { class: 'change-name', text: name, title: change.path }),
			dir ? h('span', { class: 'change-dir', text: dir }) : null,
			h('span', { class: 'change-kind', text: look.label }),
			open,
		);
		row.dataset['path'] = change.path;
		return row;
	}
}
