import type { ApprovalBroker } from '../permissions/approvalBroker.js';
import type { MassGenConfig } from '../config/schema.js';
import { toRunToolSettings } from '../config/toSettings.js';
import { isWorkspaceFile } from '../config/workspaceFile.js';
import type { McpServerSpec } from '../mcp/mcpServerSpec.js';
import type { WorkspaceMcpServers } from '../mcp/workspaceMcpFiles.js';
import type { AuditLedger } from '../permissions/auditLedger.js';
import type { PermissionStore } from '../permissions/permissionEngine.js';
import type { RuleLists } from '../permissions/rules.js';
import { createRunTools } from '../tools/guardedRunTools.js';
import type { TrustGate } from '../trust/trustGate.js';
import type { SecretPaths } from '../workspace/secretPaths.js';

/** What a shell adds to the team config's tools: trust, its rules and settings, the broker and the grants store. */
export interface RunToolInputs {
	/** Where approval requests wait (the panel's cards and notifications, the CLI's prompt or policy). */
	readonly broker: ApprovalBroker;
	/**
	 * VS Code Workspace Trust: false turns `run_command` off and keeps workspace stdio servers from
	 * starting. The CLI passes true (its commands run sandboxed in a copy); folder trust for the
	 * workspace's own servers, CLI paths and key hosts is `RunSessionOptions.workspaceTrust`, which
	 * applies on top of this in both shells.
	 */
	readonly trusted: boolean;
	/** Rules the shell adds (`massgen.permissions.allow|ask|deny`). */
	readonly rules?: RuleLists;
	/** Overrides the config's approval timeout (`massgen.permissions.approvalTimeoutSeconds`). */
	readonly approvalTimeoutMs?: number;
	/** Also the workspace's `.vscode/mcp.json` and `.mcp.json` (`massgen.mcp.readWorkspaceServers`). */
	readonly readWorkspaceServers?: boolean;
	/**
	 * The user's opt-in (`--unsandboxed-commands`, `massgen.commands.allowUnsandboxed`): where no OS
	 * sandbox can start, run commands without one.
	 */
	readonly allowUnsandboxedCommands?: boolean;
	/** "Always allow" decisions of this workspace. */
	readonly store?: PermissionStore;
}

export interface RunToolsContext {
	readonly config: MassGenConfig;
	/** The team config file: one inside the workspace cannot weaken the sandbox or start stdio servers untrusted. */
	readonly file: string;
	/** `workspace`: the workspace chose the config wherever it lies (VS Code's workspace `massgen.config`). */
	readonly kind?: string;
	readonly root: string;
	readonly env: Readonly<Record<string, string | undefined>>;
	/** The run's one permission ledger. */
	readonly ledger: AuditLedger;
	readonly secretFiles: SecretPaths;
	readonly workspaceMcp: WorkspaceMcpServers | undefined;
	/** The run's ripgrep (the scratch lists the workspace with it). */
	readonly ripgrep: string | undefined;
	/** Folder trust: workspace servers it refuses are left out, each with a notice. */
	readonly gate: TrustGate;
}

/**
 * The run's `RunOptions.tools`, as `createRunTools` documents it, and what was refused before the
 * run started (trust refusals, unreadable MCP files): `notice` events once it has started.
 */
export function runTools(inputs: RunToolInputs, context: RunToolsContext) {
	const { root, workspaceMcp } = context;
	const configFromWorkspace = context.kind === 'workspace' || isWorkspaceFile(root, context.file);
	const configured = toRunToolSettings(context.config, { configFromWorkspace });
	const notices: string[] = [];
	const onNotice = (message: string) => void notices.push(message);
	const allowRefusal = context.gate.allowRulesRefusal();
	if (allowRefusal !== undefined) onNotice(allowRefusal);
	const settings =
		allowRefusal === undefined
			? configured
			: {
					...configured,
					permissions: {
						...configured.permissions,
						rules: { ...configured.permissions.rules, allow: [] },
					},
				};
	for (const notice of workspaceMcp?.notices ?? []) onNotice(notice);
	// Refused before the hub sees them: nothing of theirs is expanded, started or connected.
	const admitted = (spec: McpServerSpec): boolean => {
		const refusal = context.gate.serverRefusal(spec);
		if (refusal !== undefined) onNotice(refusal);
		return refusal === undefined;
	};
	const agents = new Map(
		[...settings.agents].map(([id, agent]) => [
			id,
			{ ...agent, mcpServers: agent.mcpServers.filter(admitted) },
		]),
	);
	const workspaceServers = workspaceMcp?.servers.filter(admitted);
	const tools = createRunTools({
		workspaceRoot: root,
		agents,
		permissions: {
			...settings.permissions,
			...(inputs.approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs: inputs.approvalTimeoutMs }),
			...(inputs.allowUnsandboxedCommands ? { commandSandbox: 'allow-unsandboxed' as const } : {}),
		},
		broker: inputs.broker,
		trusted: inputs.trusted,
		configFromWorkspace,
		...(inputs.rules ? { settingsRules: inputs.rules } : {}),
		...(inputs.store ? { store: inputs.store } : {}),
		...(workspaceServers ? { workspaceServers } : {}),
		ledger: context.ledger,
		env: context.env,
		secretPaths: context.secretFiles,
		...(context.ripgrep ? { ripgrep: context.ripgrep } : {}),
	});
	return { tools, notices };
}
