import type { RuleLists } from '../permissions/rules.js';
import type { CommandSandboxPolicy } from '../exec/sandbox/commandSandboxPolicy.js';

/**
 * The `permissions` section and the tool timeouts, in milliseconds, with their defaults: the config
 * schema's defaults are derived from these, so each number lives once.
 */
export interface PermissionSettings {
	readonly rules: RuleLists;
	readonly approvalTimeoutMs: number;
	readonly maxToolCalls: number | null;
	readonly maxCostUsd: number | null;
	readonly commandTimeoutMs: number;
	readonly commandMaxOutputBytes: number;
	/** Whether `run_command` may run without an OS sandbox where none can start (`permissions.command_sandbox`). */
	readonly commandSandbox: CommandSandboxPolicy;
	/** Whether commands get the network (all or nothing: bubblewrap cannot filter by domain). */
	readonly commandNetwork: boolean;
	/**
	 * Sandbox keys a team config inside the workspace set and that were ignored: a repository must
	 * not turn the wall off for its own commands (`toRunToolSettings`). The run warns about each.
	 */
	readonly ignoredSandboxKeys: readonly SandboxKey[];
	readonly mcpCallTimeoutMs: number;
	readonly mcpStartTimeoutMs: number;
}

/** The `permissions` keys that weaken the command sandbox, which only the user may set. */
export type SandboxKey = 'command_sandbox' | 'command_network';

export const defaultPermissionSettings: PermissionSettings = {
	rules: {},
	approvalTimeoutMs: 300_000,
	maxToolCalls: null,
	maxCostUsd: null,
	commandTimeoutMs: 120_000,
	commandMaxOutputBytes: 64 * 1024,
	commandSandbox: 'required',
	commandNetwork: false,
	ignoredSandboxKeys: [],
	mcpCallTimeoutMs: 120_000,
	mcpStartTimeoutMs: 60_000,
};
