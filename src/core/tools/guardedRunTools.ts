/**
 * The run's tools beyond the workspace (docs/tools-and-sandbox.md): MCP servers and `run_command`, behind one
 * permission gate, with approvals, the audit ledger and the run budget. Hand `createRunTools(…)`
 * to the orchestrator as `RunOptions.tools`; it opens one session per run and closes it on every
 * exit path (completion, cancel, crash).
 */
import type { ChildProcess } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { ApprovalBroker } from '../permissions/approvalBroker.js';
import { McpHub, type McpTool } from '../mcp/mcpHub.js';
import type { McpServerSpec } from '../mcp/mcpServerSpec.js';
import type { RunTools, RunToolsContext, RunToolsSession } from './types.js';
import { AuditLedger } from '../permissions/auditLedger.js';
import {
	PermissionEngine,
	type CommandFilters,
	type PermissionStore,
} from '../permissions/permissionEngine.js';
import { PermissionGate } from '../permissions/permissionGate.js';
import { compileRuleLists, type RuleInput, type RuleLists } from '../permissions/rules.js';
import { RunBudget } from '../permissions/runBudget.js';
import { defaultPermissionSettings, type PermissionSettings, type SandboxKey } from './permissionSettings.js';
import { chooseCommandSandbox, type CommandSandboxChoice } from '../exec/sandbox/commandSandboxPolicy.js';
import { detectSandbox } from '../exec/sandbox/detectSandbox.js';
import { killProcessTree } from '../exec/commandProcess.js';
import { ScratchCopy } from '../exec/commandScratch.js';
import { OverlayScratch } from '../exec/overlayScratch.js';
import type { ScratchSpace } from '../exec/scratchSpace.js';
import { builtinSecretPaths, type SecretPaths } from '../workspace/secretPaths.js';
import { scanSecrets, type SecretIndex } from '../workspace/secretScan.js';
import { isRootOrInside } from '../util/paths.js';
import { createGuardedToolbox, type ExtraTool } from './guardedToolbox.js';
import { runCommandTool } from './runCommandTool.js';
import { restrictToolbox, type ToolRole } from './toolRole.js';

/** One agent's tools beyond the workspace (from its `backend` config). */
export interface AgentToolSettings {
	readonly mcpServers: readonly McpServerSpec[];
	/** Backend-level MCP filters (unprefixed names); a server's own `allowedTools` overrides `allowedTools`. */
	readonly allowedTools?: readonly string[];
	readonly excludeTools?: readonly string[];
	/** `enable_command_execution` (MassGen: `enable_mcp_command_line`). */
	readonly commandExecution: boolean;
	readonly commandFilters?: CommandFilters;
	/** The agent's `role` / `tools`: tools it is never offered and is refused by name. */
	readonly role?: ToolRole;
}

export interface RunToolsOptions {
	readonly workspaceRoot: string;
	/** Per agent id (list every agent); agents not listed get the workspace tools only (still charged to the budget). */
	readonly agents: ReadonlyMap<string, AgentToolSettings>;
	readonly permissions?: Partial<PermissionSettings>;
	/** Where approval requests wait for an answer (the panel's cards, the CLI prompt or policy). */
	readonly broker: ApprovalBroker;
	/**
	 * Workspace Trust. When false, stdio MCP servers from workspace files (and from the team
	 * config when `configFromWorkspace`) never start, and `run_command` is off (it would run the
	 * workspace's own scripts).
	 */
	readonly trusted: boolean;
	/** The team config is a file inside the workspace (e.g. `.massgen/config.yaml`). */
	readonly configFromWorkspace?: boolean;
	/** Rules the caller adds (e.g. VS Code settings); an invalid pattern is a `notice` event. */
	readonly settingsRules?: RuleLists;
	/** Persisted "always allow" decisions. */
	readonly store?: PermissionStore;
	/** Servers from `.vscode/mcp.json` / `.mcp.json` (`readWorkspaceMcpServers`); a config server of the same name wins. */
	readonly workspaceServers?: readonly McpServerSpec[];
	/** Which agents get `workspaceServers` (default: every agent). */
	readonly workspaceServersFor?: (agentId: string) => boolean;
	/**
	 * The run's one permission ledger (`permissions.jsonl`; `runSession` writes the provider-tools
	 * verdict to it too). Omitted: one in memory only.
	 */
	readonly ledger?: AuditLedger;
	/**
	 * For `${VAR}` expansion; commands get only allow-listed names from it (`commandEnvironment`).
	 * `MASSGEN_BWRAP_PATH` names the `bwrap` to use (default: the one on `PATH`).
	 */
	readonly env?: Readonly<Record<string, string | undefined>>;
	/** Files `run_command`'s scratch copy leaves out (default: the built-in secret paths). */
	readonly secretPaths?: SecretPaths;
	/** The run's ripgrep: with it (and a sandbox that can mount one) the scratch is an overlay, not a copy. */
	readonly ripgrep?: string;
}

