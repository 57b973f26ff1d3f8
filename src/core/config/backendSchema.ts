import { z } from 'zod';
import { providerPresets } from '../providers/spec/presets.js';
import {
	codingAgentDefaultModel,
	codingAgentTypes,
	isCodingAgentType,
	type CodingAgentSettings,
} from '../providers/spec/codingAgentTypes.js';
import { scriptSchema } from '../providers/spec/scriptedSchema.js';
import { baseUrlVariables } from './baseUrlVariables.js';
import { isRecord } from './isRecord.js';
import { unsupportedBackendKeys } from './massgenKeys.js';
import { checkMcpServers, commandRegexList, mcpServersSchema, normaliseMcpServers } from './toolsSchema.js';

/** Backend `type`s a config may name (docs/config.md). */
export const backendTypes = [
	'openai',
	'chatcompletion',
	'grok',
	'openrouter',
	'groq',
	'together',
	'cerebras',
	'fireworks',
	'nebius',
	'moonshot',
	'qwen',
	'zai',
	'poe',
	'lmstudio',
	'ollama',
	'vllm',
	'sglang',
	'azure_openai',
	'claude',
	'gemini',
	'vscode_lm',
	'scripted',
	...codingAgentTypes,
] as const;

export type BackendType = (typeof backendTypes)[number];

/** MassGen's model-name inference (`utils.get_backend_type_from_model`), for configs without `type`. */
export function inferBackendType(model: string): BackendType | undefined {
	const name = model.toLowerCase();
	if (/^(gpt-|chatgpt-|o[134](-|$))/.test(name)) return 'openai';
	if (name.startsWith('claude-')) return 'claude';
	if (name.startsWith('gemini-')) return 'gemini';
	if (name.startsWith('grok-')) return 'grok';
	return undefined;
}

const httpUrl = z.url({
	protocol: /^https?$/,
	error: 'expected an http(s) URL such as http://localhost:11434/v1',
});

const toolNames = z.array(z.string().min(1));

/** MassGen's `claude_code` keys; only a coding agent may have them. */
const codingAgentKeys = {
	disallowed_tools: toolNames
		.optional()
		.describe('Coding agents: native tools it may not use (e.g. Bash(rm*)).'),
	system_prompt: z
		.string()
		.optional()
		.describe("Coding agents: the agent's role (our coordination prompt stays)."),
	append_system_prompt: z.string().optional().describe('Coding agents: more role text, after system_prompt.'),
	max_turns: z
		.number()
		.int()
		.positive()
		.optional()
		.describe("Coding agents: cap on the CLI's own turns per call."),
	max_thinking_tokens: z.number().int().positive().optional().describe('Coding agents: thinking budget.'),
	cli_path: z
		.string()
		.min(1)
		.optional()
		.describe('Coding agents: the CLI executable (default: found on PATH).'),
};

/** The keys we interpret; any other key goes to `options` (the escape hatch to the provider). */
export const backendObject = z.looseObject({
	type: z.enum(backendTypes).optional().describe('Provider; inferred from `model` when omitted.'),
	model: z.string().min(1).optional().describe('Model id; optional only for `scripted` and coding agents.'),
	api_key: z.string().min(1).optional().describe('Prefer the environment or VS Code secret storage.'),
	base_url: httpUrl.optional().describe('OpenAI-style: including /v1; Anthropic and Gemini: the host root.'),
	temperature: z.number().min(0).max(2).optional(),
	max_tokens: z.number().int().positive().optional(),
	context_window: z
		.number()
		.int()
		.positive()
		.optional()
		.describe(
			"Tokens per request the model takes (overrides the price table's); longer conversations are compacted.",
		),
	reasoning: z
		.looseObject({
			effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).optional(),
			summary: z.enum(['auto', 'concise', 'detailed']).optional(),
		})
		.optional(),
	text: z.looseObject({ verbosity: z.enum(['low', 'medium', 'high']).optional() }).optional(),
	api_version: z.string().min(1).optional().describe('Azure OpenAI API version.'),
	script: scriptSchema.optional().describe('Required for, and only allowed with, type: scripted.'),
	mcp_servers: mcpServersSchema.optional(),
	allowed_tools: toolNames
		.optional()
		.describe('MCP tools this agent may use (unprefixed names); a coding agent: its native tools.'),
	exclude_tools: z
		.array(z.string().min(1))
		.optional()
		.describe('MCP tools this agent may not use (unprefixed names).'),
	enable_command_execution: z
		.boolean()
		.optional()
		.describe('Offer run_command (in a scratch copy of the workspace; risky commands ask first).'),
	enable_mcp_command_line: z.boolean().optional().describe("MassGen's name for enable_command_execution."),
	enable_web_search: z.boolean().optional().describe("The provider's own web search, with citations."),
	enable_code_execution: z.boolean().optional().describe("The provider's own code execution (its sandbox)."),
	enable_code_interpreter: z
		.boolean()
		.optional()
		.describe("MassGen's name for enable_code_execution (OpenAI)."),
	command_line_allowed_commands: commandRegexList
		.optional()
		.describe('Regexes (matched at the start); when set, other commands are denied.'),
	command_line_blocked_commands: commandRegexList
		.optional()
		.describe('Regexes (matched at the start) of commands always denied.'),
	...codingAgentKeys,
});

