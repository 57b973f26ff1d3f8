/**
 * One changed file: a row with expand/collapse, a file checkbox (all / some / none of its
 * changes), kind icon, path, +/- lines of the current selection, the "runs code later" mark
 * (a file other tools run or obey: it starts unticked), the "edited since the team read it" mark (merged / conflict) and Open diff; below it (when expanded) the user-edit note and the hunk list. Rows without a host
 * change set (the winner's edits while the run goes on) have no hunks and no checkbox.
 */
import { t, tc } from '../strings.js';
import type {
	ChangeFileView,
	ChangeKind,
	ExecutableKind,
	FileOutcome,
	UserEdit,
} from '../../src/protocol/changeSetView.js';
import type { ViewStateStore } from '../viewState.js';
import type { FileSelection } from './changeSelection.js';
import { h, icon, setClass, setData, setHidden, setText, setTitle, uniqueId } from './dom.js';
import { HunkList } from './hunkList.js';

/** What the row mark and the note say when the user changed the file since the team read it. */
const userEditLook = (): Record<
	Exclude<UserEdit, 'none'>,
	{ mark: string; title: string; note: string }
> => ({
	merged: {
		mark: t('editedSinceMerged'),
		title: t('editedSinceTheTeam'),
		note: t('editedSinceTheTeam2'),
	},
	conflict: {
		mark: t('editedSinceConflict'),
		title: t('editedSinceTheTeam3'),
		note: t('editedSinceTheTeam4'),
	},
	unseen: {
		mark: t('editedSinceUnseen'),
		title: t('editedSinceUnseenTitle'),
		note: t('editedSinceUnseenNote'),
	},
});

/** Who runs or obeys a flagged file, for the "runs code later" mark's title. */
const runsCodeText = (): Record<ExecutableKind, string> => ({
	editor: t('runsCodeEditor'),
	agents: t('runsCodeAgents'),
	instructions: t('runsCodeInstructions'),
	ci: t('runsCodeCi'),
	git: t('runsCodeGit'),
	devcontainer: t('runsCodeDevcontainer'),
	shell: t('runsCodeShell'),
	install: t('runsCodeInstall'),
	make: t('runsCodeMake'),
	vendor: t('runsCodeVendor'),
});

const kindLook = (): Record<ChangeKind, { icon: string; label: string }> => ({
	add: { icon: 'diff-added', label: t('kindAdded') },
	modify: { icon: 'diff-modified', label: t('kindModified') },
	delete: { icon: 'diff-removed', label: t('kindDeleted') },
});

/** Files whose winner hunks have more lines than this start collapsed unless modified. */
const OPEN_LINES = 30;
/** Change sets with more files than this start with every file collapsed. */
const MANY_FILES = 12;

export interface FileRowContext {
	readonly viewState: ViewStateStore;
	/** Posts `open-diff` (`version`: an answer label). */
	openDiff(path: string, version?: string): void;
	/** Posts `select-hunks` and updates the panel at once. */
	select(path: string, ids: readonly string[], on: boolean): void;
	/** Posts `comment-hunk` (Comment for the Team on a winner hunk). */
	comment(path: string, id: string): void;
}

export interface FileRowData {
	readonly path: string;
	readonly kind: ChangeKind;
	readonly renamedFrom: string | null;
	readonly userEdit: UserEdit;
	/** Host change set data; null for a row built from the run's edits. */
	readonly review: {
		readonly file: ChangeFileView;
		readonly selection: FileSelection;
		readonly agentCount: number;
		/** Files in the change set (many files start collapsed). */
		readonly fileCount: number;
	} | null;
	/** What became of a file no longer pending; null while pending (or not known). */
	readonly outcome: FileOutcome | null;
}

const outcomeLook = (): Record<FileOutcome, { icon: string; label: string }> => ({
	accepted: { icon: 'check', label: t('outcomeAccepted') },
	'partly-accepted': { icon: 'check', label: t('outcomePartly') },
	rejected: { icon: 'close', label: t('outcomeRejected') },
	reverted: { icon: 'discard', label: t('outcomeReverted') },
});

