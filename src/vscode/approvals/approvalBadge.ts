import * as vscode from 'vscode';
import { commandIds } from '../commandIds.js';
import { Disposable } from '../lifecycle.js';
import { badgeText } from './approvalPrompts.js';

/**
 * The "badge" while tool calls wait for approval: a webview panel has none, so a status bar item
 * (`$(shield) 1 approval`, warning colours, click = show the panel) stands in for it.
 */
export class ApprovalBadge extends Disposable {
	private readonly _item: vscode.StatusBarItem;
	private _count = 0;

	constructor() {
		super();
		this._item = this._register(
			vscode.window.createStatusBarItem('massgen.approvals', vscode.StatusBarAlignment.Left, 51),
		);
		this._item.name = 'MassGen Approvals';
		this._item.command = { command: commandIds.showPanel, title: 'Show MassGen Panel' };
		this._item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
	}

	/** The text shown, or undefined when hidden (tests read it). */
	get text(): string | undefined {
		return this._count > 0 ? this._item.text : undefined;
	}

	update(count: number): void {
		this._count = count;
		if (count === 0) {
			this._item.hide();
			return;
		}
		this._item.text = badgeText(count);
		this._item.tooltip = `MassGen: ${count} tool call${count === 1 ? '' : 's'} of the team wait${count === 1 ? 's' : ''} for your approval. Click to show the panel.`;
		this._item.accessibilityInformation = {
			label: `MassGen: ${count} approval${count === 1 ? '' : 's'} waiting`,
			role: 'button',
		};
		this._item.show();
	}
}
