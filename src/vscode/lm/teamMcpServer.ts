import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle.js';
import {
	onDidChangeSettings,
	readInstructionsEnabled,
	readLowestNumber,
	settings,
} from '../common/settings.js';
import { readNamedConfig } from '../config/teamConfigSetting.js';

/** `massgen mcp`'s flag for each budget setting. */
const capFlags = {
	maxCostUsd: '--max-cost',
	maxTokens: '--max-tokens',
	maxCostUsdPerDay: '--max-cost-per-day',
} as const;

/** The id `contributes.mcpServerDefinitionProviders` declares. */
export const teamMcpProviderId = 'massgen.team';

export interface TeamMcpServerDeps {
	/** The extension's folder: `dist/cli.js` (the bundled CLI) and `configs/` are in it. */
	readonly extensionUri: vscode.Uri;
	readonly version: string;
	/** The stored API keys by variable name (`KeyStore.getAll`). */
	readonly storedKeys: () => Promise<Record<string, string>>;
	readonly onDidChangeSecrets: vscode.Event<unknown>;
	/** Workspace Trust (`vscode.workspace.isTrusted`; injected by tests). */
	readonly trusted?: () => boolean;
	/** The first workspace folder (injected by tests). */
	readonly folder?: () => vscode.Uri | undefined;
	/** The Node to start the CLI with: the extension host's own (`process.execPath`). */
	readonly execPath?: string;
}

/**
 * "MassGen team" for VS Code's agent mode (docs/editor.md): `massgen mcp` from the extension's bundled
 * CLI on the first workspace folder, with the user's `massgen.config`, the budget settings
 * (`massgen.maxCostUsd`, `maxTokens`, `maxCostUsdPerDay` as `--max-cost` …) and stored keys. Only in a
 * trusted workspace: untrusted, no server is listed and none is started. The keys are added when
 * VS Code starts the server (`resolveMcpServerDefinition`), never in the listing. The server's own
 * rules hold: nothing is written, the folder's own MCP servers and CLI paths need `massgen trust`.
 */
export class TeamMcpServerProvider
	extends Disposable
	implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>
{
	private readonly _changed = this._register(new vscode.EventEmitter<void>());
	readonly onDidChangeMcpServerDefinitions = this._changed.event;
	private _generation = 0;

	constructor(private readonly _deps: TeamMcpServerDeps) {
		super();
		const changed = () => {
			this._generation++;
			this._changed.fire();
		};
		this._register(vscode.workspace.onDidGrantWorkspaceTrust(changed));
		this._register(vscode.workspace.onDidChangeWorkspaceFolders(changed));
		this._register(
			onDidChangeSettings(changed, [
				'massgen.config',
				settings.maxCostUsd.key,
				settings.maxTokens.key,
				settings.maxCostUsdPerDay.key,
				settings.instructionsEnabled.key,
			]),
		);
		this._register(_deps.onDidChangeSecrets(changed));
	}

	provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
		const folder = this._folder();
		if (!folder || !this._trusted()) return [];
		const { named } = readNamedConfig(folder, vscode.Uri.joinPath(this._deps.extensionUri, 'configs').fsPath);
		// A config the workspace's settings name is the workspace's choice: the server then decides by
		// its own rule (the folder's config only after `massgen trust`), as for `massgen mcp` alone.
		const config = named && !named.byWorkspace ? ['--config', named.file] : [];
		// The editor's caps hold for the agent mode's calls too (each the lowest of the user's,
		// workspace's and folder's values, as for the editor's own runs).
		const caps = (['maxCostUsd', 'maxTokens', 'maxCostUsdPerDay'] as const).flatMap((name) => {
			const limit = readLowestNumber(name, folder, Number.MIN_VALUE);
			if (limit === undefined) return [];
			// The flag takes whole tokens; the setting may hold a fraction.
			const value = name === 'maxTokens' ? Math.max(1, Math.floor(limit)) : limit;
			return [capFlags[name], String(value)];
		});
		const instructions = readInstructionsEnabled(folder) ? [] : ['--no-instructions'];
		const cli = vscode.Uri.joinPath(this._deps.extensionUri, 'dist', 'cli.js').fsPath;
		const server = new vscode.McpStdioServerDefinition(
			vscode.l10n.t('MassGen team'),
			this._deps.execPath ?? process.execPath,
			[cli, 'mcp', '--workspace', folder.fsPath, ...config, ...caps, ...instructions],
			// VS Code's own executable runs as plain Node with this (Electron); Node ignores it.
			{ ELECTRON_RUN_AS_NODE: '1' },
			`${this._deps.version}+${this._generation}`,
		);
		server.cwd = folder;
		return [server];
	}

	async resolveMcpServerDefinition(
		server: vscode.McpStdioServerDefinition,
	): Promise<vscode.McpStdioServerDefinition | undefined> {
		if (!this._trusted() || !this._folder()) return undefined;
		server.env = { ...server.env, ...(await this._deps.storedKeys()) };
		return server;
	}

	private _trusted(): boolean {
		return this._deps.trusted?.() ?? vscode.workspace.isTrusted;
	}

	private _folder(): vscode.Uri | undefined {
		return this._deps.folder ? this._deps.folder() : vscode.workspace.workspaceFolders?.[0]?.uri;
	}
}

/** Registers the provider under the contributed id. */
export function registerTeamMcpServer(provider: TeamMcpServerProvider): vscode.Disposable {
	return vscode.lm.registerMcpServerDefinitionProvider(teamMcpProviderId, provider);
}
