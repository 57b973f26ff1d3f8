import * as vscode from 'vscode';
import { commandIds } from '../common/commandIds.js';
import { Disposable } from '../common/lifecycle.js';
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
		this._item.name = vscode.l10n.t('MassGen Approvals');
		this._item.command = { command: commandIds.showPanel, title: vscode.l10n.t('Show MassGen Panel') };
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
		this._item.tooltip =
			count === 1
				? vscode.l10n.t('MassGen: 1 tool call of the team waits for your approval. Click to show the panel.')
				: vscode.l10n.t(
						'MassGen: {0} tool calls of the team wait for your approval. Click to show the panel.',
						count,
					);
		this._item.accessibilityInformation = {
			label:
				count === 1
					? vscode.l10n.t('MassGen: 1 approval waiting')
					: vscode.l10n.t('MassGen: {0} approvals waiting', count),
			role: 'button',
		};
		this._item.show();
	}
}
