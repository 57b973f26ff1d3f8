import { RE2JS } from 're2js';
import type { McpServerSpec } from '../mcp/mcpServerSpec.js';
import {
	defaultOrchestratorSettings,
	defaultVotingThreshold,
	type ChecklistSettings,
	type OrchestratorSettings,
	type Sensitivity,
} from '../orchestrator/types.js';
import type { CommandMatcher } from '../permissions/permissionEngine.js';
import type { BackendSettings } from '../providers/spec/backendSettings.js';
import { supportedProviderTools } from '../providers/spec/providerToolSupport.js';
import type { AgentToolSettings } from '../tools/guardedRunTools.js';
import type { PermissionSettings, SandboxKey } from '../tools/permissionSettings.js';
import type { RunAgentInfo } from '../../contract/runEvents.js';
import { describeRole, shortRole, type ToolRole } from '../tools/toolRole.js';
import type { AgentConfig, MassGenConfig } from './schema.js';

const ms = (seconds: number): number => Math.round(seconds * 1000);

/** The orchestrator knobs the config sets (seconds → ms); the rest keep the orchestrator's defaults. */
export function toOrchestratorSettings(config: MassGenConfig): Partial<OrchestratorSettings> {
	const { orchestrator, timeout_settings: timeouts } = config;
	return {
		votingSensitivity: sensitivityOf(
			orchestrator.coordination?.voting_sensitivity ?? orchestrator.voting_sensitivity,
		),
		answerNoveltyRequirement: orchestrator.answer_novelty_requirement,
		maxNewAnswersPerAgent: orchestrator.max_new_answers_per_agent,
		maxToolCallsPerTurn: orchestrator.max_tool_calls_per_turn,
		maxRounds: orchestrator.max_rounds,
		skipCoordinationRounds: orchestrator.skip_coordination_rounds,
		planningMode: orchestrator.coordination?.enable_planning_mode ?? defaultOrchestratorSettings.planningMode,
		planningModeInstruction:
			orchestrator.coordination?.planning_mode_instruction ??
			defaultOrchestratorSettings.planningModeInstruction,
		maxOrchestrationRestarts:
			orchestrator.coordination?.max_orchestration_restarts ??
			defaultOrchestratorSettings.maxOrchestrationRestarts,
		quorum: orchestrator.coordination?.quorum ?? defaultOrchestratorSettings.quorum,
		checklist: toChecklistSettings(config),
		coordinationTimeoutMs: ms(timeouts.orchestrator_timeout_seconds),
		agentTurnTimeoutMs: timeouts.agent_timeout_seconds === null ? null : ms(timeouts.agent_timeout_seconds),
		presentationTimeoutMs: ms(timeouts.presentation_timeout_seconds),
	};
}

/** The prompt wording's sensitivity: a checklist run's prompt speaks of the checklist instead. */
function sensitivityOf(value: MassGenConfig['orchestrator']['voting_sensitivity']): Sensitivity {
	return value === 'checklist_gated' ? defaultOrchestratorSettings.votingSensitivity : value;
}

/** Checklist evaluation's settings; null unless `voting_sensitivity: checklist_gated`. */
export function toChecklistSettings(config: MassGenConfig): ChecklistSettings | null {
	const { orchestrator } = config;
	const coordination = orchestrator.coordination;
	const mode = coordination?.voting_sensitivity ?? orchestrator.voting_sensitivity;
	if (mode !== 'checklist_gated') return null;
	return {
		threshold: coordination?.voting_threshold ?? orchestrator.voting_threshold ?? defaultVotingThreshold,
		criteria: coordination?.checklist_criteria_inline ?? [],
		generate: coordination?.evaluation_criteria_generator?.enabled === true,
		mode: coordination?.criteria_mode === 'bootstrap_inline' ? 'bootstrap_inline' : 'static',
		maxProposalsPerAgentPerRound: coordination?.bootstrap_max_per_agent_per_round ?? 3,
		maxProposedTotal: coordination?.bootstrap_max_total ?? 30,
	};
}

/**
 * What `createModel` needs for one agent. `apiKey` is the resolved key (see `resolveApiKey`);
 * without it the config's own `api_key` is used; `baseUrl` likewise (see `resolveBaseUrl`). Every key without a field of its own
 * (`reasoning`, `text`, `api_version`, `script`, pass-through keys) goes into `options`.
 */
export function toBackendSettings(agent: AgentConfig, apiKey?: string, baseUrl?: string): BackendSettings {
	// The tool keys configure our tool layer, never the provider.
	const {
		type,
		model,
		api_key,
		base_url,
		temperature,
		max_tokens,
		context_window: _window,
		options,
		mcp_servers: _servers,
		allowed_tools: _allowed,
		exclude_tools: _excluded,
		...more
	} = agent.backend;
	const {
		enable_command_execution: _commands,
		command_line_allowed_commands: _allowedCommands,
		command_line_blocked_commands: _blocked,
		enable_web_search: webSearch,
		enable_code_execution: codeExecution,
		...rest
	} = more;
	const providerTools = supportedProviderTools({ webSearch, codeExecution }, type, base_url);
	const key = apiKey ?? api_key;
	const url = baseUrl ?? base_url;
	return {
		type,
		model,
		...(key === undefined ? {} : { apiKey: key }),
		...(url === undefined ? {} : { baseUrl: url }),
		...(temperature === undefined ? {} : { temperature }),
		...(max_tokens === undefined ? {} : { maxTokens: max_tokens }),
		...(providerTools ? { providerTools } : {}),
		options: { ...options, ...rest },
	};
}

