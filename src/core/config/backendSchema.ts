import { z } from 'zod';
import { scriptSchema } from '../providers/scriptedSchema.js';
import { isRecord } from './isRecord.js';
import { unsupportedBackendKeys } from './massgenKeys.js';
import { checkMcpServers, commandRegexList, mcpServersSchema, normaliseMcpServers } from './toolsSchema.js';

/** Backend `type`s we can run (architecture §6). */
export const backendTypes = [
	'openai',
	'chatcompletion',
	'grok',
	'openrouter',
	'groq',
	'together',
	'cerebras',
	'fireworks',
	'lmstudio',
	'ollama',
	'vllm',
	'sglang',
	'azure_openai',
	'claude',
	'gemini',
	'vscode_lm',
	'scripted',
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

/** The keys we interpret; any other key goes to `options` (the escape hatch to the provider). */
export const backendObject = z.looseObject({
	type: z.enum(backendTypes).optional().describe('Provider; inferred from `model` when omitted.'),
	model: z.string().min(1).optional().describe('Model id; optional only for `scripted`.'),
	api_key: z.string().min(1).optional().describe('Prefer the environment or VS Code secret storage.'),
	base_url: httpUrl.optional().describe('OpenAI-style: including /v1; Anthropic and Gemini: the host root.'),
	temperature: z.number().min(0).max(2).optional(),
	max_tokens: z.number().int().positive().optional(),
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
	allowed_tools: z
		.array(z.string().min(1))
		.optional()
		.describe('MCP tools this agent may use (unprefixed names).'),
	exclude_tools: z
		.array(z.string().min(1))
		.optional()
		.describe('MCP tools this agent may not use (unprefixed names).'),
	enable_command_execution: z
		.boolean()
		.optional()
		.describe('Offer run_command (in a scratch copy of the workspace; risky commands ask first).'),
	enable_mcp_command_line: z.boolean().optional().describe("MassGen's name for enable_command_execution."),
	command_line_allowed_commands: commandRegexList
		.optional()
		.describe('Regexes (matched at the start); when set, other commands are denied.'),
	command_line_blocked_commands: commandRegexList
		.optional()
		.describe('Regexes (matched at the start) of commands always denied.'),
});

const knownKeys = new Set(Object.keys(backendObject.shape));

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
			if (model === undefined && type !== 'scripted') {
				issue([], "missing required key 'model'", 'missing-model');
			}
			if (type === 'chatcompletion' && backend.base_url === undefined) {
				const message = "type chatcompletion needs 'base_url' (the server's OpenAI-compatible /v1 URL)";
				issue([], message, 'missing-base-url');
			}
			if (type === 'scripted' && script === undefined) {
				issue([], "type scripted needs 'script' (its coordination steps)", 'missing-script');
			}
			if (script !== undefined && type !== 'scripted') {
				issue(['script'], "'script' is only allowed with type: scripted", 'script-not-scripted');
			}
			checkMcpServers(backend.mcp_servers, (path, message, code, target) =>
				issue(path, message, code, target),
			);
			// `when`: check even when sibling keys are invalid, so every issue is reported at once.
		},
		{ when: (payload) => isRecord(payload.value) },
	)
	.transform((backend) => {
		const { type, model, api_key, base_url, temperature, max_tokens } = backend;
		const { reasoning, text, api_version, script } = backend;
		const { mcp_servers, allowed_tools, exclude_tools, enable_command_execution, enable_mcp_command_line } =
			backend;
		const { command_line_allowed_commands, command_line_blocked_commands } = backend;
		const commands = enable_command_execution ?? enable_mcp_command_line;
		const options: Record<string, unknown> = {};
		for (const [key, value] of Object.entries(backend)) {
			if (!knownKeys.has(key) && !(key in unsupportedBackendKeys)) options[key] = value;
		}
		return {
			// The refinement guarantees both; the fallbacks only satisfy the types.
			type: type ?? inferBackendType(model ?? '') ?? 'openai',
			model: model ?? 'scripted',
			...defined({ api_key, base_url, temperature, max_tokens, reasoning, text, api_version, script }),
			...defined({
				mcp_servers: mcp_servers === undefined ? undefined : normaliseMcpServers(mcp_servers),
				allowed_tools,
				exclude_tools,
				enable_command_execution: commands,
				command_line_allowed_commands,
				command_line_blocked_commands,
			}),
			options: options as Readonly<Record<string, unknown>>,
		};
	});

export type BackendConfig = z.output<typeof backendSchema>;

/** Drops undefined members, so serialised configs and spreads stay clean. */
function defined<T extends Record<string, unknown>>(value: T): Partial<T> {
	return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
