/**
 * Every `massgen.*` setting, declared once: key, type and default as package.json's
 * `contributes.configuration` has them (test/unit/manifest/settingsTrust.test.ts checks both ways),
 * the scope, whether it is in `restrictedConfigurations`, and the merge policy that decides how a
 * workspace's value meets the user's (`settingPolicies.ts`). The only file that calls
 * `getConfiguration`, `inspect` or `update` for them; each setting's typed reader is below or, where
 * it interprets the value at length, beside its one user (permission rules, secret paths, budgets).
 */
import * as vscode from 'vscode';
import { defaultPlanDepth, type PlanDepth, planDepths } from '../../contract/plan.js';
import type { ProviderToolsMode } from '../../core/run/providerToolsDecision.js';
import { type MergePolicy, type SettingLevels, tightest, userValue } from './settingPolicies.js';

interface SettingSpec {
	readonly key: `massgen.${string}`;
	/** JSON schema `type` (package.json's, verbatim). */
	readonly type: string | readonly string[];
	readonly default: unknown;
	readonly scope: 'resource' | 'machine' | 'application';
	/** In `restrictedConfigurations`: VS Code drops its workspace values in Restricted Mode. */
	readonly restricted: boolean;
	readonly policy: MergePolicy;
	readonly enum?: readonly string[];
}

const providerToolsModes = ['allow', 'ask', 'deny'] as const satisfies readonly ProviderToolsMode[];

export const settings = {
	/** The team config; untrusted, a workspace value is dropped and a config inside the workspace is not used. */
	config: {
		key: 'massgen.config',
		type: 'string',
		default: '',
		scope: 'resource',
		restricted: true,
		policy: 'plain',
	},
	/** Accept shows VS Code's refactor preview first (`WorkspaceEditEntryMetadata.needsConfirmation`). */
	previewBeforeApply: {
		key: 'massgen.previewBeforeApply',
		type: 'boolean',
		default: false,
		scope: 'resource',
		restricted: true,
		policy: 'plain',
	},
	/** Workspace levels count only in a trusted workspace, and then only after consent (`permissionSettings.ts`). */
	permissionsAllow: {
		key: 'massgen.permissions.allow',
		type: 'array',
		default: [],
		scope: 'resource',
		restricted: true,
		policy: 'union',
	},
	permissionsAsk: {
		key: 'massgen.permissions.ask',
		type: 'array',
		default: [],
		scope: 'resource',
		restricted: false,
		policy: 'union',
	},
	permissionsDeny: {
		key: 'massgen.permissions.deny',
		type: 'array',
		default: [],
		scope: 'resource',
		restricted: false,
		policy: 'union',
	},
	/** Plain, yet harmless from a workspace: a timeout denies, and 1 s to a day is all it may ask. */
	approvalTimeoutSeconds: {
		key: 'massgen.permissions.approvalTimeoutSeconds',
		type: ['number', 'null'],
		default: null,
		scope: 'resource',
		restricted: false,
		policy: 'plain',
	},
	/** Lowers the sandbox where none can start. */
	allowUnsandboxed: {
		key: 'massgen.commands.allowUnsandboxed',
		type: 'boolean',
		default: false,
		scope: 'application',
		restricted: false,
		policy: 'userOnly',
	},
	/** Executables a run starts. */
	claudeCodePath: {
		key: 'massgen.codingAgents.claudeCodePath',
		type: 'string',
		default: '',
		scope: 'machine',
		restricted: false,
		policy: 'userOnly',
	},
	codexPath: {
		key: 'massgen.codingAgents.codexPath',
		type: 'string',
		default: '',
		scope: 'machine',
		restricted: false,
		policy: 'userOnly',
	},
	/** The lowest level wins (and the config's `permissions.max_cost_usd`, `budgetSettings.ts`). */
	maxCostUsd: {
		key: 'massgen.maxCostUsd',
		type: 'number',
		default: 0,
		scope: 'resource',
		restricted: false,
		policy: 'tightenOnly',
	},
	/** The lowest level wins (`dayCap.ts`). */
	maxCostUsdPerDay: {
		key: 'massgen.maxCostUsdPerDay',
		type: 'number',
		default: 0,
		scope: 'resource',
		restricted: false,
		policy: 'tightenOnly',
	},
	maxTokens: {
		key: 'massgen.maxTokens',
		type: 'integer',
		default: 0,
		scope: 'resource',
		restricted: false,
		policy: 'tightenOnly',
	},
	/** The lowest level wins: asks sooner. */
	confirmCostAboveUsd: {
		key: 'massgen.confirmCostAboveUsd',
		type: 'number',
		default: 0.5,
		scope: 'resource',
		restricted: false,
		policy: 'tightenOnly',
	},
	/** The strictest of allow < ask < deny wins. */
	providerTools: {
		key: 'massgen.providerTools',
		type: 'string',
		enum: providerToolsModes,
		default: 'ask',
		scope: 'resource',
		restricted: false,
		policy: 'tightenOnly',
	},
	/** Patterns only add secrets. */
	secretPaths: {
		key: 'massgen.secretPaths',
		type: 'array',
		default: [],
		scope: 'resource',
		restricted: false,
		policy: 'union',
	},
	/** Off at any level wins (a repository can only turn its own files off); never read untrusted (`startRun`). */
	instructionsEnabled: {
		key: 'massgen.instructions.enabled',
		type: 'boolean',
		default: true,
		scope: 'resource',
		restricted: false,
		policy: 'tightenOnly',
	},
	/** Untrusted, never (checked in code too: `permissionSettings.ts`). */
	readWorkspaceServers: {
		key: 'massgen.mcp.readWorkspaceServers',
		type: 'boolean',
		default: false,
		scope: 'resource',
		restricted: true,
		policy: 'plain',
	},
	/** Retention (`runsView.ts`): deletes run folders, so an untrusted workspace cannot shorten it. */
	runsKeep: {
		key: 'massgen.runs.keep',
		type: 'object',
		default: {},
		scope: 'resource',
		restricted: true,
		policy: 'plain',
	},
	/** Plan with Team's first depth; a repository's choice counts only when trusted (a deeper plan costs more). */
	planDepth: {
		key: 'massgen.plan.depth',
		type: 'string',
		enum: planDepths,
		default: defaultPlanDepth,
		scope: 'resource',
		restricted: true,
		policy: 'plain',
	},
	/** Only the user's own value: a repository cannot make a window spend on more runs at once. */
	maxConcurrent: {
		key: 'massgen.runs.maxConcurrent',
		type: 'integer',
		default: 2,
		scope: 'application',
		restricted: false,
		policy: 'userOnly',
	},
} as const satisfies Record<string, SettingSpec>;

