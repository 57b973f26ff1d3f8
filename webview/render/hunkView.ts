/**
 * One hunk of the change set: the winner's (with a checkbox) or a runner-up's alternative (with
 * "Use instead" / "Add"), its `@@` header, consensus mark and diff lines. Elements are kept
 * across change sets and updated in place, so focus and scroll never jump. The marks are their
 * own files: consensusMark.ts, hunkComments.ts (the review loop's), byUserMark.ts (proposal edits').
 */
import { t, tc } from '../strings.js';
import type { HunkView } from '../../src/protocol/changeSetView.js';
import { baseLines, hunkCounts } from '../../src/protocol/hunkWords.js';
import type { ViewStateStore } from '../viewState.js';
import { button, h, icon, setData, setHidden, setText, setTitle, uniqueId } from './dom.js';
import { ByUserMark } from './byUserMark.js';
import { ConsensusMark, joinWords } from './consensusMark.js';
import { CommentButton, HunkComments } from './hunkComments.js';

export interface HunkContext {
	readonly path: string;
	/** Agents that count for consensus (the N of "K of N"). */
	readonly agentCount: number;
	readonly viewState: ViewStateStore;
	/** Posts `select-hunks` for this file (and updates the panel at once). */
	select(ids: readonly string[], on: boolean): void;
	/** Posts `open-diff` for this file (`version`: an answer label). */
	openDiff(version?: string): void;
	/** Posts `comment-hunk` for a winner hunk of this file (the host asks the words). */
	comment(id: string): void;
}

/** Diff lines shown before "Show N more lines" for a long hunk. */
const PREVIEW_LINES = 16;
/** Hunks up to this many lines are shown whole. */
const FULL_LINES = 24;
const answerLabel = /^agent\d{1,4}\.\d{1,6}$/;

/**
 * Where a hunk lies in the file as it is now and how many lines it adds and removes:
 * "lines 14–16 (+1 −3)", "after line 13 (+1)", "line 7 (−1)"; "empty file" for an empty added file.
 */
export function hunkRange(hunk: HunkView): string {
	if (hunk.oldLines === 0 && hunk.newLines === 0) return t('emptyFile');
	return `${baseLines(hunk, t)} (${hunkCounts(hunk)})`;
}

/** What the change does, in words ("replaces 3 lines with 5"). */
export function hunkSummary(hunk: HunkView): string {
	if (hunk.oldLines === 0 && hunk.newLines === 0) return t('emptyFile');
	if (hunk.oldLines === 0) return tc('adds', hunk.newLines, hunk.newLines);
	if (hunk.newLines === 0) return tc('removes', hunk.oldLines, hunk.oldLines);
	return tc('replacesWith', hunk.oldLines, hunk.oldLines, hunk.newLines);
}

/** The diff lines of a hunk, numbered, with "Show N more lines" for long ones and the truncation note. */
class DiffBody {
	readonly element: HTMLDivElement;
	private _key = '';
	private _hunk: HunkView | null = null;

	constructor(
		private readonly _ctx: HunkContext,
		private readonly _stateKey: string,
	) {
		this.element = h('div', { class: 'hunk-diff' });
	}

	update(hunk: HunkView): void {
		const key = `${hunk.oldStart},${hunk.oldLines},${hunk.newStart},${hunk.newLines},${hunk.truncated}\n${hunk.lines.join('\n')}`;
		this._hunk = hunk;
		if (key === this._key) return;
		this._key = key;
		this._render();
	}

