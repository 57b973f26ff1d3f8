/**
 * Our tools the CLI calls over its in-process SDK MCP server: the workflow tools (`new_answer`,
 * `vote`, the evaluation's verdicts) and the tools that must run in our runtime (`run_command`
 * under the permission engine, `view_answer_changes`, MCP servers' tools). A call waits in its
 * handler while our turn ends: the runtime runs or decides it like any tool call, and its result
 * (an error with our wording too) answers the handler on the next call of the conversation.
 * Our file tools are not offered: the CLI's own Read/Edit/Write work on the private folder.
 */
import type { McpSdkServerConfigWithInstance } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import type { JsonSchema, ToolDefinition } from '../spec/model.js';
import type { BridgedCall } from './agentTurns.js';
import type { ClaudeSdk } from './claudeCodeSdk.js';

export const bridgeServerName = 'massgen';

/** Ours, but served by the CLI's native tools over the folder. */
const fileTools = new Set([
	'read_file',
	'list_directory',
	'search_files',
	'write_file',
	'edit_file',
	'delete_file',
]);

export interface Bridge {
	readonly server: McpSdkServerConfigWithInstance;
	/** Calls received and not yet handed to the runtime. */
	take(): BridgedCall[];
	/** Resolves when a call arrives (at once when one is waiting). */
	arrived(): Promise<void>;
	/** The tools the current call offers: a call to one it no longer offers is refused in the handler. */
	offer(names: ReadonlySet<string>): void;
}

export function bridgedTools(tools: readonly ToolDefinition[]): ToolDefinition[] {
	return tools.filter((tool) => !fileTools.has(tool.name));
}

export function createBridge(sdk: ClaudeSdk, tools: readonly ToolDefinition[], nextId: () => string): Bridge {
	const waiting: BridgedCall[] = [];
	let wake: (() => void) | undefined;
	let offered: ReadonlySet<string> = new Set(tools.map((tool) => tool.name));
	const handlers = bridgedTools(tools).map((definition) =>
		sdk.tool(definition.name, definition.description, shapeOf(definition.parameters), (args) => {
			if (!offered.has(definition.name)) {
				return Promise.resolve(result(`${definition.name}: tool call limit for this turn reached.`, true));
			}
			return new Promise((resolve) => {
				waiting.push({
					id: nextId(),
					name: definition.name,
					args: args as Record<string, unknown>,
					answer: (text, isError) => resolve(result(text, isError)),
				});
				wake?.();
			});
		}),
	);
	return {
		server: sdk.createSdkMcpServer({ name: bridgeServerName, version: '1.0.0', tools: handlers }),
		take: () => waiting.splice(0),
		arrived: () =>
			waiting.length > 0
				? Promise.resolve()
				: new Promise<void>((resolve) => {
						wake = resolve;
					}),
		offer: (names) => {
			offered = names;
		},
	};
}

function result(text: string, isError: boolean) {
	return { content: [{ type: 'text' as const, text }], ...(isError ? { isError: true } : {}) };
}

/**
 * The tool's parameters as a zod shape for the SDK. Enums become plain strings (their values stay
 * in the description): the SDK would refuse a value outside one before our handler, with its own
 * wording, where our checks answer with the ids that are valid (`decideWorkflow`).
 */
function shapeOf(parameters: JsonSchema): z.ZodRawShape {
	const properties = (parameters['properties'] ?? {}) as Record<string, Record<string, unknown>>;
	const open: Record<string, unknown> = {};
	for (const [name, property] of Object.entries(properties)) {
		const { enum: values, ...rest } = property;
		open[name] = Array.isArray(values)
			? { ...rest, description: `${String(rest['description'] ?? '')} One of: ${values.join(', ')}.`.trim() }
			: property;
	}
	try {
		const schema = z.fromJSONSchema({ ...parameters, properties: open } as Parameters<
			typeof z.fromJSONSchema
		>[0]);
		if (schema instanceof z.ZodObject) return schema.shape;
	} catch {
		// A schema zod cannot express (an MCP server's): its arguments pass unchecked, and the tool checks them.
	}
	return Object.fromEntries(Object.keys(properties).map((name) => [name, z.any()]));
}