export type SettingName = keyof typeof settings;
export type SettingKey = (typeof settings)[SettingName]['key'];

function configuration(folder?: vscode.Uri): vscode.WorkspaceConfiguration {
	return vscode.workspace.getConfiguration(undefined, folder);
}

/** Every level of a setting, for a policy to merge. */
export function settingLevels(key: SettingKey, folder?: vscode.Uri): SettingLevels | undefined {
	return configuration(folder).inspect<unknown>(key);
}

/** Calls `listener` when one of `keys` (default: any `massgen.*` setting) changes. */
export function onDidChangeSettings(listener: () => void, keys?: readonly SettingKey[]): vscode.Disposable {
	return vscode.workspace.onDidChangeConfiguration((event) => {
		const affected = keys ?? ['massgen'];
		if (affected.some((key) => event.affectsConfiguration(key))) listener();
	});
}

/** `massgen.config` for `folder` ('' when unset). In an untrusted workspace VS Code ignores workspace values of it (restrictedConfigurations). */
export function readConfigSetting(folder?: vscode.Uri): string {
	const value = configuration(folder).get<string>(settings.config.key);
	return typeof value === 'string' ? value.trim() : '';
}

/**
 * Whether the value `readConfigSetting` returns came from the workspace's or the folder's settings
 * (a repository's `.vscode/settings.json` or `.code-workspace`) rather than the user's: such a
 * config is the workspace's choice wherever the file lies (core `chooseTeamConfig`).
 */
export function configSettingFromWorkspace(folder?: vscode.Uri): boolean {
	const levels = settingLevels(settings.config.key, folder);
	const set = (value: unknown) => typeof value === 'string' && value.trim() !== '';
	return set(levels?.workspaceFolderValue) || set(levels?.workspaceValue);
}

/** Writes `massgen.config`: in the workspace settings when a folder is open, else for the user. */
export async function writeConfigSetting(value: string | undefined): Promise<void> {
	const target = vscode.workspace.workspaceFolders?.length
		? vscode.ConfigurationTarget.Workspace
		: vscode.ConfigurationTarget.Global;
	await configuration().update(settings.config.key, value || undefined, target);
}

