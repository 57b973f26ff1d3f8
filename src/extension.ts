import type * as vscode from 'vscode';
import { contributedTitles, registerCommands } from './vscode/commands';
import { DisposableStore } from './vscode/lifecycle';
import { createLog } from './vscode/log';
import { PanelHost } from './vscode/view';

/** Builds the object graph and hands one root disposable to VS Code. */
export function activate(context: vscode.ExtensionContext): void {
	const root = new DisposableStore();
	context.subscriptions.push(root);

	const log = root.add(createLog());
	const panel = root.add(new PanelHost(context.extensionUri, log));
	root.add(registerCommands({ log, panel, titles: contributedTitles(context.extension.packageJSON) }));
	log.info(`activated (${context.extension.packageJSON.version as string})`);
}

export function deactivate(): void {}