/** What the session exposes beyond `RunToolsSession`, for tests and the glue. */
export interface OpenRunTools extends RunToolsSession {
	readonly hub: McpHub;
	readonly ledger: AuditLedger;
	readonly engine: PermissionEngine;
	readonly budget: RunBudget;
}

const untrustedNotice =
	'run_command is off: the workspace is not trusted (commands would run its own scripts)';

/** Why a workspace config's sandbox key did nothing, and where the user can set it instead. */
const ignoredKeyNotices: Record<SandboxKey, string> = {
	command_sandbox:
		'permissions.command_sandbox: allow-unsandboxed is ignored: the team config is inside the workspace, which cannot turn ' +
		'the command sandbox off for its own commands. To run commands without a sandbox, use --unsandboxed-commands (CLI), ' +
		'massgen.commands.allowUnsandboxed (VS Code user settings) or a team config outside the workspace',
	command_network:
		'permissions.command_network: true is ignored: the team config is inside the workspace, which cannot give its own ' +
		'commands the network (they could send the scratch copy anywhere or reach services on this machine). To allow it, ' +
		'set it in a team config outside the workspace',
};

/** Builds the `RunOptions.tools` hook. Keep one per run (the ledger and the scratch copies are per run). */
export function createRunTools(
	options: RunToolsOptions,
): RunTools & { readonly last: OpenRunTools | undefined } {
	let last: OpenRunTools | undefined;
	return {
		get last() {
			return last;
		},
		open(context) {
			last = openRunTools(options, context);
			return last;
		},
	};
}

