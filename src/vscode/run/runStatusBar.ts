import * as vscode from 'vscode';
import { runName } from '../common/runName.js';
import { commandIds } from '../common/commandIds.js';
import { Disposable, toDisposable } from '../common/lifecycle.js';
import { formatElapsed, formatRunStatus } from './formatRunStatus.js';
import type { ActiveRunInfo } from './runTypes.js';

/**
 * The status bar item shown while runs are going or queued: one run's agents, phase and time, or
 * how many run and wait (each in the tooltip); clicking it shows the panel.
 */
export class RunStatusBar extends Disposable {
	private readonly _item: vscode.StatusBarItem;
	private _timer: NodeJS.Timeout | undefined;
	private _runs: readonly ActiveRunInfo[] = [];

	constructor(private readonly _now: () => number = Date.now) {
		super();
		this._item = this._register(
			vscode.window.createStatusBarItem('massgen.run', vscode.StatusBarAlignment.Left, 50),
		);
		this._item.name = vscode.l10n.t('MassGen Run');
		this._item.command = { command: commandIds.showPanel, title: vscode.l10n.t('Show MassGen Panel') };
		this._register(toDisposable(() => this._stopTimer()));
	}

	/** The text shown, or undefined when hidden (tests read it). */
	get text(): string | undefined {
		return this._runs.length > 0 ? this._item.text : undefined;
	}

	/** The tooltip shown (tests read it). */
	get tooltip(): string | undefined {
		return this._runs.length > 0 ? (this._item.tooltip as string) : undefined;
	}

	/** The window's runs changed (or one's state did): shown while any is going or waiting. */
	update(runs: readonly ActiveRunInfo[]): void {
		this._runs = runs;
		if (runs.length === 0) {
			this._stopTimer();
			this._item.hide();
			return;
		}
		this._render();
		this._item.show();
		// The elapsed time ticks even when no event arrives.
		this._timer ??= setInterval(() => this._render(), 1000);
	}

	private _render(): void {
		const now = this._now();
		const going = this._runs.filter((run) => run.phase !== 'queued');
		const queued = this._runs.length - going.length;
		const elapsed = (run: ActiveRunInfo) => now - (run.startedAt ?? run.askedAt);
		const first = going[0];
		let text = vscode.l10n.t('$(watch) MassGen');
		if (going.length > 1) text = vscode.l10n.t('$(loading~spin) MassGen: {0} runs', going.length);
		else if (first) text = formatRunStatus(first.phase === 'running' ? first.state : null, elapsed(first));
		if (queued > 0) text += ` · ${vscode.l10n.t('{0} queued', queued)}`;
		this._item.text = text;
		const lines = this._runs.map((run) => {
			const state =
				run.phase === 'queued'
					? vscode.l10n.t('queued')
					: run.phase === 'starting'
						? vscode.l10n.t('starting')
						: formatElapsed(elapsed(run));
			return `${runName(run.request.question)} — ${state}`;
		});
		this._item.tooltip = [vscode.l10n.t('MassGen: click to show the panel.'), ...lines].join('\n');
	}

	private _stopTimer(): void {
		if (this._timer) clearInterval(this._timer);
		this._timer = undefined;
	}
}
