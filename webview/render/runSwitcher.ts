/**
 * The run switcher at the top of the panel: the window's live runs and the run shown, each by its
 * question and state, in one native select (fits a 290 px side bar, keyboard and screen reader as
 * the platform makes them). Picking a run asks the host to show it; a queued run has nothing to
 * show yet and is listed disabled. A run that appears while another is shown is announced.
 */
import type { SwitcherRun, SwitcherRunState, WebviewMessage } from '../../src/protocol/messages.js';
import { t } from '../strings.js';
import { h, icon, setHidden } from './dom.js';

function stateText(state: SwitcherRunState): string {
	switch (state) {
		case 'working':
			return t('switcherWorking');
		case 'queued':
			return t('switcherQueued');
		case 'approval':
			return t('switcherApproval');
		case 'review':
			return t('switcherReview');
		case 'finished':
			return t('switcherFinished');
		case 'failed':
			return t('switcherFailed');
		case 'cancelled':
			return t('switcherCancelled');
	}
}

export class RunSwitcherView {
	readonly element: HTMLElement;
	private readonly _select: HTMLSelectElement;
	private _rows: readonly SwitcherRun[] = [];
	/** Rows seen already (a new one is announced once). Undefined until the first list. */
	private _seen: Set<string> | undefined;

	constructor(
		post: (message: WebviewMessage) => void,
		private readonly _announce: (text: string) => void,
	) {
		this._select = h('select', { class: 'run-switcher-select', attrs: { 'aria-label': t('switcherLabel') } });
		this._select.addEventListener('change', () => {
			const row = this._rows.find((run) => run.key === this._select.value);
			if (row?.runId && !row.shown) post({ type: 'open-run', runId: row.runId });
		});
		this.element = h(
			'nav',
			{ class: 'run-switcher', attrs: { 'aria-label': t('switcherLabel') } },
			icon('layers'),
			this._select,
		);
		this.element.hidden = true;
	}

	/** Shows the list (hidden while there is nothing to switch to: fewer than two runs). */
	update(rows: readonly SwitcherRun[]): void {
		this._rows = rows;
		const options = rows.map((run) => {
			const state = stateText(run.state);
			const label = t('switcherOption', run.name, state);
			const option = h('option', { text: label, attrs: { value: run.key } });
			if (!run.runId) option.disabled = true;
			if (run.shown) option.selected = true;
			option.dataset['state'] = run.state;
			return option;
		});
		this._select.replaceChildren(...options);
		if (!rows.some((run) => run.shown)) this._select.selectedIndex = -1;
		setHidden(this.element, rows.length < 2);
		this._announceNew(rows);
	}

	private _announceNew(rows: readonly SwitcherRun[]): void {
		const first = this._seen === undefined;
		const seen = (this._seen ??= new Set());
		for (const run of rows) {
			if (seen.has(run.key)) continue;
			seen.add(run.key);
			if (!first && !run.shown) this._announce(t('switcherNewRun', run.name));
		}
	}
}
