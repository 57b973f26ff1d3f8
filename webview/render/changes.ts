/**
 * The run's change set for review: one row per file (changeFiles.ts) with its hunks and the
 * runner-ups' alternatives (hunkList.ts, hunkView.ts), a summary, and Accept selected / Reject
 * all; once nothing is pending, Revert Run (the host says when there was nothing accepted). Rows come from the host's `change-set` message when there is one, else from the winner's
 * presentation edits in the run state (no hunks then). Rows and hunks are keyed and updated in
 * place: a new change set after a toggle keeps focus and scroll where they were.
 */
import { t, tc } from '../strings.js';
import type { ChangeOutcomesView, ChangeSetView, FileOutcome } from '../../src/protocol/changeSetView.js';
import type { WebviewMessage } from '../../src/protocol/messages.js';
import { presentationChanges, type RunState } from '../../src/protocol/runState.js';
import type { ViewStateStore } from '../viewState.js';
import { ChangeSelection } from './changeSelection.js';
import { FileRow, type FileRowData } from './changeFiles.js';
import { button, h, icon, setDisabled, setHidden, setText, setTitle } from './dom.js';
import { placeChildren } from './hunkList.js';

/** `undefined`: the host never sent a change set; `null`: nothing is pending any more. */
export type ChangeSetInput = ChangeSetView | null | undefined;

export class ChangesView {
	readonly element: HTMLElement;
	private readonly _list: HTMLUListElement;
	private readonly _note: HTMLParagraphElement;
	private readonly _summary: HTMLSpanElement;
	private readonly _solo: HTMLButtonElement;
	private readonly _footer: HTMLDivElement;
	private readonly _actions: HTMLDivElement;
	private readonly _accept: HTMLElement;
	private readonly _reject: HTMLElement;
	private readonly _revert: HTMLElement;
	private readonly _send: HTMLElement;
	private readonly _title: HTMLHeadingElement;
	private readonly _selection = new ChangeSelection();
	private readonly _rows = new Map<string, FileRow>();
	private _key: unknown[] = [];
	private _state: RunState | null = null;
	private _changeSet: ChangeSetInput;
	/** The shown run's resolved files and what became of them. */
	private _outcomes = new Map<string, FileOutcome>();
	private _soloCursor = -1;

	constructor(
		private readonly _post: (message: WebviewMessage) => void,
		private readonly _viewState: ViewStateStore,
	) {
		this._title = h('h3', { class: 'changes-title', attrs: { id: 'changes-heading' } });
		this._summary = h('span', { class: 'changes-summary' });
		this._solo = h('button', { class: 'link-action solo-jump', attrs: { type: 'button' } });
		this._solo.addEventListener('click', () => this._nextSolo());
		this._list = h('ul', { class: 'change-list' });
		this._note = h('p', { class: 'changes-note' });
		this._accept = button(t('acceptSelected'), () => this._postIf(this._selection.acceptMessage()), {
			icon: 'check',
			class: 'accept-all',
		});
		this._reject = button(t('rejectAll'), () => this._postIf(this._rejectMessage()), {
			icon: 'close',
			secondary: true,
			class: 'reject-all',
		});
		this._send = button(t('sendToTeam'), () => this._sendToTeam(), {
			icon: 'send',
			secondary: true,
			class: 'send-to-team',
		});
		setTitle(this._send, t('sendToTeamTitle'));
		this._actions = h('div', { class: 'changes-actions' }, this._accept, this._reject, this._send);
		this._revert = button(t('revertRun'), () => this._postRevert(), {
			icon: 'discard',
			secondary: true,
			class: 'revert-run',
		});
		setTitle(this._revert, t('undoWhatAcceptWrote'));
		this._footer = h('div', { class: 'changes-footer' }, this._note, this._actions, this._revert);
		this.element = h(
			'section',
			{ class: 'changes', attrs: { 'aria-labelledby': 'changes-heading' } },
			h('div', { class: 'changes-head' }, this._title, this._summary, this._solo),
			this._list,
			this._footer,
		);
		this.element.hidden = true;
	}

	update(state: RunState, changeSet: ChangeSetInput, outcomes?: ChangeOutcomesView): void {
		const key = [state.fileEdits, state.status, changeSet, outcomes];
		if (key.every((part, i) => part === this._key[i])) return;
		this._key = key;
		this._state = state;
		this._changeSet = changeSet;
		this._outcomes = new Map(
			outcomes && outcomes.runId === state.runId
				? outcomes.files.map((file) => [file.path, file.outcome])
				: [],
		);
		// Only the shown run's change set (a new run may start while the old one is pending).
		const pending = changeSet && changeSet.runId === state.runId ? changeSet : null;
		if (pending !== this._selection.changeSet) this._selection.setChangeSet(pending);
		this._render();
	}

	/** Change messages name the run they were rendered for; none without one. */
	private _postIf(message: WebviewMessage | undefined): void {
		if (message) this._post(message);
	}

	private _rejectMessage(): WebviewMessage | undefined {
		const runId = this._selection.changeSet?.runId;
		return runId === undefined ? undefined : { type: 'reject', runId };
	}