function splitPath(path: string): { name: string; dir: string } {
	const slash = path.lastIndexOf('/');
	return { name: path.slice(slash + 1), dir: slash > 0 ? path.slice(0, slash) : '' };
}

export class FileRow {
	readonly element: HTMLLIElement;
	readonly kind: ChangeKind;
	private readonly _twisty: HTMLButtonElement;
	private readonly _check: HTMLInputElement;
	private readonly _userEdit: HTMLSpanElement;
	private readonly _userEditText: HTMLSpanElement;
	private readonly _runsCode: HTMLSpanElement;
	/** "edited by you": the user edited the proposal in the diff. */
	private readonly _edited: HTMLSpanElement;
	private readonly _lines: HTMLSpanElement;
	private readonly _added: HTMLSpanElement;
	private readonly _removed: HTMLSpanElement;
	private readonly _kindText: HTMLSpanElement;
	private readonly _body: HTMLDivElement;
	private readonly _userEditNote: HTMLDivElement;
	private readonly _userEditNoteText: HTMLSpanElement;
	private readonly _count: HTMLSpanElement;
	private readonly _outcome: HTMLSpanElement;
	private _hunks: HunkList | null = null;
	private _agentCount = 0;
	private _data: FileRowData | null = null;
	/** Checkbox state as last rendered (a click on "some" selects the rest). */
	private _checkState: 'all' | 'some' | 'none' = 'all';

	constructor(
		private readonly _ctx: FileRowContext,
		readonly path: string,
		kind: ChangeKind,
	) {
		this.kind = kind;
		const look = kindLook()[kind] ?? { icon: 'file', label: kind };
		const { name, dir } = splitPath(path);
		const bodyId = uniqueId('change-body');
		this._twisty = h(
			'button',
			{ class: 'change-twisty icon-action', attrs: { type: 'button', 'aria-controls': bodyId } },
			icon('chevron-right', 'twisty'),
		);
		this._twisty.dataset['focusKey'] = `twisty:${path}`;
		this._twisty.addEventListener('click', () => this._setExpanded(!this._expanded()));
		this._check = h('input', {
			class: 'file-check',
			attrs: { type: 'checkbox', 'aria-label': t('includeTheChangesTo', path) },
		});
		this._check.dataset['focusKey'] = `file:${path}`;
		this._check.addEventListener('change', () => this._toggleFile());
		this._userEditText = h('span', {});
		this._userEdit = h('span', { class: 'change-stale' }, icon('warning'), this._userEditText);
		this._runsCode = h(
			'span',
			{ class: 'change-runs-code' },
			icon('terminal'),
			h('span', { text: t('runsCodeMark') }),
		);
		this._edited = h(
			'span',
			{ class: 'change-edited', title: t('editedByYouFile') },
			icon('edit'),
			h('span', { text: t('editedByYou') }),
		);
		this._added = h('span', { class: 'lines-added' });
		this._removed = h('span', { class: 'lines-removed' });
		this._lines = h('span', { class: 'change-lines' }, this._added, this._removed);
		this._count = h('span', { class: 'change-count' });
		this._outcome = h('span', { class: 'change-outcome' });
		this._outcome.hidden = true;
		this._kindText = h('span', { class: 'change-kind sr-only' });
		const nameEl = h('span', { class: 'change-name', text: name, title: path });
		nameEl.addEventListener('click', () => {
			if (this._data?.review) this._setExpanded(!this._expanded());
		});
		const open = h(
			'button',
			{
				class: 'open-diff icon-action',
				title: t('openDiff'),
				attrs: { type: 'button', 'aria-label': t('openDiffOf', path) },
			},
			icon('diff'),
		);
		open.dataset['focusKey'] = `open:${path}`;
		open.addEventListener('click', () => this._ctx.openDiff(path));
		const row = h(
			'div',
			{ class: 'change-row' },
			this._twisty,
			this._check,
			h('span', { class: 'change-icon', title: look.label }, icon(look.icon)),
			nameEl,
			dir ? h('span', { class: 'change-dir', text: dir, title: path }) : h('span', { class: 'change-dir' }),
			this._outcome,
			this._runsCode,
			this._edited,
			this._userEdit,
			this._count,
			this._lines,
			open,
		);
		this._userEditNoteText = h('span', {});
		this._userEditNote = h(
			'div',
			{ class: 'change-stale-note', attrs: { role: 'note' } },
			icon('warning'),
			this._userEditNoteText,
		);
		this._body = h('div', { class: 'change-body', attrs: { id: bodyId } }, this._userEditNote);
		this.element = h('li', { class: `change change-${kind}` }, row, this._kindText, this._body);
		this.element.dataset['path'] = path;
	}