function openRunTools(options: RunToolsOptions, context: RunToolsContext): OpenRunTools {
	const settings = { ...defaultPermissionSettings, ...options.permissions };
	// Warnings for the user (servers that did not start, rules that did not parse): events, so
	// `events.jsonl` keeps them and a reopened run shows them.
	const notice = (message: string) => context.emit({ type: 'notice', source: 'tools', message });
	const env = options.env ?? {};
	const rules: RuleInput[] = [];
	for (const [lists, source] of [
		[settings.rules, 'config'],
		[options.settingsRules ?? {}, 'settings'],
	] as const) {
		const compiled = compileRuleLists(lists, source);
		for (const error of compiled.errors) notice(`permission rule ignored: ${error}`);
		rules.push(
			...compiled.rules.map(({ effect, pattern, source: from }) => ({ effect, pattern, source: from })),
		);
	}
	const commandFilters = new Map<string, CommandFilters>();
	for (const [agentId, agent] of options.agents) {
		if (agent.commandFilters) commandFilters.set(agentId, agent.commandFilters);
	}
	const engine = new PermissionEngine({ rules, store: options.store, commandFilters });
	const ledger = options.ledger ?? new AuditLedger();
	const budget = new RunBudget({ maxToolCalls: settings.maxToolCalls, maxCostUsd: settings.maxCostUsd });
	const gate = new PermissionGate({
		runId: context.runId,
		engine,
		broker: options.broker,
		ledger,
		budget,
		approvalTimeoutMs: settings.approvalTimeoutMs,
		store: options.store,
		emit: (body) => context.emit(body),
		stopAgent: (agentId, reason) => context.stopAgent(agentId, reason),
		onNotice: notice,
	});

	const hub = new McpHub({
		env,
		workspaceRoot: options.workspaceRoot,
		trusted: options.trusted,
		startTimeoutMs: settings.mcpStartTimeoutMs,
		callTimeoutMs: settings.mcpCallTimeoutMs,
		onNotice: notice,
	});
	const commandsAllowed = options.trusted;
	const commandsWanted = [...options.agents.values()].some((agent) => agent.commandExecution);
	let commandNoticeGiven = false;
	for (const [agentId, agent] of options.agents) {
		const wanted = options.workspaceServersFor?.(agentId) ?? true;
		const fromWorkspace = wanted ? (options.workspaceServers ?? []) : [];
		const own = new Set(agent.mcpServers.map((spec) => spec.name));
		const servers = [...agent.mcpServers, ...fromWorkspace.filter((spec) => !own.has(spec.name))];
		hub.addAgent(agentId, { servers, allowedTools: agent.allowedTools, excludeTools: agent.excludeTools });
		if (agent.commandExecution && !commandsAllowed && !commandNoticeGiven) {
			commandNoticeGiven = true;
			notice(untrustedNotice);
		}
	}

	const children = new Set<ChildProcess>();
	const scratches = new Map<string, ScratchSpace>();
	let sandboxChoice: CommandSandboxChoice | undefined;
	let scratchKind: 'overlay' | 'copy' = 'copy';
	// One secret walk for the run, shared by every agent's scratch.
	let secretScan: Promise<SecretIndex> | undefined;
	const secretIndex = () =>
		(secretScan ??= scanSecrets(options.workspaceRoot, options.secretPaths ?? builtinSecretPaths));
	const scratch = (agentId: string) => {
		let copy = scratches.get(agentId);
		if (copy === undefined) {
			const label = `${context.runId.slice(-8)}-${agentId}`;
			const secrets = { secretIndex, ...(options.secretPaths ? { secretPaths: options.secretPaths } : {}) };
			const overlay = sandboxChoice?.sandbox?.overlay;
			// Only bubblewrap can bind the real dependency folders read-only into a copy.
			const dependencies = sandboxChoice?.sandbox?.mode === 'bubblewrap' ? 'mount' : 'link';
			copy =
				scratchKind === 'overlay' && overlay && options.ripgrep
					? new OverlayScratch({
							workspaceRoot: options.workspaceRoot,
							label,
							tools: overlay,
							ripgrep: options.ripgrep,
							...secrets,
						})
					: new ScratchCopy({ workspaceRoot: options.workspaceRoot, label, dependencies, ...secrets });
			scratches.set(agentId, copy);
		}
		return copy;
	};
	let commands: ExtraTool | undefined;
	/** Decides the run's command sandbox (once, before any toolbox is built) and tells the user which. */
	const prepareCommands = async () => {
		if (!commandsWanted) return;
		if (!commandsAllowed) {
			context.emit({ type: 'command-sandbox', mode: 'off', network: false, notice: untrustedNotice });
			return;
		}
		for (const key of settings.ignoredSandboxKeys) {
			// The user's own opt-in (flag or user setting) made the workspace's key moot.
			if (key === 'command_sandbox' && settings.commandSandbox === 'allow-unsandboxed') continue;
			notice(ignoredKeyNotices[key]);
		}
		const detection = await detectSandbox({
			bwrapPath: env['MASSGEN_BWRAP_PATH'],
			path: env['PATH'],
			overlay: env['MASSGEN_SCRATCH'] !== 'copy',
		});
		sandboxChoice = chooseCommandSandbox(settings.commandSandbox, detection, settings.commandNetwork);
		// Off or unsandboxed is a warning; the event tells every mode (CLI display, panel header, events.jsonl).
		if (sandboxChoice.sandbox === null || sandboxChoice.sandbox.mode === 'none') notice(sandboxChoice.notice);
		// An overlay needs a ripgrep to list the workspace, and cannot have its own layers inside its lower one.
		const tempInside = isRootOrInside(await realpath(options.workspaceRoot), await realpath(tmpdir()));
		scratchKind = sandboxChoice.sandbox?.overlay && options.ripgrep && !tempInside ? 'overlay' : 'copy';
		context.emit({
			type: 'command-sandbox',
			mode: sandboxChoice.sandbox?.mode ?? 'off',
			network: settings.commandNetwork,
			notice: sandboxChoice.notice,
			...(sandboxChoice.sandbox ? { scratch: scratchKind } : {}),
		});
		if (sandboxChoice.sandbox === null) return;
		commands = runCommandTool({
			timeoutMs: settings.commandTimeoutMs,
			maxOutputBytes: settings.commandMaxOutputBytes,
			parentEnv: env,
			sandbox: sandboxChoice.sandbox,
			network: settings.commandNetwork,
			workspaceRoot: options.workspaceRoot,
			scratch,
			copyOnWrite: scratchKind === 'overlay',
			onSpawn: (child) => {
				children.add(child);
				child.once('exit', () => children.delete(child));
			},
		});
	};

	let closing: Promise<void> | undefined;
	return {
		hub,
		ledger,
		engine,
		budget,
		ready: async () => {
			await Promise.all([
				hub.start(context.signal),
				prepareCommands().catch((error: unknown) =>
					notice(`run_command is off: ${(error as Error).message}`),
				),
			]);
		},
		toolbox(agentId, workspace, { overlay, phase, planning }) {
			const extra: ExtraTool[] = [];
			if (commands && options.agents.get(agentId)?.commandExecution) extra.push(commands);
			for (const tool of hub.toolsFor(agentId)) extra.push(mcpExtraTool(tool));
			const toolbox = createGuardedToolbox(workspace, extra, gate, { agentId, overlay, phase, planning });
			const role = options.agents.get(agentId)?.role;
			return role ? restrictToolbox(toolbox, role, extra) : toolbox;
		},
		usage: (agentId, costUsd) => gate.usage(agentId, costUsd),
		close() {
			closing ??= (async () => {
				options.broker.cancelRun(context.runId);
				for (const child of children) killProcessTree(child.pid, 'SIGKILL');
				await Promise.all([hub.close(), ...[...scratches.values()].map((copy) => copy.dispose())]);
			})().catch(() => undefined);
			return closing;
		},
	};
}

function mcpExtraTool(tool: McpTool): ExtraTool {
	return {
		definition: tool.definition,
		readOnly: tool.hints?.readOnlyHint === true,
		// Only a server's own promise of a closed-world read lets a call run while planning.
		actsOutside: () => tool.hints?.readOnlyHint !== true || tool.hints.openWorldHint === true,
		unavailable: () => tool.unavailable(),
		describe: async (args) => ({
			action: 'mcp',
			target: tool.target,
			args,
			...(tool.hints ? { hints: tool.hints } : {}),
		}),
		execute: (args, context) => tool.call(args, context.signal),
	};
}
