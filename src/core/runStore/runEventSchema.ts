/**
 * Every `RunEvent` body as a zod schema, for replaying a log from disk: the run directory is in the
 * workspace, so a cloned repository can plant an `events.jsonl` whose lines have the envelope and
 * anything else in their body. A line that does not match its type is dropped before the reducer
 * and the webview see it (`hostileRunFiles.test.ts`); unknown keys are stripped.
 */
import { z } from 'zod';
import { isSafeRunId } from '../../contract/runId.js';
import type { RunEvent } from '../../contract/runEvents.js';

const count = z.number().int().nonnegative();
const phase = z.enum(['coordination', 'presentation']);
const base = { runId: z.string(), seq: count, t: z.number() };

const usage = z.object({
	inputTokens: count,
	outputTokens: count,
	reasoningTokens: count.optional(),
	cachedInputTokens: count.optional(),
	cacheWriteTokens: count.optional(),
	webSearchCalls: count.optional(),
});
const budgetCap = z.object({ limit: z.number(), source: z.string() }).nullable();
const budget = z.object({
	maxCostUsd: budgetCap,
	maxTokens: budgetCap,
	spentUsd: z.number(),
	spentTokens: z.number(),
	reason: z.string().optional(),
});
const agentInfo = z.object({
	agentId: z.string(),
	// Logs written before anonymous ids were recorded have none.
	anonId: z.string().default(''),
	provider: z.string(),
	model: z.string(),
	role: z.string().optional(),
});
const attachment = z.object({
	kind: z.enum(['file', 'folder', 'diff', 'diagnostics', 'terminal', 'text', 'image']),
	source: z.string(),
	lines: z.object({ start: z.number(), end: z.number() }).optional(),
	mediaType: z.string().optional(),
	bytes: count,
	sha256: z.string(),
	truncated: z.boolean().optional(),
});
const agentEvent = { ...base, agentId: z.string() };
/**
 * A checklist and a vote's scores, bounded like the orchestrator bounds them (`checklistLimits`): a
 * planted log cannot make the panel draw a table of a million cells.
 */
const criterionId = z.string().max(16);
export const checklistCriterionSchema = z.object({
	id: criterionId,
	text: z.string().max(4_096),
	category: z.enum(['primary', 'standard', 'stretch']),
	round: count,
	proposedBy: z.string().optional(),
});
export const checklistCriteriaSchema = z.array(checklistCriterionSchema).max(200);
export const voteScoresSchema = z
	.array(
		z.object({
			label: z.string().max(64),
			criteria: z.array(z.object({ id: criterionId, score: z.number().int().min(1).max(10) })).max(200),
		}),
	)
	.max(64);
/** `coordination-end`'s body and `result.json`'s `coordination`. */
export const coordinationRecord = z.object({
	ended: z.enum(['consensus', 'quorum', 'finished-by-user', 'timeout', 'budget', 'exhausted', 'cancelled']),
	quorum: z.object({ required: count, votes: count, label: z.string() }).optional(),
	saved: z
		.object({
			callsStopped: count,
			agentsNotWaitedFor: z.array(z.string()),
			estimatedCostUsd: z.number().nonnegative().nullable(),
		})
		.optional(),
});

/** A plan id names a plan file (`.massgen/plans/<planId>.md`): a run id, never a path. */
const planIdSchema = z.string().max(64).refine(isSafeRunId);
/** A plan document holds at most 200 steps (`planDocumentLimits`). */
const stepCount = z.number().int().min(1).max(200);

/** A run's part in a plan (`contract/plan.ts`); bounded, as a planted file can fill it. */
export const planRecordSchema = z.discriminatedUnion('kind', [
	z.object({
		kind: z.literal('planning'),
		planId: planIdSchema,
		depth: z.enum(['shallow', 'medium', 'deep', 'dynamic']),
		task: z.string().max(20_000),
	}),
	z
		.object({
			kind: z.literal('step'),
			planId: planIdSchema,
			step: stepCount,
			of: stepCount,
			title: z.string().max(2_000),
		})
		.refine((record) => record.step <= record.of),
	z.object({ kind: z.literal('all'), planId: planIdSchema, of: stepCount }),
]);

/** The first line of `events.jsonl`: the past-runs list, reports and Re-run read only it (`readRunStart`). */
export const runStartSchema = z.object({
	...base,
	type: z.literal('run-start'),
	question: z.string(),
	workspace: z.string(),
	agents: z.array(agentInfo),
	attachments: z.array(attachment).optional(),
	instructions: z
		.array(
			z.object({ path: z.string(), bytes: count, sha256: z.string(), truncated: z.boolean().optional() }),
		)
		.optional(),
	session: z.object({ id: z.string().min(1), parentRunId: z.string().nullable() }).optional(),
	budget: budget.optional(),
	/** A malformed plan record reads as none. */
	plan: planRecordSchema.optional().catch(undefined),
});