	update(data: FileRowData): void {
		this._data = data;
		this._renderOutcome(data.outcome);
		const look = kindLook()[data.kind] ?? { icon: 'file', label: data.kind };
		const review = data.review;
		// A file without hunks (nothing to pick) shows no checkbox and nothing to expand.
		const selectable = review !== null && review.file.hunks.length + review.file.alternatives.length > 0;
		setHidden(this._twisty, !selectable);
		setHidden(this._check, !selectable);
		const edited = data.userEdit === 'none' ? null : userEditLook()[data.userEdit];
		setHidden(this._userEdit, edited === null);
		setData(this.element, 'userEdit', data.userEdit);
		if (edited) {
			setText(this._userEditText, edited.mark);
			setTitle(this._userEdit, edited.title);
			setText(this._userEditNoteText, edited.note);
		}
		setHidden(this._edited, review?.file.edited !== true);
		setData(this.element, 'edited', String(review?.file.edited === true));
		const runsCode = review?.file.runsCode;
		setHidden(this._runsCode, runsCode === undefined);
		setData(this.element, 'runsCode', runsCode ?? '');
		if (runsCode !== undefined) {
			setTitle(this._runsCode, t('runsCodeTitle', runsCodeText()[runsCode] ?? runsCode));
		}
		setText(this._kindText, data.renamedFrom ? t('renamedFrom', data.renamedFrom) : look.label);
		setClass(this._kindText, 'sr-only', data.renamedFrom === null);
		setHidden(this._lines, review === null);
		if (review) {
			const { selection } = review;
			setText(this._added, `+${selection.added}`);
			setText(this._removed, `−${selection.removed}`);
			setTitle(
				this._lines,
				t('addedRemovedByThe', selection.added, selection.removed, selection.pending ? t('updating') : ''),
			);
			setData(this.element, 'pending', String(selection.pending));
		}
		if (!review || !selectable) {
			setHidden(this._count, true);
			setHidden(this._body, true);
			return;
		}
		const { file, selection } = review;

		const winnerSelected = file.hunks.filter((hunk) => selection.ids.has(hunk.id)).length;
		const covered = file.hunks.filter(
			(hunk) =>
				selection.ids.has(hunk.id) ||
				file.alternatives.some((alt) => selection.ids.has(alt.id) && alt.replaces.includes(hunk.id)),
		).length;
		const state = selection.ids.size === 0 ? 'none' : covered === file.hunks.length ? 'all' : 'some';
		this._checkState = state;
		if (this._check.checked !== (state !== 'none')) this._check.checked = state !== 'none';
		if (this._check.indeterminate !== (state === 'some')) this._check.indeterminate = state === 'some';
		setData(this.element, 'selection', state);
		const taken = selection.ids.size - winnerSelected;
		// Only when the selection is not the winner's whole change ("1/2", "1/2 +1" with a runner-up's hunk).
		const countText =
			taken > 0 || winnerSelected < file.hunks.length
				? `${winnerSelected}/${file.hunks.length}${taken > 0 ? ` +${taken}` : ''}`
				: '';
		setHidden(this._count, countText === '');
		setText(this._count, countText);
		setTitle(
			this._count,
			tc(
				'ofTheWinnersChange',
				file.hunks.length,
				winnerSelected,
				file.hunks.length,
				taken > 0 ? t('fromRunnerUps', taken) : '',
			),
		);

		setHidden(this._userEditNote, edited === null);
		const expanded = this._expanded();
		setHidden(this._body, !expanded);
		setData(this.element, 'expanded', String(expanded));
		this._twisty.setAttribute('aria-expanded', String(expanded));
		const what = t('changesTo', file.path);
		const twistyLabel = expanded ? t('hideThe', what) : t('showThe', what);
		if (this._twisty.getAttribute('aria-label') !== twistyLabel) {
			this._twisty.setAttribute('aria-label', twistyLabel);
		}
		if (expanded) this._renderHunks(review.file, selection, review.agentCount);
	}

