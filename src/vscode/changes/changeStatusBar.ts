import * as vscode from 'vscode';
import { commandIds } from '../common/commandIds.js';
import { Disposable } from '../common/lifecycle.js';
import { escapeMarkdown } from '../common/runName.js';
import type { FollowedAccept } from './acceptWatch.js';
import type { PendingChangeSet } from './pendingChangeSet.js';

/** What the change set's status bar item shows: what is pending, else the last accept while it is in. */
export type ChangeStatus =
	| { readonly kind: 'pending'; readonly files: number }
	/** Several runs' change sets wait (their names, in the order they finished). */
	| { readonly kind: 'sets'; readonly names: readonly string[] }
	| { readonly kind: 'applied'; readonly files: number; readonly detail: string }
	| { readonly kind: 'none' };

/**
 * One status bar item for the change sets, always current: "3 files to review" while one run's
 * changes are pending, "2 change sets to review" while several runs' are (click: the multi-file
 * review, of the run the user picks; the tooltip's links accept or reject), then the last
 * accept while every file is as it left them. An undone accept's files are pending again
 * (`ChangeReview`), so Undo brings back "3 files to review"; files edited further hide it.
 */
export class ChangeStatusBar extends Disposable {
	private readonly _item: vscode.StatusBarItem;
	private _text: string | undefined;

	constructor() {
		super();
		this._item = this._register(
			vscode.window.createStatusBarItem('massgen.changes', vscode.StatusBarAlignment.Left, 49),
		);
		this._item.name = vscode.l10n.t('MassGen Changes');
	}

	/** The text shown, or undefined when hidden (tests read it). */
	get text(): string | undefined {
		return this._text;
	}

	/** What is pending, else how the last accept stands (`detail`: what it did besides writing). */
	showFor(pending: readonly PendingChangeSet[], last: FollowedAccept | undefined, detail: string): void {
		this.show(
			pending.length > 1
				? { kind: 'sets', names: pending.map((set) => set.name) }
				: pending.length === 1
					? { kind: 'pending', files: pending[0]!.files().length }
					: last?.state === 'applied'
						? { kind: 'applied', files: last.accept.files.length, detail }
						: { kind: 'none' },
		);
	}

	show(status: ChangeStatus): void {
		const item = this._item;
		if (status.kind === 'none') {
			this._text = undefined;
			item.hide();
			return;
		}
		if (status.kind === 'pending' || status.kind === 'sets') {
			item.text =
				status.kind === 'sets'
					? vscode.l10n.t('$(diff-multiple) MassGen: {0} change sets to review', status.names.length)
					: status.files === 1
						? vscode.l10n.t('$(diff-multiple) MassGen: 1 file to review')
						: vscode.l10n.t('$(diff-multiple) MassGen: {0} files to review', status.files);
			const links = vscode.l10n.t(
				'[Accept All](command:{0}) · [Review](command:{1}) · [Reject All](command:{2})',
				commandIds.acceptChanges,
				commandIds.reviewChanges,
				commandIds.rejectChanges,
			);
			// Several sets: the links ask which run; the tooltip names them, each escaped whole (`escapeMarkdown`:
			// appendText leaves `<`, and a question's `<command:massgen.acceptChanges>` became a link this
			// tooltip's trust runs).
			const tooltip = new vscode.MarkdownString();
			if (status.kind === 'sets') {
				tooltip.appendText(
					vscode.l10n.t('These runs’ changes are waiting; nothing is written before you accept:'),
				);
				for (const name of status.names) tooltip.appendMarkdown(`\n- ${escapeMarkdown(name)}`);
			} else {
				tooltip.appendText(
					vscode.l10n.t('The team’s changes are waiting; nothing is written before you accept.'),
				);
			}
			tooltip.appendMarkdown(`\n\n${links}`);
			tooltip.isTrusted = {
				enabledCommands: [commandIds.acceptChanges, commandIds.reviewChanges, commandIds.rejectChanges],
			};
			item.tooltip = tooltip;
			item.command = { command: commandIds.reviewChanges, title: vscode.l10n.t('Review Changes') };
		} else {
			item.text =
				status.files === 1
					? vscode.l10n.t('$(check) MassGen: applied 1 file')
					: vscode.l10n.t('$(check) MassGen: applied {0} files', status.files);
			if (status.detail) item.text += `; ${status.detail}`;
			item.tooltip = vscode.l10n.t(
				'MassGen: the accepted changes are in. Undo (Ctrl+Z) or Revert Run takes them back.',
			);
			item.command = { command: commandIds.showPanel, title: vscode.l10n.t('Show MassGen Panel') };
		}
		this._text = item.text;
		item.show();
	}
}
