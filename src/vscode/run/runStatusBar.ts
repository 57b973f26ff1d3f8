import * as vscode from 'vscode';
import type { RunState } from '../../protocol/runState.js';
import { commandIds } from '../common/commandIds.js';
import { Disposable, toDisposable } from '../common/lifecycle.js';
import { formatRunStatus } from './formatRunStatus.js';

/** The status bar item shown while a run is active; clicking it shows the panel. */
export class RunStatusBar extends Disposable {
	private readonly _item: vscode.StatusBarItem;
	private _timer: NodeJS.Timeout | undefined;
	private _startedAt = 0;
	private _state: RunState | null = null;
	private _visible = false;

	constructor() {
		super();
		this._item = this._register(
			vscode.window.createStatusBarItem('massgen.run', vscode.StatusBarAlignment.Left, 50),
		);
		this._item.name = vscode.l10n.t('MassGen Run');
		this._item.command = { command: commandIds.showPanel, title: vscode.l10n.t('Show MassGen Panel') };
		this._item.tooltip = vscode.l10n.t('MassGen: a team run is active. Click to show the panel.');
		this._register(toDisposable(() => this._stopTimer()));
	}

	/** The text shown, or undefined when hidden (tests read it). */
	get text(): string | undefined {
		return this._visible ? this._item.text : undefined;
	}

	start(): void {
		this._startedAt = Date.now();
		this._state = null;
		this._visible = true;
		this._render();
		this._item.show();
		this._stopTimer();
		// The elapsed time ticks even when no event arrives.
		this._timer = setInterval(() => this._render(), 1000);
	}

	update(state: RunState | null): void {
		this._state = state;
		if (this._visible) this._render();
	}

	stop(): void {
		this._visible = false;
		this._stopTimer();
		this._item.hide();
	}

	private _render(): void {
		this._item.text = formatRunStatus(this._state, Date.now() - this._startedAt);
	}

	private _stopTimer(): void {
		if (this._timer) clearInterval(this._timer);
		this._timer = undefined;
	}
}