	/** Opens the file (if collapsed) and focuses a hunk's checkbox or action. */
	reveal(focusKey: string): HTMLElement | null {
		if (!this._expanded()) this._setExpanded(true);
		const target = this.element.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(focusKey)}"]`);
		return target;
	}

	private _renderHunks(file: ChangeFileView, selection: FileSelection, agentCount: number): void {
		this._agentCount = agentCount;
		if (!this._hunks) {
			// The getter below has the options object as its own `this`; it must read this row's count.
			// eslint-disable-next-line @typescript-eslint/no-this-alias
			const row = this;
			this._hunks = new HunkList({
				path: this.path,
				get agentCount() {
					return row._agentCount;
				},
				viewState: this._ctx.viewState,
				select: (ids, on) => this._ctx.select(this.path, ids, on),
				openDiff: (version) => this._ctx.openDiff(this.path, version),
				comment: (id) => this._ctx.comment(this.path, id),
			});
			this._body.append(this._hunks.element);
		}
		this._hunks.update(file, selection);
	}

	private _defaultExpanded(): boolean {
		const review = this._data?.review;
		if (!review) return false;
		const { file } = review;
		if (review.fileCount > MANY_FILES) return false;
		if (file.kind === 'modify') return true;
		return file.hunks.reduce((sum, hunk) => sum + hunk.lines.length + hunk.truncated, 0) <= OPEN_LINES;
	}

	/** The file's outcome chip: accepted, partly accepted, rejected or reverted. */
	private _renderOutcome(outcome: FileOutcome | null): void {
		setHidden(this._outcome, outcome === null);
		setClass(this.element, 'is-done', outcome !== null);
		if (outcome === null || this._outcome.dataset['outcome'] === outcome) return;
		const look = outcomeLook()[outcome];
		this._outcome.dataset['outcome'] = outcome;
		this._outcome.replaceChildren(icon(look.icon), h('span', { text: look.label }));
	}

	private _expanded(): boolean {
		return this._ctx.viewState.isOpen(`change:${this.path}`, this._defaultExpanded());
	}

	private _setExpanded(open: boolean): void {
		this._ctx.viewState.setOpen(`change:${this.path}`, open);
		if (this._data) this.update(this._data);
	}

	private _toggleFile(): void {
		const review = this._data?.review;
		if (!review) return;
		const { file, selection } = review;
		if (this._checkState === 'all') {
			const ids = [...file.hunks, ...file.alternatives]
				.filter((hunk) => selection.ids.has(hunk.id))
				.map((hunk) => hunk.id);
			if (ids.length > 0) this._ctx.select(file.path, ids, false);
			else this.update(this._data!);
			return;
		}
		// Switch on the winner's hunks that are off and not replaced by a chosen alternative.
		const ids = file.hunks
			.filter(
				(hunk) =>
					!selection.ids.has(hunk.id) &&
					!file.alternatives.some((alt) => selection.ids.has(alt.id) && alt.replaces.includes(hunk.id)),
			)
			.map((hunk) => hunk.id);
		if (ids.length > 0) this._ctx.select(file.path, ids, true);
		else this.update(this._data!);
	}
}
