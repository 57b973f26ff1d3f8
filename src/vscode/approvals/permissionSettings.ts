/**
 * The editor's side of the permission rules (docs/tools-and-sandbox.md):
 * `massgen.permissions.allow|ask|deny`, `massgen.permissions.approvalTimeoutSeconds` and
 * `massgen.mcp.readWorkspaceServers`, mapped to `RunToolInputs`. Pure: `readToolSettings` (below) feeds it VS
 * Code's `inspect()`.
 *
 * Rule lists from the user, workspace and folder settings are merged (VS Code's `get()` would let
 * a workspace replace the user's deny list with `[]`). A workspace cannot widen what its agents
 * may do unless it is trusted: allow rules from workspace and folder settings count only then, and
 * its own MCP files are read only then.
 */
import * as vscode from 'vscode';
import type { RuleLists } from '../../core/permissions/rules.js';
import type { RunToolInputs } from '../../core/run/runTools.js';
import {
	levelValues,
	mostSpecific,
	type SettingLevels,
	union,
	userValue,
} from '../common/settingPolicies.js';
import { settings } from '../common/settings.js';

export const permissionSettingKeys = {
	allow: settings.permissionsAllow.key,
	ask: settings.permissionsAsk.key,
	deny: settings.permissionsDeny.key,
	approvalTimeoutSeconds: settings.approvalTimeoutSeconds.key,
	readWorkspaceServers: settings.readWorkspaceServers.key,
} as const;

export type PermissionSettingKey = (typeof permissionSettingKeys)[keyof typeof permissionSettingKeys];

/**
 * The settings' share of a run's tool inputs (`RunToolInputs`, the one type from here to
 * `createRunTools`): rules, the approval timeout (set only when the user chose one; otherwise the
 * team config's `permissions.approval_timeout_seconds` applies), whether `.vscode/mcp.json` and
 * `.mcp.json` are read; plus the values that were ignored, one line each (for the log).
 */
export type EditorToolSettings = Pick<RunToolInputs, 'approvalTimeoutMs'> &
	Required<Pick<RunToolInputs, 'rules' | 'readWorkspaceServers'>> & {
		readonly notes: readonly string[];
		/**
		 * Allow rules from the workspace and folder settings of a trusted workspace, kept out of
		 * `rules` until the user consents to them (they run tools without asking, as a workspace
		 * team config's `permissions.allow` would: `workspaceConsent.ts`).
		 */
		readonly workspaceAllow: readonly string[];
	};

/** Longest approval wait a setting may ask for (a day); shorter than 1 s makes no sense for a person. */
const maxTimeoutSeconds = 86_400;

export function toEditorToolSettings(
	inspect: (key: PermissionSettingKey) => SettingLevels | undefined,
	trusted: boolean,
): EditorToolSettings {
	const notes: string[] = [];
	const rules: { allow: string[]; ask: string[]; deny: string[] } = { allow: [], ask: [], deny: [] };
	const workspaceAllow: string[] = [];
	for (const effect of ['allow', 'ask', 'deny'] as const) {
		const key = permissionSettingKeys[effect];
		// `union`, except that a workspace's allow rules count only when it is trusted (and then apart).
		const merged = union(
			levelValues(inspect(key)).filter(({ value }) => value !== null),
			{
				notAList: (level) =>
					notes.push(vscode.l10n.t('{0} ({1} settings) is not a list of rules; ignored', key, level)),
				counts: (level, list) => {
					if (effect !== 'allow' || level === 'user' || trusted) return true;
					if (list.length > 0) {
						notes.push(
							vscode.l10n.t('{0} from the {1} settings is ignored: the workspace is not trusted', key, level),
						);
					}
					return false;
				},
				accept: (rule, level) => {
					if (typeof rule === 'string' && rule.trim() !== '') return rule.trim();
					notes.push(
						vscode.l10n.t(
							'{0} ({1} settings): {2} is not a rule like command(npm test); ignored',
							key,
							level,
							JSON.stringify(rule),
						),
					);
					return undefined;
				},
			},
		);
		for (const { level, item } of merged) {
			const list = effect === 'allow' && level !== 'user' ? workspaceAllow : rules[effect];
			if (!list.includes(item) && !rules[effect].includes(item)) list.push(item);
		}
	}

	let approvalTimeoutMs: number | undefined;
	const timeout = mostSpecific(inspect(permissionSettingKeys.approvalTimeoutSeconds));
	if (timeout !== undefined && timeout !== null) {
		if (
			typeof timeout === 'number' &&
			Number.isFinite(timeout) &&
			timeout >= 1 &&
			timeout <= maxTimeoutSeconds
		) {
			approvalTimeoutMs = Math.round(timeout * 1000);
		} else {
			notes.push(
				vscode.l10n.t(
					"{0}: {1} is not a number of seconds from 1 to {2}; the team config's timeout applies",
					permissionSettingKeys.approvalTimeoutSeconds,
					JSON.stringify(timeout),
					maxTimeoutSeconds,
				),
			);
		}
	}

	return {
		rules: Object.fromEntries(Object.entries(rules).filter(([, list]) => list.length > 0)) as RuleLists,
		...(approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs }),
		workspaceAllow,
		readWorkspaceServers: readWorkspaceServers(
			inspect(permissionSettingKeys.readWorkspaceServers),
			trusted,
			notes,
		),
		notes,
	};
}

/**
 * `massgen.mcp.readWorkspaceServers`: the workspace's own MCP files are written by whoever wrote the
 * repository, so an untrusted workspace never has them read (not even HTTP servers: their url and
 * headers may expand the host's environment), whoever turned the setting on; and only a trusted
 * workspace's settings may turn it on. It is also in `restrictedConfigurations` (VS Code then drops
 * workspace values); checked here too, so the rule does not rest on the manifest alone.
 */
function readWorkspaceServers(levels: SettingLevels | undefined, trusted: boolean, notes: string[]): boolean {
	const key = permissionSettingKeys.readWorkspaceServers;
	const value = trusted ? (mostSpecific(levels) ?? levels?.defaultValue) : userValue(levels);
	if (!trusted) {
		const fromWorkspace = levels?.workspaceFolderValue ?? levels?.workspaceValue;
		if (fromWorkspace !== undefined) {
			notes.push(
				vscode.l10n.t('{0} from the workspace settings is ignored: the workspace is not trusted', key),
			);
		}
		if (value === true) {
			notes.push(
				vscode.l10n.t(
					'{0} is on, but the workspace is not trusted: its .vscode/mcp.json and .mcp.json are not read',
					key,
				),
			);
		}
		return false;
	}
	return value === true;
}