/** Points the user's `massgen.config` at `file` (a user-level team). */
export async function writeUserConfigSetting(file: string): Promise<void> {
	await configuration().update(settings.config.key, file, vscode.ConfigurationTarget.Global);
}

/** Clears `massgen.config` at the most specific level that sets it for `folder`. */
export async function clearConfigSetting(folder?: vscode.Uri): Promise<void> {
	const where = settingLevels(settings.config.key, folder);
	const target = where?.workspaceFolderValue
		? vscode.ConfigurationTarget.WorkspaceFolder
		: where?.workspaceValue
			? vscode.ConfigurationTarget.Workspace
			: vscode.ConfigurationTarget.Global;
	await configuration(folder).update(settings.config.key, undefined, target);
}

/** `massgen.previewBeforeApply` (window-wide, as accept reads it). */
export function readPreviewBeforeApply(): boolean {
	return configuration().get<boolean>(settings.previewBeforeApply.key, false);
}

/** `massgen.runs.keep` for `folder` as set; `readKeepSetting` (runsView.ts) validates it. */
export function readRunsKeep(folder: vscode.Uri): unknown {
	return configuration(folder).get<unknown>(settings.runsKeep.key);
}

/** `massgen.runs.maxConcurrent` from the user's own settings: a whole number ≥ 1, else the default 2. */
export function readMaxConcurrent(): number {
	const value = userValue(settingLevels(settings.maxConcurrent.key));
	return typeof value === 'number' && Number.isInteger(value) && value >= 1
		? value
		: settings.maxConcurrent.default;
}

/** `massgen.commands.allowUnsandboxed`: only the user's own settings can lower the wall. */
export function readAllowUnsandboxed(): boolean {
	return userValue(settingLevels(settings.allowUnsandboxed.key)) === true;
}

/** A coding agent's executable from the user's own settings ('' when blank). */
export function readCodingAgentPath(name: 'claudeCodePath' | 'codexPath'): string {
	const value = userValue(settingLevels(settings[name].key));
	return typeof value === 'string' ? value.trim() : '';
}

/** A budget setting: the lowest of its levels that is a finite number ≥ `min`; `undefined` when none is. */
export function readLowestNumber(
	name: 'maxCostUsd' | 'maxCostUsdPerDay' | 'maxTokens' | 'confirmCostAboveUsd',
	folder: vscode.Uri,
	min: number,
): number | undefined {
	const valid = (value: unknown): value is number =>
		typeof value === 'number' && Number.isFinite(value) && value >= min;
	return tightest(settingLevels(settings[name].key, folder), valid, (value) => -value);
}

/** `massgen.instructions.enabled` for `folder`: false when any level turns it off. */
export function readInstructionsEnabled(folder: vscode.Uri): boolean {
	const valid = (value: unknown): value is boolean => typeof value === 'boolean';
	return (
		tightest(settingLevels(settings.instructionsEnabled.key, folder), valid, (on) => (on ? 0 : 1)) ?? true
	);
}

/** VS Code's own `workbench.welcomePage.walkthroughs.openOnInstall`: the user can turn walkthroughs off. */
export function readWalkthroughsOpenOnInstall(): boolean {
	return vscode.workspace
		.getConfiguration('workbench.welcomePage.walkthroughs')
		.get<boolean>('openOnInstall', true);
}

/** `massgen.providerTools`: the strictest of the user, workspace and folder modes (`ask` when none is valid). */
export function readProviderToolsMode(folder: vscode.Uri): ProviderToolsMode {
	const modes: readonly unknown[] = providerToolsModes;
	const valid = (value: unknown): value is ProviderToolsMode => modes.includes(value);
	const strictness = (mode: ProviderToolsMode) => providerToolsModes.indexOf(mode);
	return (
		tightest(settingLevels(settings.providerTools.key, folder), valid, strictness) ??
		settings.providerTools.default
	);
}

/** `massgen.plan.depth` for `folder`: one of the depths, else the default. */
export function readPlanDepth(folder?: vscode.Uri): PlanDepth {
	const value = configuration(folder).get<unknown>(settings.planDepth.key);
	return planDepths.find((depth) => depth === value) ?? defaultPlanDepth;
}