	private _render(): void {
		const hunk = this._hunk;
		if (!hunk) return;
		const full = hunk.lines.length <= FULL_LINES || this._ctx.viewState.isOpen(this._stateKey, false);
		const shown = full ? hunk.lines : hunk.lines.slice(0, PREVIEW_LINES);
		const code = h('div', { class: 'diff-lines' });
		let oldLine = hunk.oldStart;
		let newLine = hunk.newStart;
		for (const line of shown) {
			const sign = line[0] === '-' || line[0] === '+' ? line[0] : ' ';
			const text = sign === ' ' && line[0] !== ' ' ? line : line.slice(1);
			const number = sign === '-' ? oldLine++ : newLine++;
			if (sign === ' ') oldLine += 1;
			code.append(
				h(
					'div',
					{ class: sign === '-' ? 'dl dl-del' : sign === '+' ? 'dl dl-add' : 'dl' },
					h('span', { class: 'dl-num', text: String(number), attrs: { 'aria-hidden': 'true' } }),
					h('span', { class: 'dl-sign', text: sign === '-' ? '−' : sign }),
					h('span', { class: 'dl-text', text: text.length > 0 ? text : ' ' }),
				),
			);
		}
		const parts: (Node | null)[] = [];
		if (hunk.lines.length === 0 && hunk.truncated === 0) {
			parts.push(
				h('div', {
					class: 'diff-empty',
					text: hunk.oldLines === 0 && hunk.newLines === 0 ? t('emptyFileNoLines') : t('noLinesToShow'),
				}),
			);
		} else {
			parts.push(h('div', { class: 'diff-scroll', attrs: { tabindex: '-1' } }, code));
		}
		if (!full) {
			const more = h(
				'button',
				{ class: 'diff-more link-action', attrs: { type: 'button' } },
				icon('unfold'),
				tc('show2', hunk.lines.length - shown.length, hunk.lines.length - shown.length),
			);
			more.addEventListener('click', () => {
				this._ctx.viewState.setOpen(this._stateKey, true);
				this._render();
				this.element.querySelector<HTMLElement>('.diff-scroll')?.focus({ preventScroll: true });
			});
			parts.push(more);
		}
		if (hunk.truncated > 0) {
			const open = h('button', {
				class: 'link-action diff-open',
				text: t('openTheDiff'),
				attrs: { type: 'button' },
			});
			open.addEventListener('click', () => this._ctx.openDiff());
			parts.push(
				h(
					'div',
					{ class: 'diff-truncated' },
					icon('info'),
					tc('notShownHere', hunk.truncated, hunk.truncated),
					open,
				),
			);
		}
		this.element.replaceChildren(...parts.filter((part): part is Node => part !== null));
	}
}

export interface WinnerHunkState {
	readonly hunk: HunkView;
	/** 1-based position among the file's winner hunks, and their count. */
	readonly index: number;
	readonly total: number;
	readonly selected: boolean;
	/** Labels of the selected alternatives that replace this hunk. */
	readonly replacedBy: readonly string[];
}

/** A hunk of the winner's change: checkbox, header, consensus, lines. */
export class WinnerHunk {
	readonly element: HTMLDivElement;
	readonly checkbox: HTMLInputElement;
	private readonly _range: HTMLSpanElement;
	private readonly _number: HTMLSpanElement;
	private readonly _summary: HTMLSpanElement;
	private readonly _replaced: HTMLSpanElement;
	private readonly _consensus = new ConsensusMark();
	/** "edited by you": a change the user wrote in the diff. */
	private readonly _byUser = new ByUserMark();
	private readonly _body: DiffBody;
	private readonly _comment: CommentButton;
	private readonly _comments = new HunkComments();
	private _id = '';

