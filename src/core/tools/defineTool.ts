import { z } from 'zod';
import type { ToolDefinition } from '../providers/spec/model.js';
import { PathRefusedError } from '../workspace/pathRefusedError.js';
import type { Overlay, PathMode } from '../workspace/types.js';
import type { ToolOutcome } from '../providers/spec/toolOutcome.js';
import { errorMessage } from '../util/errorMessage.js';

/** What a tool runs against: one agent's overlay and the call's cancellation signal. */
export interface ToolContext {
	readonly overlay: Overlay;
	readonly maxReadBytes: number;
	readonly signal: AbortSignal;
	/** Milliseconds on a monotonic scale for the tools' time limits (a test freezes it to reach the count limits). */
	readonly now: () => number;
}

/** A tool with its model-facing definition; `execute` never throws. */
export interface Tool {
	readonly definition: ToolDefinition;
	execute(args: Record<string, unknown>, context: ToolContext): Promise<ToolOutcome>;
}

/** An expected failure inside a tool; its message becomes the error text after `<tool>: `. */
export class ToolError extends Error {
	override readonly name = 'ToolError';
}

/**
 * Builds a tool from a zod argument schema (the single source of both the JSON Schema the
 * model sees and the validation of what it sends) and a body that may throw: `ToolError`,
 * `PathRefusedError` and any other error all come back as `isError` outcomes.
 */
export function defineTool<Args extends z.ZodObject>(
	name: string,
	description: string,
	args: Args,
	run: (args: z.output<Args>, context: ToolContext) => Promise<ToolOutcome>,
): Tool {
	const { $schema: _ignored, ...parameters } = z.toJSONSchema(args, {
		io: 'input',
		override: dropSafeIntegerBounds,
	});
	const fail = (text: string): ToolOutcome => ({ text: `${name}: ${text}`, isError: true });
	return {
		definition: { name, description, parameters },
		async execute(raw, context) {
			if (context.signal.aborted) return fail('cancelled');
			// Models often send null for an omitted optional argument; treat it as absent.
			const entries = Object.entries(isRecord(raw) ? raw : {});
			const cleaned = Object.fromEntries(entries.filter(([, value]) => value !== null));
			const parsed = args.safeParse(cleaned);
			if (!parsed.success) return fail(parsed.error.issues.map(describeIssue).join('; '));
			try {
				return await run(parsed.data, context);
			} catch (error) {
				if (PathRefusedError.is(error)) return fail(error.reason);
				return fail(errorMessage(error));
			}
		},
	};
}

/** The normalised workspace-relative form of `path` (as events and change sets name it); throws if refused. */
export async function resolvePath(overlay: Overlay, path: string, mode: PathMode): Promise<string> {
	const resolved = await overlay.workspace.resolve(path, mode);
	if (!resolved.ok) throw new PathRefusedError(resolved.path, resolved.reason);
	return resolved.path;
}

/** A successful outcome. */
export function success(text: string, edit?: ToolOutcome['edit']): ToolOutcome {
	return edit === undefined ? { text, isError: false } : { text, isError: false, edit };
}

/** zod bounds every `int()` by ±2^53-1: bytes on every request that tell a model nothing. */
function dropSafeIntegerBounds({ jsonSchema }: { jsonSchema: Record<string, unknown> }): void {
	if (jsonSchema['maximum'] === Number.MAX_SAFE_INTEGER) delete jsonSchema['maximum'];
	if (jsonSchema['minimum'] === Number.MIN_SAFE_INTEGER) delete jsonSchema['minimum'];
}

function describeIssue(issue: z.core.$ZodIssue): string {
	const key = issue.path.length > 0 ? `'${issue.path.join('.')}'` : 'the arguments';
	if (issue.code === 'invalid_type') return `${key} must be ${article(issue.expected)} ${issue.expected}`;
	return `${key}: ${issue.message}`;
}

function article(word: string): string {
	return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
