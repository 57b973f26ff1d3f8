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
 * The end-of-run notifications, one per run, and the state each stands for. Every change of what
 * a run has pending (`moved`: files decided, a new set, an accept undone or redone) counts that
 * run's generation and closes its notification; its links carry the run and the generation they
 * were made for, so a link clicked later (`refuseStale`) does nothing. Another run's notification or
 * change leaves them standing.
 */
export class ChangeNotice {
	private readonly _generations = new Map<string, number>();
	private readonly _shown = new Map<string, Shown>();

	/** The notification of `runId` showing now (else the one shown last), for tests. */
	current(
		runId?: string,
	): { readonly message: string; readonly runId: string; readonly generation: number } | undefined {
		const shown = runId === undefined ? [...this._shown.values()].at(-1) : this._shown.get(runId);
		return shown && { message: shown.message, runId: shown.runId, generation: shown.generation };
	}

	generation(runId: string): number {
		return this._generations.get(runId) ?? 0;
	}

	/** What the run has pending changed: its notification no longer stands for it. */
	moved(runId: string): void {
		this._generations.set(runId, this.generation(runId) + 1);
		this.dismiss(runId);
	}

	/** The user took it up (its Review link): it closes, what it stands for stays current. */
	dismiss(runId: string): void {
		this._shown.get(runId)?.close();
		this._shown.delete(runId);
	}

	/** Shows "N files changed by X. Accept All · Review · Reject All" until the run's next `moved`. */
	show(prompts: ChangePrompts, runId: string, count: number, winner: string, name: string): Promise<void> {
		const generation = this.generation(runId);
		const carried: NoticeArg = { runId, notice: generation };
		const link = (label: string, command: string) =>
			`[${label}](command:${command}?${encodeURIComponent(JSON.stringify([carried]))})`;
		const actions = [
			link(vscode.l10n.t('Accept All'), commandIds.acceptChanges),
			link(vscode.l10n.t('Review'), commandIds.reviewChanges),
			link(vscode.l10n.t('Reject All'), commandIds.rejectChanges),
		].join(' · ');
		const message =
			count === 1
				? vscode.l10n.t('MassGen {0}: 1 file changed by {1}. {2}', name, winner, actions)
				: vscode.l10n.t('MassGen {0}: {1} files changed by {2}. {3}', name, count, winner, actions);
		let close!: () => void;
		const closed = new Promise<void>((resolve) => (close = resolve));
		const shown: Shown = { runId, generation, message, close };
		this._shown.get(runId)?.close();
		this._shown.set(runId, shown);
		return prompts.finished(message, closed).finally(() => {
			if (this._shown.get(runId) === shown) this._shown.delete(runId);
		});
	}

	/** Whether `arg` came from a notification's link that no longer stands for what its run has pending. */
	private _isStale(arg: NoticeArg, pending: boolean): boolean {
		const shown = this._shown.get(arg.runId);
		return !(shown && shown.generation === arg.notice && pending);
	}

	/**
	 * Whether a command came from a notification's link that no longer stands for what its run has
	 * pending (`pending`: whether the run has anything pending); such a click does nothing (it never
	 * applies anything) and says so.
	 */
	refuseStale(
		arg: unknown,
		pending: (runId: string) => boolean,
		log: Pick<vscode.LogOutputChannel, 'info'>,
	): boolean {
		const from = noticeOf(arg);
		if (!from || !this._isStale(from, pending(from.runId))) return false;
		log.info(
			`change review: a notification of run ${from.runId} was out of date (state ${from.notice}, now ${this.generation(from.runId)}); nothing was done`,
		);
		void vscode.window.showInformationMessage(
			vscode.l10n.t('MassGen: that notification was out of date; nothing was done.'),
		);
		return true;
	}
}

/** The link argument of a notification, if `arg` is one (the palette and editor titles pass nothing or a URI). */
export function noticeOf(arg: unknown): NoticeArg | undefined {
	if (typeof arg !== 'object' || arg === null || arg instanceof vscode.Uri) return undefined;
	const { runId, notice } = arg as { runId?: unknown; notice?: unknown };
	return typeof runId === 'string' && typeof notice === 'number' ? { runId, notice } : undefined;
}