	constructor(
		private readonly _ctx: HunkContext,
		id: string,
	) {
		this._id = id;
		const checkId = uniqueId('hunk-check');
		this.checkbox = h('input', { class: 'hunk-check', attrs: { type: 'checkbox', id: checkId } });
		this.checkbox.dataset['focusKey'] = `hunk:${_ctx.path}#${id}`;
		this.checkbox.addEventListener('change', () => this._ctx.select([this._id], this.checkbox.checked));
		this._number = h('span', { class: 'hunk-num' });
		this._range = h('span', { class: 'hunk-range' });
		this._summary = h('span', { class: 'hunk-summary' });
		this._replaced = h('span', { class: 'hunk-replaced' });
		const label = h(
			'label',
			{ class: 'hunk-label', attrs: { for: checkId } },
			this._number,
			this._range,
			this._summary,
			this._replaced,
		);
		this._body = new DiffBody(_ctx, `hunk:${_ctx.path}#${id}`);
		this._comment = new CommentButton(_ctx.path, id, () => this._ctx.comment(this._id));
		this.element = h(
			'div',
			{ class: 'hunk', attrs: { role: 'group' } },
			h(
				'div',
				{ class: 'hunk-head' },
				this.checkbox,
				label,
				this._consensus.element,
				this._byUser.element,
				this._comment.element,
			),
			this._comments.element,
			this._body.element,
		);
		this.element.dataset['id'] = id;
	}

	update(state: WinnerHunkState): void {
		const { hunk } = state;
		this._id = hunk.id;
		if (this.checkbox.checked !== state.selected) this.checkbox.checked = state.selected;
		setData(this.element, 'selected', String(state.selected));
		// Numbered, so a runner-up's "version of change 2" can say which one it means.
		setText(this._number, String(state.index));
		setHidden(this._number, state.total <= 1);
		setText(this._range, hunkRange(hunk));
		setText(this._summary, hunkSummary(hunk));
		setHidden(this._replaced, state.replacedBy.length === 0);
		setHidden(this._summary, state.replacedBy.length > 0);
		setText(this._replaced, state.replacedBy.length > 0 ? t('replacedBy', state.replacedBy.join(', ')) : '');
		this._consensus.update(hunk, this._ctx.agentCount, true);
		this._byUser.update(hunk, this.element);
		const name = t(
			'changeOfIn',
			state.index,
			state.total,
			this._ctx.path,
			baseLines(hunk, t),
			hunkSummary(hunk),
		);
		if (this.checkbox.getAttribute('aria-label') !== name) this.checkbox.setAttribute('aria-label', name);
		const described = [
			this._consensus.element.hidden ? '' : this._consensus.id,
			this._byUser.element.hidden ? '' : this._byUser.id,
		]
			.filter(Boolean)
			.join(' ');
		if (described) this.checkbox.setAttribute('aria-describedby', described);
		else this.checkbox.removeAttribute('aria-describedby');
		this.element.setAttribute('aria-label', t('changeOf', state.index, state.total));
		this._comment.update(state.index);
		this._comments.update(hunk.comments ?? []);
		this._body.update(hunk);
	}
}

export interface AlternativeState {
	readonly hunk: HunkView;
	readonly selected: boolean;
	/** 1-based positions of the winner hunks it replaces (empty: an extra change). */
	readonly replacesIndex: readonly number[];
}

/**
 * A runner-up's hunk: whose version of which change it is ("reviewer’s version of change 2"; its
 * answer labels in the tooltip), consensus, and "Use instead" / "Add".
 */
export class AlternativeHunk {
	readonly element: HTMLDivElement;
	readonly action: HTMLElement;
	private readonly _state: HTMLSpanElement;
	private readonly _range: HTMLSpanElement;
	private readonly _relation: HTMLSpanElement;
	private readonly _summary: HTMLSpanElement;
	private readonly _icon: HTMLSpanElement;
	private readonly _open: HTMLButtonElement;
	private readonly _consensus = new ConsensusMark();
	private readonly _body: DiffBody;
	private _current: AlternativeState | null = null;

