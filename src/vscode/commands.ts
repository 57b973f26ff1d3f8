import * as vscode from 'vscode';
import { type CommandId, commandIds } from './commandIds.js';
import { askTeam } from './commands/askTeam.js';
import { openRunLog } from './commands/openRunLog.js';
import { selectTeamConfig } from './commands/selectTeamConfig.js';
import { setApiKey } from './commands/setApiKey.js';
import { DisposableStore, type IDisposable } from './lifecycle.js';
import type { RunController } from './run/runController.js';
import type { KeyStore } from './secrets.js';
import type { PanelHost } from './view.js';
import { errorMessage } from '../core/util/errorMessage.js';

export type CommandHandler = (...args: unknown[]) => unknown;

/** Handlers another module supplies (the change review: Review Selection, Accept/Reject Changes). */
export type CommandHandlers = Partial<Record<CommandId, CommandHandler>>;

export interface CommandDeps {
	readonly log: vscode.LogOutputChannel;
	readonly panel: PanelHost;
	readonly runs: RunController;
	readonly keys: KeyStore;
	/** The extension's `configs/` folder (shipped presets). */
	readonly configsDir: string;
	/** Palette titles by command id, from package.json `contributes.commands`. */
	readonly titles: ReadonlyMap<string, string>;
	/** Handlers from feature modules; they take precedence over the built-in ones. */
	readonly extra?: CommandHandlers;
}

/** Reads `contributes.commands` titles from a package.json object. */
export function contributedTitles(packageJSON: unknown): Map<string, string> {
	const commands = (packageJSON as { contributes?: { commands?: { command: string; title: string }[] } })
		.contributes?.commands;
	return new Map((commands ?? []).map((c) => [c.command, c.title]));
}

/** Registers every contributed command exactly once. Returns one disposable for all of them. */
export function registerCommands(deps: CommandDeps): IDisposable {
	const builtIn: CommandHandlers = {
		[commandIds.askTeam]: (arg) => askTeam(deps, arg),
		[commandIds.showPanel]: () => deps.panel.show({ preserveFocus: false }),
		[commandIds.cancelRun]: () => {
			if (!deps.runs.cancel()) void vscode.window.showInformationMessage('MassGen: no run is active.');
		},
		[commandIds.setApiKey]: () => setApiKey(deps.keys),
		[commandIds.selectTeamConfig]: () => selectTeamConfig(deps.configsDir),
		[commandIds.openRunLog]: (arg) => openRunLog(arg),
	};
	const handlers: CommandHandlers = { ...builtIn, ...deps.extra };
	const store = new DisposableStore();
	for (const id of Object.values(commandIds)) {
		const handler = handlers[id] ?? (() => notImplemented(deps, id));
		store.add(
			vscode.commands.registerCommand(id, (...args: unknown[]) => guarded(deps.log, id, handler, args)),
		);
	}
	return store;
}

/** A command never surfaces a stack trace: failures are logged and shown as one line. */
async function guarded(
	log: vscode.LogOutputChannel,
	id: string,
	handler: CommandHandler,
	args: unknown[],
): Promise<unknown> {
	try {
		return await handler(...args);
	} catch (error) {
		log.error(`${id}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
		void vscode.window.showErrorMessage(`MassGen: ${errorMessage(error)}`);
		return undefined;
	}
}

function notImplemented(deps: CommandDeps, id: CommandId): void {
	deps.log.info(`${id}: not implemented yet`);
	// Not awaited: the command completes while the message is still showing.
	void vscode.window.showInformationMessage(
		`MassGen: "${deps.titles.get(id) ?? id}" is not implemented yet.`,
	);
}
