import type * as vscode from 'vscode';
import type { ApprovalBroker } from '../../core/permissions/approvalBroker.js';
import type { PermissionStore } from '../../core/permissions/permissionEngine.js';
import type { RunToolInputs } from '../../core/run/runTools.js';
import type { EditorToolSettings } from '../approvals/permissionSettings.js';
import { readToolSettings } from '../approvals/readToolSettings.js';

export interface EditorToolsInputs {
	readonly broker: ApprovalBroker;
	readonly store?: PermissionStore;
	readonly folder: vscode.WorkspaceFolder;
	/** Workspace Trust as the run read it. */
	readonly trusted: boolean;
	readonly log: vscode.LogOutputChannel;
}

/**
 * What the editor adds to a run's tools (docs/tools-and-sandbox.md): Workspace Trust, the
 * `massgen.permissions.*` and `massgen.mcp.*` settings (read at the start of each run), the
 * extension's broker and the workspace's "always allow" grants. Their notices are run events
 * (`ToolNotices` reports them).
 */
export function editorTools(
	inputs: EditorToolsInputs,
): RunToolInputs & Pick<EditorToolSettings, 'workspaceAllow'> {
	const { log, trusted } = inputs;
	const { notes, ...settings } = readToolSettings(inputs.folder.uri, trusted);
	for (const note of notes) log.warn(`settings: ${note}`);
	return {
		...settings,
		broker: inputs.broker,
		trusted,
		...(inputs.store ? { store: inputs.store } : {}),
	};
}
