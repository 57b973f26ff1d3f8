/**
 * How a `codex` agent's CLI is started (docs/coding-agents.md): its config and the run's choices → the Codex
 * SDK's client and thread options. Type-only use of the SDK (an ES module): loading it is the
 * adapter's business, only when a team has such an agent.
 *
 * What the config cannot change, whatever it says:
 * - the model is reached through one provider of ours (`massgen`, Responses wire, the key in
 *   `OPENAI_API_KEY`), so `base_url` and the key are the agent's own and nothing else's;
 * - `CODEX_HOME` is a private folder of the run: the user's `~/.codex` config, rules, skills,
 *   MCP servers and session history are never read or written (nor its login: a key is needed);
 * - the CLI has no shell: its command tools (`shell_tool`, `unified_exec`: `exec_command`,
 *   `write_stdin`, `shell`, `local_shell`) are off, so a command runs only through our bridged
 *   `run_command` (permission engine, approvals, command sandbox); a scripted call of theirs is
 *   answered "unsupported call" and never runs. No hooks (commands a config would start), no
 *   shell snapshot (the login shell the CLI would start for its shell), no `view_image` (a read
 *   of any path);
 * - approvals are never asked (`codex exec` cannot ask) and never granted beyond the sandbox:
 *   its patches go through Codex's own sandbox policy, writable only in the agent's scratch
 *   folder (not /tmp, not $TMPDIR), without network, and a refusal goes back to the model;
 * - the environment is replaced, and commands get only the core variables (never the key);
 * - no analytics, feedback uploads, update checks, memories, web search or sub-agents.
 */
import type { CodexOptions, ModelReasoningEffort, ThreadOptions } from '@openai/codex-sdk';
import { codingAgentDefaultModel, type CodingAgentSettings } from '../spec/codingAgentTypes.js';
import { codexBridgeTokenVariable } from './codexBridge.js';

/** The provider id our config defines for the CLI. */
export const codexProviderId = 'massgen';
/** The variable the CLI reads the agent's key from (named by our provider's `env_key`). */
export const codexKeyVariable = 'OPENAI_API_KEY';
const defaultBaseUrl = 'https://api.openai.com/v1';

/** Host variables the CLI needs to run (never another provider's key). */
const passedVariables = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LC_ALL', 'SYSTEMROOT'] as const;

/** Codex's own prompt speaks of its shell: ours says where commands go instead. */
const noShellNote =
	'You have no shell here. Edit files with apply_patch; run a command only with the run_command tool ' +
	"of the massgen server, where it is offered (it runs under the user's permission rules).";

/** MassGen's `claude_code` keys Codex has no counterpart for: dropped, and the adapter warns by name. */
const unmappedKeys = ['allowed_tools', 'disallowed_tools', 'max_turns', 'max_thinking_tokens'] as const;

/** An MCP server of ours the CLI connects to (the workflow and workspace tools). */
export type CodexMcpServer =
	| { readonly url: string }
	| {
			readonly command: string;
			readonly args?: readonly string[];
			readonly env?: Readonly<Record<string, string>>;
	  };

export interface CodexLaunch {
	readonly settings: CodingAgentSettings;
	/** The config's `model`; `default` leaves the choice to the CLI. */
	readonly model: string;
	/** The config's `reasoning.effort`. */
	readonly reasoningEffort?: string;
	/** The resolved `OPENAI_API_KEY` (config, secrets, environment, .env). */
	readonly apiKey?: string;
	/** The config's `base_url` (OpenAI style, with `/v1`). */
	readonly baseUrl?: string;
	/** The host environment the allowed variables are taken from. */
	readonly hostEnv: Readonly<Record<string, string | undefined>>;
	/**
	 * The agent's private `CODEX_HOME`. Not under the OS temp folder: Codex then refuses to install
	 * the helper its Linux sandbox runs commands through, and every command fails.
	 */
	readonly codexHome: string;
	/** The agent's scratch folder: never the user's workspace. */
	readonly cwd: string;
	/** Our coordination (or presentation) prompt; the config's role text is appended to it. */
	readonly systemPrompt: string;
	/** Our MCP servers; their tools are ours to check, so the CLI calls them without asking. */
	readonly mcpServers: Readonly<Record<string, CodexMcpServer>>;
	/** Our loopback bridge (`codexBridge.ts`): its URL and bearer token. */
	readonly bridge?: { readonly name: string; readonly url: string; readonly token: string };
	/** `read-only` for an agent that may not edit (e.g. while it only evaluates). */
	readonly sandbox?: 'read-only' | 'workspace-write';
}

