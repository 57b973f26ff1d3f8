import * as vscode from 'vscode';
import { commandIds } from '../common/commandIds.js';
import { Disposable } from '../common/lifecycle.js';
import type { AcceptWatch } from './acceptWatch.js';
import type { PendingChangeSet } from './pendingChangeSet.js';

/** What the change set's status bar item shows: what is pending, else the last accept while it is in. */
export type ChangeStatus =
	| { readonly kind: 'pending'; readonly files: number }
	| { readonly kind: 'applied'; readonly files: number; readonly detail: string }
	| { readonly kind: 'none' };

/**
 * One status bar item for the change set, always current: "3 files to review" while changes are
 * pending (click: the multi-file review; the tooltip's links accept or reject), then the last
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
	showFor(pending: PendingChangeSet | undefined, accepts: AcceptWatch, detail: string): void {
		this.show(
			pending && !pending.isEmpty
				? { kind: 'pending', files: pending.files().length }
				: accepts.state === 'applied'
					? { kind: 'applied', files: accepts.accept?.files.length ?? 0, detail }
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
		if (status.kind === 'pending') {
			item.text =
				status.files === 1
					? vscode.l10n.t('$(diff-multiple) MassGen: 1 file to review')
					: vscode.l10n.t('$(diff-multiple) MassGen: {0} files to review', status.files);
			const tooltip = new vscode.MarkdownString(
				vscode.l10n.t(
					'The team’s changes are waiting; nothing is written before you accept.\n\n[Accept All](command:{0}) · [Review](command:{1}) · [Reject All](command:{2})',
					commandIds.acceptChanges,
					commandIds.reviewChanges,
					commandIds.rejectChanges,
				),
			);
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