const knownKeys = new Set(Object.keys(backendObject.shape));
const codingAgentKeyNames = Object.keys(codingAgentKeys) as (keyof typeof codingAgentKeys)[];

/** One agent's `backend`, with `type` and `model` always set. */
export const backendSchema = backendObject
	.superRefine(
		(backend, ctx) => {
			const { type, model, script } = backend;
			// Missing keys are reported at the `backend:` key; a bad model name at its value.
			const issue = (path: (string | number)[], message: string, code: string, target = 'key'): void => {
				ctx.addIssue({ code: 'custom', path, message, params: { code, target } });
			};
			if (type === undefined && typeof model === 'string' && inferBackendType(model) === undefined) {
				issue(
					['model'],
					`cannot infer the backend type from model '${model}': add 'type' (e.g. openai, claude, gemini, ollama)`,
					'unknown-backend-type',
					'value',
				);
			}
			if (model === undefined && type !== 'scripted' && !isCodingAgentType(type)) {
				issue([], "missing required key 'model'", 'missing-model');
			}
			// A type whose URL MassGen also reads from the environment is checked with the keys (checkApiKeys).
			const fromEnv = type !== undefined && Object.hasOwn(baseUrlVariables, type);
			if (
				type !== undefined &&
				providerPresets[type]?.baseUrlRequired &&
				backend.base_url === undefined &&
				!fromEnv
			) {
				const where =
					type === 'chatcompletion' ? "the server's OpenAI-compatible /v1 URL" : `${type}'s API URL`;
				issue([], `type ${type} needs 'base_url' (${where})`, 'missing-base-url');
			}
			if (type === 'scripted' && script === undefined) {
				issue([], "type scripted needs 'script' (its coordination steps)", 'missing-script');
			}
			if (script !== undefined && type !== 'scripted') {
				issue(['script'], "'script' is only allowed with type: scripted", 'script-not-scripted');
			}
			if (!isCodingAgentType(type)) {
				for (const key of codingAgentKeyNames.filter((name) => backend[name] !== undefined)) {
					const message = `'${key}' is only allowed with a coding agent (type: ${codingAgentTypes.join(', ')})`;
					issue([key], message, 'coding-agent-key');
				}
			}
			checkMcpServers(backend.mcp_servers, (path, message, code, target) =>
				issue(path, message, code, target),
			);
			// `when`: check even when sibling keys are invalid, so every issue is reported at once.
		},
		{ when: (payload) => isRecord(payload.value) },
	)
	.transform((backend) => {
		const { type, model, api_key, base_url, temperature, max_tokens, context_window } = backend;
		const coding = isCodingAgentType(type);
		const { reasoning, text, api_version, script } = backend;
		const { mcp_servers, allowed_tools, exclude_tools, enable_command_execution, enable_mcp_command_line } =
			backend;
		const { command_line_allowed_commands, command_line_blocked_commands } = backend;
		const commands = enable_command_execution ?? enable_mcp_command_line;
		const { enable_web_search, enable_code_execution, enable_code_interpreter } = backend;
		const code = enable_code_execution ?? enable_code_interpreter;
		// A coding agent's CLI takes no provider options: its unknown keys are warned about and dropped.
		const options: Record<string, unknown> = {};
		for (const [key, value] of Object.entries(backend)) {
			if (!coding && !knownKeys.has(key) && !(key in unsupportedBackendKeys)) options[key] = value;
		}
		return {
			// The refinement guarantees both; the fallbacks only satisfy the types.
			type: type ?? inferBackendType(model ?? '') ?? 'openai',
			// A coding agent without `model` uses its CLI's own default.
			model: model ?? (coding ? codingAgentDefaultModel : 'scripted'),
			...defined({ api_key, base_url, temperature, max_tokens, reasoning, text, api_version, script }),
			...defined({ context_window }),
			...defined({
				mcp_servers: mcp_servers === undefined ? undefined : normaliseMcpServers(mcp_servers),
				// A coding agent's `allowed_tools` names its native tools (Read, Bash…), not MCP tools.
				allowed_tools: coding ? undefined : allowed_tools,
				exclude_tools,
				enable_command_execution: commands,
				command_line_allowed_commands,
				command_line_blocked_commands,
				enable_web_search,
				enable_code_execution: code,
				coding_agent: coding ? codingAgentSettings(backend) : undefined,
			}),
			options: options as Readonly<Record<string, unknown>>,
		};
	});

export type BackendConfig = z.output<typeof backendSchema>;

function codingAgentSettings(backend: z.output<typeof backendObject>): CodingAgentSettings {
	const { allowed_tools, disallowed_tools, system_prompt, append_system_prompt } = backend;
	const { max_turns, max_thinking_tokens, cli_path } = backend;
	return defined({
		allowed_tools,
		disallowed_tools,
		system_prompt,
		append_system_prompt,
		max_turns,
		max_thinking_tokens,
		cli_path,
	});
}

/** Drops undefined members, so serialised configs and spreads stay clean. */
function defined<T extends Record<string, unknown>>(value: T): Partial<T> {
	return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
