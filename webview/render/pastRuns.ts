/**
 * Past runs from `.massgen/runs/`: one button per run that asks the host to reopen it.
 */
import { t } from '../strings.js';
import type { PastRunSummary, WebviewMessage } from '../../src/protocol/messages.js';
import { h, icon } from './dom.js';
import { formatStartedAt } from './format.js';

const statusIcon: Record<PastRunSummary['status'], string> = {
	completed: 'pass-filled',
	cancelled: 'circle-slash',
	timeout: 'watch',
	failed: 'error',
	running: 'loading',
	incomplete: 'warning',
};

export class PastRunsView {
	readonly element: HTMLElement;
	private _runs: readonly PastRunSummary[] | null = null;
	private _current: string | null = null;

	constructor(private readonly _post: (message: WebviewMessage) => void) {
		this.element = h('div', { class: 'past-runs' });
	}

	/** Returns the number of runs (for the section heading). */
	update(runs: readonly PastRunSummary[], currentRunId: string | null): number {
		if (runs === this._runs && currentRunId === this._current) return runs.length;
		this._runs = runs;
		this._current = currentRunId;
		if (runs.length === 0) {
			this.element.replaceChildren(h('p', { class: 'empty-note', text: t('noPastRunsIn') }));
			return 0;
		}
		const list = h('ul', { class: 'run-list' });
		for (const run of runs) {
			const current = run.runId === currentRunId;
			const row = h(
				'button',
				{
					class: `run-row${current ? ' is-current' : ''}`,
					attrs: {
						type: 'button',
						'aria-label': t('openRun', run.question, run.status, formatStartedAt(run.startedAt)),
					},
				},
				h(
					'span',
					{ class: `run-status-icon status-${run.status}`, title: run.status },
					icon(
						statusIcon[run.status] ?? 'circle-outline',
						run.status === 'running' ? 'codicon-modifier-spin' : '',
					),
				),
				h('span', { class: 'run-question', text: run.question || t('noQuestion') }),
				run.winner
					? h('span', {
							class: 'label-chip',
							text: run.winner.agentId,
							title: t('winner2', run.winner.agentId),
						})
					: null,
				h('span', { class: 'run-time', text: formatStartedAt(run.startedAt) }),
			);
			if (current) row.setAttribute('aria-current', 'true');
			row.dataset['runId'] = run.runId;
			row.addEventListener('click', () => this._post({ type: 'open-run', runId: run.runId }));
			list.append(h('li', {}, row));
		}
		this.element.replaceChildren(list);
		return runs.length;
	}
}