export const runEventSchema = z.discriminatedUnion('type', [
	runStartSchema,
	z.object({ ...agentEvent, type: z.literal('round-start'), round: count, snapshot: z.array(z.string()) }),
	z.object({ ...agentEvent, type: z.literal('text-delta'), phase, text: z.string() }),
	z.object({ ...agentEvent, type: z.literal('reasoning-delta'), phase, text: z.string() }),
	z.object({
		...agentEvent,
		type: z.literal('tool-call'),
		phase,
		callId: z.string(),
		name: z.string(),
		args: z.record(z.string(), z.unknown()),
	}),
	z.object({
		...agentEvent,
		type: z.literal('tool-result'),
		phase,
		callId: z.string(),
		name: z.string(),
		isError: z.boolean(),
		text: z.string(),
		planned: z.literal(true).optional(),
	}),
	z.object({
		...agentEvent,
		type: z.literal('provider-tool'),
		phase,
		callId: z.string(),
		kind: z.enum(['search', 'fetch', 'code']),
		query: z.string().optional(),
		code: z.string().optional(),
		sources: z.array(z.object({ title: z.string(), url: z.string() })).optional(),
		output: z.string().optional(),
		isError: z.boolean(),
	}),
	z.object({
		...agentEvent,
		type: z.literal('approval-request'),
		requestId: z.string(),
		action: z.string(),
		target: z.string(),
		reason: z.string(),
	}),
	z.object({
		...agentEvent,
		type: z.literal('approval-result'),
		requestId: z.string(),
		decision: z.enum(['allow', 'deny']),
		by: z.enum(['user', 'rule', 'timeout']),
	}),
	z.object({
		...base,
		type: z.literal('command-sandbox'),
		mode: z.enum(['bubblewrap', 'sandbox-exec', 'none', 'off']),
		network: z.boolean(),
		scratch: z.enum(['overlay', 'copy']).optional(),
		notice: z.string(),
	}),
	z.object({
		...base,
		type: z.literal('notice'),
		agentId: z.string().optional(),
		source: z.literal('tools').optional(),
		message: z.string(),
	}),
	z.object({ ...agentEvent, type: z.literal('update-injected'), labels: z.array(z.string()) }),
	z.object({
		...base,
		type: z.literal('steer'),
		id: count,
		text: z.string(),
		agents: z.array(z.string()),
		targetAgentId: z.string().optional(),
		noteOnly: z.boolean(),
	}),
	z.object({ ...agentEvent, type: z.literal('steer-delivered'), id: count, phase }),
	z.object({ ...base, type: z.literal('coordination-end'), ...coordinationRecord.shape }),
	z.object({ ...agentEvent, type: z.literal('new-answer'), label: z.string(), content: z.string() }),
	z.object({
		...agentEvent,
		type: z.literal('vote'),
		voter: z.string(),
		votedFor: z.string(),
		votedForAgent: z.string(),
		reason: z.string(),
		scores: voteScoresSchema.optional(),
	}),
	z.object({
		...base,
		type: z.literal('checklist'),
		criteria: checklistCriteriaSchema,
		threshold: z.number().int().min(1).max(10),
	}),
	z.object({
		...base,
		type: z.literal('votes-invalidated'),
		voters: z.array(z.string()),
		byLabel: z.string(),
	}),
	z.object({ ...agentEvent, type: z.literal('workflow-error'), attempt: count, message: z.string() }),
	z.object({
		...agentEvent,
		type: z.literal('agent-error'),
		message: z.string(),
		kind: z.string(),
		retryable: z.boolean(),
		failures: count,
	}),
	z.object({ ...agentEvent, type: z.literal('agent-killed'), reason: z.string() }),
	z.object({ ...agentEvent, type: z.literal('agent-stopped'), reason: z.literal('user') }),
	z.object({
		...base,
		type: z.literal('budget-reached'),
		kind: z.enum(['cost', 'tokens']),
		limit: z.number(),
		spent: z.number(),
		reason: z.string(),
	}),
	z.object({
		...agentEvent,
		type: z.literal('winner-selected'),
		label: z.string(),
		tally: z.record(z.string(), count),
		reason: z.enum(['votes', 'tie-break', 'no-votes']),
	}),
	z.object({ ...agentEvent, type: z.literal('presentation-start') }),
	z.object({
		...agentEvent,
		type: z.literal('file-edit'),
		phase,
		path: z.string(),
		kind: z.enum(['add', 'modify', 'delete']),
	}),
	z.object({ ...agentEvent, type: z.literal('final-answer'), label: z.string(), content: z.string() }),
	z.object({
		...agentEvent,
		type: z.literal('call-aborted'),
		phase,
		reason: z.enum(['stale', 'stopped']),
		elapsedMs: z.number().nonnegative(),
		hadOutput: z.boolean(),
		usage: usage.optional(),
	}),
	z.object({
		...agentEvent,
		type: z.literal('compacted'),
		phase,
		tokensBefore: z.number().int().nonnegative(),
		tokensAfter: z.number().int().nonnegative(),
		how: z.enum(['summary', 'truncation']),
		messagesSummarised: z.number().int().nonnegative(),
	}),
	z.object({ ...agentEvent, type: z.literal('usage'), usage, costUsd: z.number().nonnegative().nullable() }),
	z.object({ ...agentEvent, type: z.literal('evaluation-start'), attempt: count }),
	z.object({
		...agentEvent,
		type: z.literal('evaluation-end'),
		attempt: count,
		verdict: z.enum(['submitted', 'restart', 'auto']),
		reason: z.string().optional(),
		instructions: z.string().optional(),
	}),
	z.object({
		...base,
		type: z.literal('attempt-start'),
		attempt: count,
		reason: z.string(),
		instructions: z.string(),
	}),
	z.object({
		...base,
		type: z.literal('run-end'),
		status: z.enum(['completed', 'cancelled', 'timeout', 'failed']),
		durationMs: z.number().nonnegative(),
		error: z.string().optional(),
		budget: budget.optional(),
	}),
]);

// The schema and the contract describe the same events: an event or a field (optional ones too)
// added to one and not the other stops the type check here.
type Parsed = z.infer<typeof runEventSchema>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type SameKeys = {
	[T in RunEvent['type']]: Same<keyof Extract<Parsed, { type: T }>, keyof Extract<RunEvent, { type: T }>>;
}[RunEvent['type']];
export const schemaMatchesContract: Same<Parsed, RunEvent> & ([false] extends [SameKeys] ? false : true) =
	true;
