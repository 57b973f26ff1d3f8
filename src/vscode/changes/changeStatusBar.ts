import * as vscode from 'vscode';
import { commandIds } from '../common/commandIds.js';
import { Disposable } from '../common/lifecycle.js';
import type { AcceptState, AcceptWatch } from './acceptWatch.js';
import type { PendingChangeSet } from './pendingChangeSet.js';

/** What the change set's status bar item shows: what is pending, else how the last accept stands. */
export type ChangeStatus =
	| { readonly kind: 'pending'; readonly files: number }
	| { readonly kind: 'accept'; readonly state: AcceptState; readonly files: number; readonly detail: string }
	| { readonly kind: 'none' };

/**
 * One status bar item for the change set, always current: "3 files to review" while changes are
 * pending (click: the multi-file review; the tooltip's links accept or reject), then the last
 * accept as it stands now: applied, or undone (Undo, Revert Run), and gone once the files were
 * edited further.
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
		const state = accepts.state;
		this.show(
			pending && !pending.isEmpty
				? { kind: 'pending', files: pending.files().length }
				: state !== undefined
					? { kind: 'accept', state, files: accepts.accept?.files.length ?? 0, detail }
					: { kind: 'none' },
		);
	}

	show(status: ChangeStatus): void {
		const item = this._item;
		if (status.kind === 'none' || (status.kind === 'accept' && status.state === 'changed')) {
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
			const applied = status.state === 'applied';
			item.text = applied
				? status.files === 1
					? vscode.l10n.t('$(check) MassGen: applied 1 file')
					: vscode.l10n.t('$(check) MassGen: applied {0} files', status.files)
				: vscode.l10n.t('$(discard) MassGen: accept undone');
			if (applied && status.detail) item.text += `; ${status.detail}`;
			item.tooltip = applied
				? vscode.l10n.t('MassGen: the accepted changes are in. Undo (Ctrl+Z) or Revert Run takes them back.')
				: vscode.l10n.t(
						'MassGen: the files are as they were before the accept. Redo (Ctrl+Y) applies it again.',
					);
			item.command = { command: commandIds.showPanel, title: vscode.l10n.t('Show MassGen Panel') };
		}
		this._text = item.text;
		item.show();
	}
}
