import * as vscode from 'vscode';
import { onDidChangeSettings } from '../common/settings.js';
import { runsWatchGlobs } from '../../contract/runLayout.js';
import { commandIds, viewIds } from '../common/commandIds.js';
import { Disposable } from '../common/lifecycle.js';
import type { Engine } from '../run/loadEngine.js';
import type { KeyStore } from '../common/secrets.js';
import { teamFolder } from './teamFolder.js';
import { changeModel, editRole, removeAgent, runDemoTeam } from './teamActions.js';
import { buildTeam } from './teamBuilder.js';
import { modelsOf } from './teamChoices.js';
import type { StepHook } from './quickSteps.js';
import { TeamTreeProvider } from './teamTreeProvider.js';
import { TeamStats } from './teamStats.js';
import { StatsDocuments } from './statsDocuments.js';
import { suggestTeamCommand } from './suggestTeamCommand.js';
import { memberChatModels } from '../lm/memberChatModels.js';

export interface TeamViewDeps {
	readonly engine: () => Promise<Engine>;
	readonly keys: KeyStore;
	readonly shippedConfigsDir: string;
	/** SecretStorage's change event: a key stored or removed changes who is available. */
	readonly onDidChangeSecrets: vscode.Event<unknown>;
	readonly log: vscode.LogOutputChannel;
}

type TeamCommandId =
	| typeof commandIds.buildTeam
	| typeof commandIds.teamRefresh
	| typeof commandIds.teamOpenConfig
	| typeof commandIds.teamRemoveAgent
	| typeof commandIds.teamEditRole
	| typeof commandIds.teamChangeModel
	| typeof commandIds.teamRunDemo
	| typeof commandIds.showTeamStats
	| typeof commandIds.suggestTeam;

const refreshDelayMs = 300;

/**
 * The Team view (above Runs in the MassGen container): the agents Ask Team would run now, each
 * with why it is or is not available; refreshed when the config file, the settings, the stored
 * keys, the workspace trust or VS Code's language models change.
 */
export class TeamView extends Disposable {
	readonly provider: TeamTreeProvider;
	readonly view: vscode.TreeView<unknown>;
	/** The stats core, loaded at the first Stats row, report or suggestion. */
	readonly stats = new TeamStats();
	private readonly _reports: StatsDocuments;
	/** The builder's steps as they show (the in-host test answers them through this). */
	private readonly _onDidShowBuilderStep = this._register(new vscode.EventEmitter<Parameters<StepHook>>());
	readonly onDidShowBuilderStep = this._onDidShowBuilderStep.event;
	private _timer: ReturnType<typeof setTimeout> | undefined;
	private _statsTimer: ReturnType<typeof setTimeout> | undefined;

	constructor(private readonly _deps: TeamViewDeps) {
		super();
		this.provider = this._register(
			new TeamTreeProvider(
				{
					engine: _deps.engine,
					keys: _deps.keys,
					shippedConfigsDir: _deps.shippedConfigsDir,
					log: _deps.log,
				},
				(root) => this.stats.board(root),
			),
		);
		this._reports = this._register(
			new StatsDocuments(async (root) => this.stats.report(await this.stats.board(root))),
		);
		this.view = this._register(
			vscode.window.createTreeView(viewIds.team, { treeDataProvider: this.provider }),
		);
		const watcher = this._register(vscode.workspace.createFileSystemWatcher('**/.massgen/*.{yaml,yml}'));
		for (const event of [watcher.onDidCreate, watcher.onDidChange, watcher.onDidDelete]) {
			this._register(event(() => this.scheduleRefresh()));
		}
		// A run's end or its change record (accept, reject, revert; from the CLI too) changes the stats only.
		const runs = this._register(vscode.workspace.createFileSystemWatcher(runsWatchGlobs.files));
		for (const event of [runs.onDidCreate, runs.onDidChange, runs.onDidDelete]) {
			this._register(event(() => this._scheduleStats()));
		}
		const later = () => this.scheduleRefresh();
		this._register(onDidChangeSettings(later));
		// A team file outside the workspace (the setting's, a user-level team) is not watched: its save is seen.
		this._register(vscode.workspace.onDidSaveTextDocument(later));
		this._register(_deps.onDidChangeSecrets(later));
		this._register(vscode.workspace.onDidChangeWorkspaceFolders(later));
		this._register(vscode.workspace.onDidGrantWorkspaceTrust(later));
		this._register(vscode.lm.onDidChangeChatModels(later));
		this._register({ dispose: () => (clearTimeout(this._timer), clearTimeout(this._statsTimer)) });
	}

