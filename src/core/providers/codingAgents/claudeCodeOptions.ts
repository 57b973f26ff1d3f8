/**
 * How a `claude_code` agent's CLI is started (docs/coding-agents.md): its config (MassGen's keys, see
 * `CodingAgentSettings`) and the run's choices → the Agent SDK's `query()` options. Type-only use
 * of the SDK: loading it is the adapter's business, only when a team has such an agent.
 *
 * What the config cannot change, whatever it says:
 * - every tool call is asked through `canUseTool` (permission mode `default`, no auto-allowed
 *   tools), so the permission engine and approval cards decide;
 * - no settings file is read (`settingSources: []`): a cloned repository's `.claude/settings.json`
 *   could otherwise allow tools or run hooks;
 * - the environment is replaced, not inherited: the CLI and the commands it runs see only what an
 *   agent needs, never the other agents' keys;
 * - the session is not persisted into the user's `~/.claude` project history.
 */
import type { CanUseTool, McpServerConfig, Options } from '@anthropic-ai/claude-agent-sdk';
import { codingAgentDefaultModel, type CodingAgentSettings } from '../spec/codingAgentTypes.js';

/** Host variables a CLI needs to run and to find its own login (never another provider's key). */
const passedVariables = [
	'PATH',
	'HOME',
	'USER',
	'LOGNAME',
	'SHELL',
	'LANG',
	'LC_ALL',
	'TMPDIR',
	'SYSTEMROOT',
	'CLAUDE_CONFIG_DIR',
] as const;

/** Documented switches: no telemetry, error reports, update checks or other non-essential traffic. */
const quietVariables: Readonly<Record<string, string>> = {
	CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
	DISABLE_TELEMETRY: '1',
	DISABLE_ERROR_REPORTING: '1',
	DISABLE_AUTOUPDATER: '1',
};

/** The native tools a `claude_code` agent gets when its config lists none: read, search and edit. */
export const defaultClaudeCodeTools: readonly string[] = ['Read', 'Grep', 'Glob', 'Edit', 'Write'];

export interface ClaudeCodeLaunch {
	readonly settings: CodingAgentSettings;
	/** The config's `model`; `default` leaves the choice to the CLI. */
	readonly model: string;
	/** The resolved `ANTHROPIC_API_KEY` (config, secrets, environment, .env); none: the CLI's own login. */
	readonly apiKey?: string;
	/** The config's `base_url` (Anthropic style: the host root). */
	readonly baseUrl?: string;
	/** The host environment the allowed variables are taken from. */
	readonly hostEnv: Readonly<Record<string, string | undefined>>;
	/** The agent's scratch folder: never the user's workspace. */
	readonly cwd: string;
	/** Our coordination (or presentation) prompt; the config's role text is appended to it. */
	readonly systemPrompt: string;
	/** The workflow tools and our workspace tools, as in-process SDK MCP servers. */
	readonly mcpServers: Readonly<Record<string, McpServerConfig>>;
	readonly canUseTool: CanUseTool;
	readonly abortController: AbortController;
}

/** The SDK options for one launch; `model: default` and unset keys leave the CLI's defaults. */
export function claudeCodeOptions(launch: ClaudeCodeLaunch): Options {
	const { settings } = launch;
	const role = [settings.system_prompt, settings.append_system_prompt].filter((text) => text?.trim());
	const systemPrompt = [launch.systemPrompt, ...role].join('\n\n');
	return {
		cwd: launch.cwd,
		systemPrompt,
		tools: [...(settings.allowed_tools ?? defaultClaudeCodeTools)],
		mcpServers: { ...launch.mcpServers },
		permissionMode: 'default',
		canUseTool: launch.canUseTool,
		settingSources: [],
		persistSession: false,
		// The model's stream as it comes: live text in the lane and each message's final usage.
		includePartialMessages: true,
		env: claudeCodeEnvironment(launch),
		abortController: launch.abortController,
		...(launch.model === codingAgentDefaultModel ? {} : { model: launch.model }),
		...(settings.disallowed_tools ? { disallowedTools: [...settings.disallowed_tools] } : {}),
		...(settings.max_turns === undefined ? {} : { maxTurns: settings.max_turns }),
		...(settings.max_thinking_tokens === undefined
			? {}
			: { thinking: { type: 'enabled', budgetTokens: settings.max_thinking_tokens } }),
		...(settings.cli_path === undefined ? {} : { pathToClaudeCodeExecutable: settings.cli_path }),
	};
}

/** The CLI's whole environment (the SDK does not merge it with ours). */
export function claudeCodeEnvironment(
	launch: Pick<ClaudeCodeLaunch, 'apiKey' | 'baseUrl' | 'hostEnv'>,
): Record<string, string> {
	const env: Record<string, string> = {};
	for (const name of passedVariables) {
		const value = launch.hostEnv[name];
		if (value !== undefined) env[name] = value;
	}
	if (launch.apiKey !== undefined) env['ANTHROPIC_API_KEY'] = launch.apiKey;
	if (launch.baseUrl !== undefined) env['ANTHROPIC_BASE_URL'] = launch.baseUrl;
	return { ...env, ...quietVariables };
}
