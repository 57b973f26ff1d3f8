import { z } from 'zod';

/**
 * The declarative script of a `type: scripted` backend: a model that plays answers, votes,
 * edits and faults without any network, for demos, CLI tests and benchmarks.
 */
export const scriptFaultSchema = z.strictObject({
	kind: z.enum(['auth', 'rate-limit', 'context-length', 'server', 'network', 'invalid-response']),
	status: z.number().int().optional(),
	retry_after_ms: z.number().int().nonnegative().optional(),
	message: z.string().optional(),
});

export const scriptEditSchema = z.strictObject({
	path: z.string().min(1),
	/** New content; omit together with `delete: true` to delete the file. */
	content: z.string().optional(),
	delete: z.literal(true).optional(),
});

/** Any other tool call (e.g. `run_command` or an MCP tool `mcp__<server>__<tool>`), with its arguments. */
export const scriptToolCallSchema = z.strictObject({
	name: z.string().min(1),
	arguments: z.record(z.string(), z.unknown()).optional(),
});

/** One coordination call. `vote` wins when the snapshot has answers, else `answer` is used. */
export const scriptStepSchema = z.strictObject({
	text: z.string().optional(),
	reasoning: z.string().optional(),
	answer: z.string().optional(),
	/** `first` or `last` of the answers the conversation shows, or an anonymous id such as `agent2`. */
	vote: z.string().optional(),
	reason: z.string().optional(),
	/** Edits made (to the agent's overlay) before the workflow call. */
	edits: z.array(scriptEditSchema).optional(),
	/** Tool calls made (together with `edits`, before them) before the workflow call; their results only end the step's first call. */
	tool_calls: z.array(scriptToolCallSchema).optional(),
	fail: scriptFaultSchema.optional(),
});

/** One post-evaluation call: restart with reasons, or submit; neither = no verdict (the answer stands). */
export const scriptEvaluationSchema = z.strictObject({
	text: z.string().optional(),
	restart: z.strictObject({ reason: z.string(), instructions: z.string().default('') }).optional(),
	submit: z.literal(true).optional(),
	/** Read tools called before the verdict. */
	tool_calls: z.array(scriptToolCallSchema).optional(),
});

export const scriptSchema = z.strictObject({
	/** Time each model call takes, spread over its streamed chunks. */
	latency_ms: z.number().int().nonnegative().default(0),
	/** Number of text chunks a call's text is streamed in. */
	chunks: z.number().int().positive().default(4),
	/** Coordination calls in order; the last step repeats. */
	coordination: z.array(scriptStepSchema).min(1),
	presentation: z
		.strictObject({
			text: z.string().optional(),
			edits: z.array(scriptEditSchema).optional(),
			fail: scriptFaultSchema.optional(),
		})
		.default({}),
	/** Post-evaluation calls in order (one per attempt); the last repeats; none = submit. */
	evaluation: z.array(scriptEvaluationSchema).default([]),
	/** Tokens reported per call (input, output). */
	usage: z
		.strictObject({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative() })
		.default({ input: 100, output: 50 }),
});

export type Script = z.infer<typeof scriptSchema>;
export type ScriptStep = z.infer<typeof scriptStepSchema>;
export type ScriptEdit = z.infer<typeof scriptEditSchema>;
export type ScriptFault = z.infer<typeof scriptFaultSchema>;
export type ScriptToolCall = z.infer<typeof scriptToolCallSchema>;
export type ScriptEvaluation = z.infer<typeof scriptEvaluationSchema>;
