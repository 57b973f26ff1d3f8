import * as vscode from 'vscode';
import { commandIds } from '../common/commandIds.js';
import type { ChangePrompts } from './changePrompts.js';

/** What a notification's link carries: the run and the state it was made for. */
export interface NoticeArg {
	readonly runId: string;
	readonly notice: number;
}

interface Shown {
	readonly runId: string;
	/** The generation it was shown at. */
	readonly generation: number;
	readonly message: string;
	readonly close: () => void;
}

/**
 * The end-of-run notification and the state it stands for. Every change of what is pending
 * (`moved`: files decided, a new set, an accept undone or redone) counts a generation and closes
 * the notification; its links carry the generation they were made for, so a link clicked later
 * (`isStale`) does nothing.
 */
export class ChangeNotice {
	private _generation = 0;
	private _shown: Shown | undefined;

	/** The notification showing now (its message and what its links carry), for tests. */
	get current():
		{ readonly message: string; readonly runId: string; readonly generation: number } | undefined {
		const shown = this._shown;
		return shown && { message: shown.message, runId: shown.runId, generation: shown.generation };
	}

	get generation(): number {
		return this._generation;
	}

	/** What is pending changed: a notification showing no longer stands for it. */
	moved(): void {
		this._generation++;
		this._shown?.close();
		this._shown = undefined;
	}

	/** The user took it up (its Review link): it closes, what it stands for stays current. */
	dismiss(): void {
		this._shown?.close();
		this._shown = undefined;
	}

	/** Shows "N files changed by X. Accept All · Review · Reject All" until the next `moved`. */
	show(prompts: ChangePrompts, runId: string, count: number, winner: string): Promise<void> {
		const carried: NoticeArg = { runId, notice: this._generation };
		const link = (label: string, command: string) =>
			`[${label}](command:${command}?${encodeURIComponent(JSON.stringify([carried]))})`;
		const actions = [
			link(vscode.l10n.t('Accept All'), commandIds.acceptChanges),
			link(vscode.l10n.t('Review'), commandIds.reviewChanges),
			link(vscode.l10n.t('Reject All'), commandIds.rejectChanges),
		].join(' · ');
		const message =
			count === 1
				? vscode.l10n.t('MassGen: 1 file changed by {0}. {1}', winner, actions)
				: vscode.l10n.t('MassGen: {0} files changed by {1}. {2}', count, winner, actions);
		let close!: () => void;
		const closed = new Promise<void>((resolve) => (close = resolve));
		const shown: Shown = { runId, generation: this._generation, message, close };
		this._shown?.close();
		this._shown = shown;
		return prompts.finished(message, closed).finally(() => {
			if (this._shown === shown) this._shown = undefined;
		});
	}

	/** Whether `arg` came from a notification's link that no longer stands for what `pendingRunId` has. */
	isStale(arg: NoticeArg, pendingRunId: string | undefined): boolean {
		const shown = this._shown;
		return !(shown?.runId === arg.runId && shown.generation === arg.notice && pendingRunId === arg.runId);
	}
}

/** The link argument of a notification, if `arg` is one (the palette and editor titles pass nothing or a URI). */
export function noticeOf(arg: unknown): NoticeArg | undefined {
	if (typeof arg !== 'object' || arg === null || arg instanceof vscode.Uri) return undefined;
	const { runId, notice } = arg as { runId?: unknown; notice?: unknown };
	return typeof runId === 'string' && typeof notice === 'number' ? { runId, notice } : undefined;
}
