/**
 * The run's change set: one row per file (kind, +/- lines when the host sent the change set,
 * "Open diff"), plus Accept all / Reject. Rows come from the host's `change-set` message when
 * there is one, else from the winner's presentation edits in the run state. Kept apart from the
 * rest of the panel so per-hunk review (issue 5) can grow each row on its own.
 */
import type { ChangeSetView } from '../../src/protocol/changeSetView.js';
import type { WebviewMessage } from '../../src/protocol/messages.js';
import { presentationChanges, type RunState } from '../../src/protocol/runState.js';
import type { ChangeKind } from '../../src/core/orchestrator/events.js';
import { button, h, icon, setDisabled, setHidden, setText } from './dom.js';

/** `undefined`: the host never sent a change set; `null`: nothing is pending any more. */
export type ChangeSetInput = ChangeSetView | null | undefined;

interface ChangeRow {
	readonly path: string;
	readonly kind: ChangeKind;
	readonly renamedFrom: string | null;
	readonly added: number | null;
	readonly removed: number | null;
	readonly stale: boolean;
}

const kindLook: Record<ChangeKind, { icon: string; label: string }> = {
	add: { icon: 'diff-added', label: 'added' },
	modify: { icon: 'diff-modified', label: 'modified' },
	delete: { icon: 'diff-removed', label: 'deleted' },
};

export class ChangesView {
	readonly element: HTMLElement;
	private readonly _list: HTMLUListElement;
	private readonly _note: HTMLParagraphElement;
	private readonly _actions: HTMLDivElement;
	private readonly _accept: HTMLElement;
	private readonly _reject: HTMLElement;
	private readonly _title: HTMLHeadingElement;
	private _key: unknown[] = [];
	private _changeSetRunId: string | null = null;

	constructor(private readonly _post: (message: WebviewMessage) => void) {
		this._title = h('h3', { class: 'changes-title', attrs: { id: 'changes-heading' } });
		this._list = h('ul', { class: 'change-list' });
		this._note = h('p', { class: 'changes-note' });
		this._accept = button('Accept all', () => this._acceptAll(), { icon: 'check-all', class: 'accept-all' });
		this._reject = button('Reject', () => this._post({ type: 'reject' }), { icon: 'close', secondary: true, class: 'reject-all' });
		this._actions = h('div', { class: 'changes-actions' }, this._accept, this._reject);
		this.element = h(
			'section',
			{ class: 'changes', attrs: { 'aria-labelledby': 'changes-heading' } },
			h('div', { class: 'changes-head' }, this._title, this._actions),
			this._list,
			this._note,
		);
		this.element.hidden = true;
	}

	update(state: RunState, changeSet: ChangeSetInput): void {
		const key = [state.fileEdits, state.status, changeSet];
		if (key.every((part, i) => part === this._key[i])) return;
		this._key = key;
		const pending = changeSet && changeSet.runId === state.runId ? changeSet : null;
		this._changeSetRunId = pending?.runId ?? null;
		const rows = pending ? pending.files.map(fromChangeSet) : presentationChanges(state).map(fromEdit);
		setHidden(this.element, rows.length === 0);
		if (rows.length === 0) return;
		setText(this._title, `Changed files (${rows.length})`);
		this._list.replaceChildren(...rows.map((row) => this._row(row)));

		const settled = changeSet === null && state.status !== 'running';
		const reviewable = !settled && (state.status === 'completed' || state.status === 'timeout');
		setHidden(this._actions, settled);
		setDisabled(this._accept, !reviewable);
		setDisabled(this._reject, !reviewable);
		const stale = rows.filter((row) => row.stale).length;
		setText(
			this._note,
			state.status === 'running'
				? 'The winner is still writing. Nothing is written to your workspace until you accept.'
				: settled
					? 'No changes are pending any more (accepted or rejected).'
					: reviewable
						? `Nothing has been written yet. Open a diff to review, then accept or reject.${stale > 0 ? ` ${stale} file${stale === 1 ? ' was' : 's were'} edited since the agents read ${stale === 1 ? 'it' : 'them'}: accepting merges your edits.` : ''}`
						: 'The run did not complete; these changes cannot be applied.',
		);
	}

	private _acceptAll(): void {
		this._post(this._changeSetRunId ? { type: 'accept', runId: this._changeSetRunId } : { type: 'accept' });
	}

	private _row(change: ChangeRow): HTMLLIElement {
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
		const kind = change.renamedFrom ? `renamed from ${change.renamedFrom}` : look.label;
		const row = h(
			'li',
			{ class: `change change-${change.kind}` },
			h('span', { class: 'change-icon', title: look.label }, icon(look.icon)),
			h('span', { class: 'change-name', text: name, title: change.path }),
			dir ? h('span', { class: 'change-dir', text: dir }) : null,
			change.stale ? h('span', { class: 'change-stale', title: 'You edited this file since the agents read it' }, icon('warning'), 'edited since') : null,
			change.added !== null ? h('span', { class: 'change-lines' }, h('span', { class: 'lines-added', text: `+${change.added}` }), h('span', { class: 'lines-removed', text: `−${change.removed ?? 0}` })) : null,
			h('span', { class: 'change-kind', text: kind }),
			open,
		);
		row.dataset['path'] = change.path;
		return row;
	}
}

function fromEdit(edit: { path: string; kind: ChangeKind }): ChangeRow {
	return { path: edit.path, kind: edit.kind, renamedFrom: null, added: null, removed: null, stale: false };
}

function fromChangeSet(file: ChangeSetView['files'][number]): ChangeRow {
	return { path: file.path, kind: file.kind, renamedFrom: file.renamedFrom, added: file.added, removed: file.removed, stale: file.stale };
}