	/** A file's diff in the shown run (pending, or decided: its record's outcome row). */
	private _openDiff(path: string, version: string | undefined): void {
		const runId = this._state?.runId;
		if (!runId) return;
		this._post(version ? { type: 'open-diff', runId, path, version } : { type: 'open-diff', runId, path });
	}

	/** Comment for the Team on a winner hunk of the shown run's pending set. */
	private _comment(path: string, hunkId: string): void {
		const runId = this._selection.changeSet?.runId;
		if (runId !== undefined) this._post({ type: 'comment-hunk', runId, path, hunkId });
	}

	private _sendToTeam(): void {
		const runId = this._selection.changeSet?.runId;
		if (runId !== undefined) this._post({ type: 'send-to-team', runId });
	}

	/** A checkbox or button of a file: updates the panel at once, then tells the host. */
	private _select(path: string, ids: readonly string[], on: boolean): void {
		if (ids.length === 0) return;
		const runId = this._selection.changeSet?.runId;
		if (runId === undefined) return;
		this._selection.intend(path, ids, on);
		this._post({ type: 'select-hunks', runId, path, ids: [...ids], selected: on });
		this._render();
	}

	private _render(): void {
		const state = this._state;
		if (!state) return;
		const focus = this._focusAnchor();
		const footerTop = this._visibleTop(this._footer);
		const pending = this._selection.changeSet;
		const pendingRows: FileRowData[] = (pending?.files ?? []).map((file) => ({
			path: file.path,
			kind: file.kind,
			renamedFrom: file.renamedFrom,
			userEdit: file.userEdit,
			review: {
				file,
				selection: this._selection.file(file),
				agentCount: pending!.agentCount,
				fileCount: pending!.files.length,
			},
			outcome: null,
		}));
		// Files no longer pending stay listed with what became of them (accepted, rejected…).
		const doneRows: FileRowData[] = presentationChanges(state)
			.filter((edit) => !pending?.files.some((file) => file.path === edit.path))
			.filter((edit) => !pending || this._outcomes.has(edit.path))
			.map((edit) => ({
				path: edit.path,
				kind: edit.kind,
				renamedFrom: null,
				userEdit: 'none' as const,
				review: null,
				outcome: this._outcomes.get(edit.path) ?? null,
			}));
		const rows = [...pendingRows, ...doneRows];
		setHidden(this.element, rows.length === 0);
		if (rows.length === 0) return;
		setText(this._title, t('changedFiles', rows.length));
		this._renderRows(rows);

		const settled = this._changeSet === null && state.status !== 'running';
		const reviewable = !settled && (state.status === 'completed' || state.status === 'timeout');
		const totals = this._selection.totals();
		setHidden(this._actions, settled);
		// Revert only when something this run wrote is still in (not after Reject All).
		const written = [...this._outcomes.values()].some(
			(outcome) => outcome === 'accepted' || outcome === 'partly-accepted',
		);
		setHidden(this._revert, !settled || state.runId === null || !written);
		setDisabled(this._accept, !reviewable || (pending !== null && totals.selected === 0));
		setDisabled(this._reject, !reviewable);
		const comments = pending?.openComments ?? 0;
		setHidden(this._send, !reviewable || comments === 0);
		setText(this._send, tc('sendToTeam', comments, comments));
		setText(
			this._accept,
			pending
				? totals.selected === totals.hunks && totals.selected === totals.winnerSelected
					? t('acceptAll')
					: t('acceptSelected')
				: t('acceptAll'),
		);
		setTitle(
			this._accept,
			pending ? tc('applyTheSelectedChange', totals.selected, totals.selected) : t('applyEveryChangeAs'),
		);
		this._renderSummary(pending, totals);

		const edited = rows.filter((row) => row.userEdit !== 'none').length;
		const conflicts = rows.filter((row) => row.userEdit === 'conflict' || row.userEdit === 'unseen').length;
		setText(
			this._note,
			state.status === 'running'
				? t('theWinnerIsStill')
				: settled
					? t('noChangesArePending')
					: reviewable
						? t(
								'nothingHasBeenWritten',
								pending ? t('untickTheChanges') : t('openADiffToReview'),
								edited > 0
									? tc(
											'filesEditedSince',
											edited,
											edited,
											conflicts > 0 ? tc('andAsksAboutConflicts', conflicts, conflicts) : t('merged'),
										)
									: '',
							)
						: t('theRunDidNot'),
		);
		if (focus) this._restoreFocus(focus);
		else this._keepInPlace(this._footer, footerTop);
	}

	/** An element's top in the viewport, when it is on screen (null otherwise). */
	private _visibleTop(element: HTMLElement): number | null {
		if (element.offsetParent === null) return null;
		const { top, bottom } = element.getBoundingClientRect();
		return bottom > 0 && top < window.innerHeight ? top : null;
	}