	scheduleRefresh(): void {
		clearTimeout(this._timer);
		this._timer = setTimeout(() => this.provider.refresh(), refreshDelayMs);
	}

	private _scheduleStats(): void {
		clearTimeout(this._statsTimer);
		this._statsTimer = setTimeout(() => this.provider.refreshStats(), refreshDelayMs);
	}

	/** Every Team view command's handler (`registerCommands` adds them to its record). */
	handlers(): Record<TeamCommandId, (...args: unknown[]) => unknown> {
		const { engine } = this._deps;
		const edited = (done: Promise<boolean>) => done.then((ok) => (ok && this.provider.refresh(), ok));
		return {
			[commandIds.buildTeam]: async () => {
				const file = await buildTeam({
					engine,
					keys: () => this._keys(),
					lmModels: memberChatModels,
					suggestion: () => this._suggestion(),
					onStep: (name, input) => this._onDidShowBuilderStep.fire([name, input]),
				});
				if (file) this.provider.refresh();
				return file;
			},
			[commandIds.showTeamStats]: () => this._reports.show(),
			[commandIds.suggestTeam]: async (size) => {
				const file = await suggestTeamCommand(
					{
						engine,
						stats: this.stats,
						teamSize: () => this._teamSize(),
						onStep: (name, input) => this._onDidShowBuilderStep.fire([name, input]),
					},
					size,
				);
				if (file) this.provider.refresh();
				return file;
			},
			[commandIds.teamRefresh]: () => this.provider.refresh(),
			[commandIds.teamOpenConfig]: async () => {
				const { snapshot, message } = await this.provider.snapshot();
				if (!snapshot) {
					return void vscode.window.showInformationMessage(
						vscode.l10n.t('MassGen: {0}', message ?? vscode.l10n.t('no team')),
					);
				}
				await vscode.window.showTextDocument(vscode.Uri.file(snapshot.file));
			},
			[commandIds.teamRemoveAgent]: (node) => edited(removeAgent(engine, node)),
			[commandIds.teamEditRole]: (node, role) => edited(editRole(engine, node, role as string | undefined)),
			[commandIds.teamChangeModel]: (node, model) =>
				edited(
					changeModel(
						engine,
						async (provider, baseUrl, snapshot) =>
							modelsOf(
								await engine(),
								await this._keys(),
								await memberChatModels(),
								provider,
								baseUrl,
								snapshot.kind === 'workspace' || (await this._inFolder(snapshot.file)),
							),
						node,
						model as string | undefined,
					),
				),
			[commandIds.teamRunDemo]: () => runDemoTeam(),
		};
	}

	/** How many agents the view's team has (a suggestion keeps the size; without a team, MassGen's usual three). */
	private async _teamSize(): Promise<number> {
		return (await this.provider.snapshot()).snapshot?.agents.length ?? 3;
	}

	/** The suggested team Build Team offers first: of the team's size, from the view's folder's runs. */
	private async _suggestion() {
		const folder = teamFolder();
		if (!folder) return undefined;
		const found = await this.stats.suggest(await this.stats.board(folder.uri.fsPath), await this._teamSize());
		return 'none' in found ? undefined : found;
	}

	/** Whether a team file lies in the view's folder (by path or real path): the workspace's, not the user's. */
	private async _inFolder(file: string): Promise<boolean> {
		const folder = teamFolder();
		return folder !== undefined && (await this._deps.engine()).team.isWorkspaceFile(folder.uri.fsPath, file);
	}

	/** The key sources a run would use (secret storage, environment, a trusted workspace's .env). */
	private async _keys() {
		return (await this._deps.engine()).runKeys(teamFolder()?.uri.fsPath, {
			storedKeys: () => this._deps.keys.getAll(),
			env: process.env,
			workspaceTrusted: vscode.workspace.isTrusted,
		});
	}
}