/** The agent's `role` / `tools` as the run's tools apply them; undefined when it has neither. */
export function toToolRole(agent: AgentConfig): ToolRole | undefined {
	if (agent.role === undefined && agent.tools === undefined) return undefined;
	return { readOnly: agent.role === 'read-only', ...defined({ tools: agent.tools }) };
}

/** `reviewer: read-only (…)` for every agent with a role or a tools list (validate's summary). */
export function agentRoleLines(config: MassGenConfig): string[] {
	return config.agents.flatMap((agent) => {
		const role = toToolRole(agent);
		return role ? [`${agent.id}: ${describeRole(role)}`] : [];
	});
}

/** `run-start`'s agents with each one's role in short (the panel's lanes show it). */
export function withRoles(agents: readonly RunAgentInfo[], config: MassGenConfig): RunAgentInfo[] {
	return agents.map((info) => {
		const agent = config.agents.find((entry) => entry.id === info.agentId);
		const role = agent && toToolRole(agent);
		return role ? { ...info, role: shortRole(role) } : info;
	});
}

export interface RunToolSettings {
	readonly agents: Map<string, AgentToolSettings>;
	readonly permissions: PermissionSettings;
}

/**
 * What `createRunTools` needs from the config: each agent's MCP servers and command settings,
 * and the `permissions` section with the tool timeouts. `configFromWorkspace`: the config file
 * lives in the workspace (then its stdio servers count as workspace files for Workspace Trust,
 * and its `command_sandbox: allow-unsandboxed` and `command_network: true` are ignored, each
 * named in `ignoredSandboxKeys` for the run's warning).
 */
export function toRunToolSettings(
	config: MassGenConfig,
	options: { readonly configFromWorkspace: boolean },
): RunToolSettings {
	const agents = new Map<string, AgentToolSettings>();
	for (const agent of config.agents) {
		const backend = agent.backend;
		const servers: McpServerSpec[] = (backend.mcp_servers ?? []).map((server) => ({
			name: server.name,
			type: server.type,
			...defined({
				command: server.command,
				args: server.args,
				env: server.env,
				cwd: server.cwd,
				url: server.url,
				headers: server.headers,
			}),
			...defined({ allowedTools: server.allowed_tools, excludeTools: server.exclude_tools }),
			origin: { kind: 'config', fromWorkspace: options.configFromWorkspace },
		}));
		const allowed = backend.command_line_allowed_commands ?? [];
		const blocked = backend.command_line_blocked_commands ?? [];
		agents.set(agent.id, {
			mcpServers: servers,
			...defined({ allowedTools: backend.allowed_tools, excludeTools: backend.exclude_tools }),
			commandExecution: backend.enable_command_execution === true,
			...defined({ role: toToolRole(agent) }),
			...(allowed.length + blocked.length > 0
				? { commandFilters: { allowed: allowed.map(anchored), blocked: blocked.map(anchored) } }
				: {}),
		});
	}
	const { permissions, timeout_settings: timeouts } = config;
	// A config inside the workspace (a cloned repository's own) cannot weaken the command sandbox: only the user can.
	const fromWorkspace = options.configFromWorkspace;
	const ignoredSandboxKeys: SandboxKey[] = [];
	if (fromWorkspace && permissions.command_sandbox === 'allow-unsandboxed') {
		ignoredSandboxKeys.push('command_sandbox');
	}
	if (fromWorkspace && permissions.command_network) ignoredSandboxKeys.push('command_network');
	return {
		agents,
		permissions: {
			rules: { allow: permissions.allow, ask: permissions.ask, deny: permissions.deny },
			approvalTimeoutMs: ms(permissions.approval_timeout_seconds),
			maxToolCalls: permissions.max_tool_calls,
			maxCostUsd: permissions.max_cost_usd,
			commandTimeoutMs: ms(timeouts.command_timeout_seconds),
			commandMaxOutputBytes: 64 * 1024,
			commandSandbox: fromWorkspace ? 'required' : permissions.command_sandbox,
			commandNetwork: fromWorkspace ? false : permissions.command_network,
			ignoredSandboxKeys,
			mcpCallTimeoutMs: ms(timeouts.mcp_tool_timeout_seconds),
			mcpStartTimeoutMs: 60_000,
		},
	};
}

/**
 * MassGen matches these with Python's `re.match`: anchored at the start only. Compiled for RE2, so
 * that a command a model writes cannot make a config's regex backtrack for minutes.
 */
function anchored(source: string): CommandMatcher {
	const regex = RE2JS.compile(`^(?:${source})`);
	return { source: regex.pattern(), test: (text) => regex.test(text) };
}

function defined<T extends Record<string, unknown>>(value: T): Partial<T> {
	return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