	/**
	 * Scrolls so `element` stays where it was on screen: files losing their hunks (Reject All,
	 * Accept) shrink the list above the footer, which would otherwise pull the page up under the user.
	 */
	private _keepInPlace(element: HTMLElement, top: number | null): void {
		if (top === null || element.offsetParent === null) return;
		const shift = element.getBoundingClientRect().top - top;
		if (Math.abs(shift) >= 1) window.scrollBy(0, shift);
	}

	private _postRevert(): void {
		const runId = this._state?.runId;
		if (runId) this._post({ type: 'revert-run', runId });
	}

	private _renderRows(rows: readonly FileRowData[]): void {
		const seen = new Set<string>();
		const order: HTMLLIElement[] = [];
		for (const data of rows) {
			const key = `${data.kind}:${data.path}`;
			let row = this._rows.get(key);
			if (!row) {
				row = new FileRow(
					{
						viewState: this._viewState,
						openDiff: (path, version) => this._openDiff(path, version),
						select: (path, ids, on) => this._select(path, ids, on),
						comment: (path, id) => this._comment(path, id),
					},
					data.path,
					data.kind,
				);
				this._rows.set(key, row);
			}
			row.update(data);
			seen.add(key);
			order.push(row.element);
		}
		for (const [key, row] of this._rows) {
			if (seen.has(key)) continue;
			row.element.remove();
			this._rows.delete(key);
		}
		placeChildren(this._list, order);
	}

	private _renderSummary(pending: ChangeSetView | null, totals: ReturnType<ChangeSelection['totals']>): void {
		setHidden(this._summary, pending === null);
		const solo = this._soloHunks();
		setHidden(this._solo, solo.length === 0);
		if (!pending) return;
		const taken = totals.selected - totals.winnerSelected;
		setText(
			this._summary,
			tc(
				'ofChange',
				totals.hunks,
				totals.winnerSelected,
				totals.hunks,
				taken > 0 ? t('plusRunnerUp', taken) : '',
				totals.added,
				totals.removed,
			),
		);
		setTitle(
			this._summary,
			t(
				'ofTheWinnersChanges',
				totals.winnerSelected,
				totals.hunks,
				taken > 0 ? t('takenFromRunnerUps', taken) : '',
				totals.added,
				totals.removed,
			),
		);
		if (solo.length > 0) {
			const text = tc('changeOnlyTheWinner', solo.length, solo.length);
			if (this._solo.dataset['text'] !== text) {
				this._solo.dataset['text'] = text;
				this._solo.replaceChildren(icon('eye'), text);
			}
			setTitle(this._solo, t('noOtherAgentMade'));
		}
	}

	/** Winner hunks no other agent made (when there are other agents), in file order. */
	private _soloHunks(): { path: string; kind: string; id: string }[] {
		const set = this._selection.changeSet;
		if (!set || set.agentCount <= 1) return [];
		return set.files.flatMap((file) =>
			file.hunks
				.filter((hunk) => hunk.agents.length === 1 && (hunk.similar ?? []).length === 0)
				.map((hunk) => ({ path: file.path, kind: file.kind, id: hunk.id })),
		);
	}

	private _nextSolo(): void {
		const solo = this._soloHunks();
		if (solo.length === 0) return;
		this._soloCursor = (this._soloCursor + 1) % solo.length;
		const target = solo[this._soloCursor]!;
		const row = this._rows.get(`${target.kind}:${target.path}`);
		const check = row?.reveal(`hunk:${target.path}#${target.id}`);
		if (!check) return;
		check.focus({ preventScroll: true });
		check.closest('.hunk')?.scrollIntoView({ block: 'nearest' });
	}

	/** The focused control inside the change list (by its stable key) and where it is on screen. */
	private _focusAnchor(): { key: string; top: number; index: number } | null {
		const active = document.activeElement;
		if (!(active instanceof HTMLElement) || !this.element.contains(active)) return null;
		const key = active.dataset['focusKey'];
		if (!key) return null;
		const li = active.closest('li.change');
		const index = li ? [...this._list.children].indexOf(li) : -1;
		return { key, top: active.getBoundingClientRect().top, index };
	}

	/** Puts focus back on the same control (re-created or moved) and keeps it where it was on screen. */
	private _restoreFocus(anchor: { key: string; top: number; index: number }): void {
		let target = this.element.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(anchor.key)}"]`);
		if (!target || target.offsetParent === null) {
			// Its file is gone (accepted or rejected elsewhere): the file now in its place.
			const rows = [...this._list.children] as HTMLElement[];
			const row = rows[Math.min(Math.max(anchor.index, 0), rows.length - 1)];
			target = row?.querySelector<HTMLElement>('.file-check:not([hidden]), .open-diff') ?? null;
		}
		if (!target) return;
		// Only while the page has the keyboard: inside a webview the last focused control stays the active
		// element after the user moved on to an editor, and focusing it would pull the keyboard back here.
		if (document.hasFocus() && document.activeElement !== target) target.focus({ preventScroll: true });
		const shift = target.getBoundingClientRect().top - anchor.top;
		if (Math.abs(shift) >= 1) window.scrollBy(0, shift);
	}
}
