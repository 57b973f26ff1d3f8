import * as vscode from 'vscode';
import { type CommandId, commandIds } from './commandIds';
import { DisposableStore, type IDisposable } from './lifecycle';
import type { PanelHost } from './view';

export interface CommandDeps {
	readonly log: vscode.LogOutputChannel;
	readonly panel: PanelHost;
	/** Palette titles by command id, from package.json `contributes.commands`. */
	readonly titles: ReadonlyMap<string, string>;
}

/** Reads `contributes.commands` titles from a package.json object. */
export function contributedTitles(packageJSON: unknown): Map<string, string> {
	const commands = (packageJSON as { contributes?: { commands?: { command: string; title: string }[] } })
		.contributes?.commands;
	return new Map((commands ?? []).map((c) => [c.command, c.title]));
}

/** Registers every contributed command. Returns one disposable for all of them. */
export function registerCommands(deps: CommandDeps): IDisposable {
	const handlers: Partial<Record<CommandId, (...args: unknown[]) => unknown>> = {
		[commandIds.showPanel]: () => deps.panel.show(),
	};
	const store = new DisposableStore();
	for (const id of Object.values(commandIds)) {
		const handler = handlers[id] ?? (() => notImplemented(deps, id));
		store.add(vscode.commands.registerCommand(id, handler));
	}
	return store;
}

function notImplemented(deps: CommandDeps, id: CommandId): void {
	deps.log.info(`${id}: not implemented yet`);
	// Not awaited: the command completes while the message is still showing.
	void vscode.window.showInformationMessage(`MassGen: "${deps.titles.get(id) ?? id}" is not implemented yet.`);
}