export interface CodexLaunchOptions {
	readonly client: CodexOptions;
	readonly thread: ThreadOptions;
	/** The config's keys this CLI cannot honour (for a warning that names them). */
	readonly ignoredKeys: readonly string[];
}

/** The SDK options for one launch; `model: default` leaves the CLI's default model. */
export function codexOptions(launch: CodexLaunch): CodexLaunchOptions {
	const { settings } = launch;
	const role = [settings.system_prompt, settings.append_system_prompt].filter((text) => text?.trim());
	const effort = codexReasoningEffort(launch.reasoningEffort);
	const servers: Record<string, CodexMcpServer & { bearer_token_env_var?: string }> = {
		...launch.mcpServers,
	};
	if (launch.bridge) {
		servers[launch.bridge.name] = { url: launch.bridge.url, bearer_token_env_var: codexBridgeTokenVariable };
	}
	// A bridged call waits for the runtime, which may answer only at the agent's next call.
	const mcpServers = Object.fromEntries(
		Object.entries(servers).map(([name, server]) => [
			name,
			{ ...server, required: true, default_tools_approval_mode: 'approve', tool_timeout_sec: 86_400 },
		]),
	);
	const client: CodexOptions = {
		env: {
			...codexEnvironment(launch),
			...(launch.bridge ? { [codexBridgeTokenVariable]: launch.bridge.token } : {}),
		},
		config: {
			model_provider: codexProviderId,
			model_providers: {
				[codexProviderId]: {
					name: 'MassGen',
					base_url: launch.baseUrl ?? defaultBaseUrl,
					wire_api: 'responses',
					env_key: codexKeyVariable,
				},
			},
			developer_instructions: [launch.systemPrompt, noShellNote, ...role].join('\n\n'),
			project_doc_max_bytes: 0,
			sandbox_workspace_write: {
				network_access: false,
				exclude_slash_tmp: true,
				exclude_tmpdir_env_var: true,
			},
			shell_environment_policy: { inherit: 'core' },
			analytics: { enabled: false },
			feedback: { enabled: false },
			check_for_update_on_startup: false,
			history: { persistence: 'none' },
			memories: { generate_memories: false, use_memories: false },
			features: {
				multi_agent: false,
				goals: false,
				shell_tool: false,
				unified_exec: false,
				hooks: false,
				view_image: false,
				// Without a shell there is nothing to snapshot (it would start the user's login shell).
				shell_snapshot: false,
			},
			mcp_servers: mcpServers as NonNullable<CodexOptions['config']>,
		},
		...(settings.cli_path === undefined ? {} : { codexPathOverride: settings.cli_path }),
	};
	const thread: ThreadOptions = {
		workingDirectory: launch.cwd,
		skipGitRepoCheck: true,
		sandboxMode: launch.sandbox ?? 'workspace-write',
		approvalPolicy: 'never',
		networkAccessEnabled: false,
		webSearchMode: 'disabled',
		...(launch.model === codingAgentDefaultModel ? {} : { model: launch.model }),
		...(effort === undefined ? {} : { modelReasoningEffort: effort }),
	};
	const ignoredKeys = unmappedKeys.filter((key) => settings[key] !== undefined);
	return { client, thread, ignoredKeys };
}

/** Our `reasoning.effort` in Codex's terms (it has no `none`: the least it does is `minimal`). */
function codexReasoningEffort(effort: string | undefined): ModelReasoningEffort | undefined {
	if (effort === undefined) return undefined;
	return effort === 'none' ? 'minimal' : (effort as ModelReasoningEffort);
}

/** The CLI's whole environment (the SDK does not merge it with ours). */
export function codexEnvironment(
	launch: Pick<CodexLaunch, 'apiKey' | 'hostEnv' | 'codexHome'>,
): Record<string, string> {
	const env: Record<string, string> = {};
	for (const name of passedVariables) {
		const value = launch.hostEnv[name];
		if (value !== undefined) env[name] = value;
	}
	env['CODEX_HOME'] = launch.codexHome;
	if (launch.apiKey !== undefined) env[codexKeyVariable] = launch.apiKey;
	return env;
}