	constructor(
		private readonly _ctx: HunkContext,
		id: string,
	) {
		this._state = h('span', { class: 'alt-state sr-only', text: t('inUse') });
		this._icon = h('span', { class: 'alt-icon' });
		this.action = button(t('useInstead'), () => this._act(), { secondary: true, class: 'alt-action' });
		this.action.dataset['focusKey'] = `alt:${_ctx.path}#${id}`;
		this._open = h('button', { class: 'icon-action alt-open', attrs: { type: 'button' } }, icon('diff'));
		this._open.addEventListener('click', () => {
			const label = this._current?.hunk.sources.find((source) => answerLabel.test(source));
			this._ctx.openDiff(label);
		});
		this._range = h('span', { class: 'hunk-range' });
		this._relation = h('span', { class: 'alt-relation' });
		this._summary = h('span', { class: 'hunk-summary' });
		this._body = new DiffBody(_ctx, `hunk:${_ctx.path}#${id}`);
		this.element = h(
			'div',
			{ class: 'hunk hunk-alt', attrs: { role: 'group' } },
			h(
				'div',
				{ class: 'hunk-head alt-head' },
				this._icon,
				this._relation,
				this._state,
				this._consensus.element,
			),
			h(
				'div',
				{ class: 'alt-sub' },
				this._range,
				this._summary,
				h('span', { class: 'alt-actions' }, this._open, this.action),
			),
			this._body.element,
		);
		this.element.dataset['id'] = id;
	}

	update(state: AlternativeState): void {
		this._current = state;
		const { hunk } = state;
		const names = joinWords(hunk.agents);
		const extra = hunk.replaces.length === 0;
		setData(this.element, 'selected', String(state.selected));
		setData(this.element, 'kind', extra ? 'extra' : 'replacement');
		setHidden(this._state, !state.selected);
		setText(this._range, hunkRange(hunk));
		const which =
			state.replacesIndex.length === 1
				? t('change', state.replacesIndex[0])
				: t('changes', joinWords(state.replacesIndex.map(String)));
		setText(this._relation, extra ? t('extraChangeOf', names) : t('versionOf', names, which));
		setTitle(this._relation, hunk.sources.length > 0 ? t('fromAnswers', hunk.sources.join(', ')) : '');
		const glyph = state.selected ? 'pass-filled' : 'git-compare';
		if (this._icon.dataset['glyph'] !== glyph) {
			this._icon.dataset['glyph'] = glyph;
			this._icon.replaceChildren(icon(glyph));
		}
		setTitle(this._icon, state.selected ? t('aRunnerUpsChange') : t('aRunnerUpsChange2'));
		setText(this._summary, hunkSummary(hunk));
		this._consensus.update(hunk, this._ctx.agentCount, false);
		const source = hunk.agents[0] ?? hunk.sources[0] ?? '';
		const verb = state.selected
			? extra
				? t('remove2')
				: t('useWinners')
			: extra
				? t('add')
				: t('useInstead');
		setText(this.action, verb);
		const actionLabel = state.selected
			? extra
				? t('removeSExtraChange', source, baseLines(hunk, t))
				: t('goBackToThe', which)
			: extra
				? t('addSExtraChange', source, baseLines(hunk, t))
				: t('useSChangeAt', source, baseLines(hunk, t), which);
		if (this.action.getAttribute('aria-label') !== actionLabel) {
			this.action.setAttribute('aria-label', actionLabel);
		}
		if (!this._consensus.element.hidden) this.action.setAttribute('aria-describedby', this._consensus.id);
		const openVersion = hunk.sources.find((source) => answerLabel.test(source));
		setHidden(this._open, openVersion === undefined);
		const openLabel = openVersion ? t('openTheDiffOf', source, this._ctx.path) : '';
		if (this._open.getAttribute('aria-label') !== openLabel) this._open.setAttribute('aria-label', openLabel);
		setTitle(this._open, openVersion ? t('openSVersion', source) : '');
		this.element.setAttribute('aria-label', t('runnerUpChangeFrom', names));
		this._body.update(hunk);
	}

	private _act(): void {
		const state = this._current;
		if (!state) return;
		const { hunk } = state;
		if (!state.selected) this._ctx.select([hunk.id], true);
		else if (hunk.replaces.length === 0) this._ctx.select([hunk.id], false);
		// Switching the winner's hunks back on switches this one off (they overlap).
		else this._ctx.select(hunk.replaces, true);
	}
}
