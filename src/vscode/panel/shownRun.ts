import type * as vscode from 'vscode';
import { errorMessage } from '../../core/util/errorMessage.js';
import { reduceRunEvents } from '../../protocol/reduceRun.js';
import { initialRunState, type RunState } from '../../protocol/runState.js';
import { defaultFolder, folderAt, folderOfRun } from '../common/runFolders.js';

const lastRunKey = 'massgen.panel.lastRunId';

/** What the panel reads of the window's runs: a run's live state, and the newest run's. */
export interface LiveStates {
	stateOf(runId: string): RunState | undefined;
	readonly state: RunState | null | undefined;
}

/**
 * Which run the panel shows: a live one (its events stream in), or a past run opened read-only
 * instead (`viewing`); and the last one shown, remembered in the workspace state so a reloaded
 * window shows it again.
 */
export class ShownRun {
	/** A past run shown read-only instead of a live one. */
	private _viewing: RunState | undefined;
	/** The live run shown; undefined: the newest run of the window. */
	private _liveId: string | undefined;

	constructor(
		private readonly _runs: LiveStates,
		private readonly _memento: vscode.Memento,
		private readonly _log: vscode.LogOutputChannel,
	) {}

	get viewing(): RunState | undefined {
		return this._viewing;
	}

	/**
	 * Shows a live run (one started: `runId`), or the newest (the panel closed). Either is pinned: a
	 * run that starts later does not take its place by being newer (`SurfaceHost` decides that).
	 */
	showLive(runId?: string): void {
		this._viewing = undefined;
		this._liveId = runId ?? this._runs.state?.runId ?? undefined;
	}

	/** Whether `runId`'s live events belong on the page now. */
	showsLive(runId: string): boolean {
		return this._viewing === undefined && this._live()?.runId === runId;
	}

	private _live(): RunState | undefined {
		return (this._liveId ? this._runs.stateOf(this._liveId) : this._runs.state) ?? undefined;
	}

	/** The run the panel shows (also the one it restores after a reload): its follow-ups continue that run's session. */
	get runId(): string | undefined {
		return this._viewing?.runId ?? this._live()?.runId ?? this._memento.get<string>(lastRunKey);
	}

	/** The folder the panel is about (multi-root): the shown run's, else the default one. */
	folder(): vscode.WorkspaceFolder | undefined {
		const runId = this.runId;
		const state = this._viewing ?? this._live();
		return folderAt(state?.workspace) ?? (runId ? folderOfRun(runId) : undefined) ?? defaultFolder();
	}

	/** Shows `runId`: a live run of the window, else its `events.jsonl` read back (`unreadable`: shows nothing new). */
	async open(runId: string): Promise<'live' | 'past' | 'unreadable'> {
		if (this._runs.stateOf(runId)) {
			this.showLive(runId);
			return 'live';
		}
		const state = await this._read(runId);
		if (!state) return 'unreadable';
		this._viewing = state;
		return 'past';
	}

	/** The viewed run, else the live one (a snapshot reads it after its last await: `PanelHost`). */
	current(): RunState | undefined {
		return this._viewing ?? this._live();
	}

	/** The run shown before a reload, read back when neither a viewed nor a live run is there. */
	async lastShown(): Promise<RunState | undefined> {
		const last = this._memento.get<string>(lastRunKey);
		return !this.current() && last ? this._read(last) : undefined;
	}

	/** Remembers the run the panel shows (workspace state), for the snapshot after a reload. */
	remember(runId: string): Thenable<void> {
		if (this._memento.get<string>(lastRunKey) === runId) return Promise.resolve();
		return this._memento.update(lastRunKey, runId);
	}

	private async _read(runId: string): Promise<RunState | undefined> {
		const root = folderOfRun(runId)?.uri.fsPath;
		if (!root) return undefined;
		try {
			// The run store's readers check with zod: loaded at the first read, not at activation.
			const { readShownRunEvents } = await import('../../core/runStore/readRunEvents.js');
			const events = await readShownRunEvents(root, runId);
			return events.length ? reduceRunEvents(initialRunState(), events) : undefined;
		} catch (error) {
			this._log.warn(`panel: cannot read run ${runId}: ${errorMessage(error)}`);
			return undefined;
		}
	}
}
