/**
 * What a run directory's files must hold to be read back. The folder is workspace content a cloned
 * repository can fill, so every file is checked before use and a malformed one is a reason in
 * words (the first zod issue, by the field it is about), never a crash further on. Only what the
 * readers use is checked; the rest of a file is kept as written (`looseObject`). The lines of
 * `events.jsonl` are checked whole, each by its event type (`runEventSchema.ts`).
 */
import { z } from 'zod';
import type { RunStatus } from '../../contract/runEvents.js';
import {
	checklistCriteriaSchema,
	coordinationRecord,
	planRecordSchema,
	voteScoresSchema,
} from './runEventSchema.js';

const runStatuses = ['completed', 'cancelled', 'timeout', 'failed'] as const satisfies readonly RunStatus[];

const runStatusSchema = z.enum(runStatuses);

const winnerSchema = z.object({ agentId: z.string(), label: z.string() });

const sessionRecordSchema = z.object({ id: z.string().min(1), parentRunId: z.string().nullable() });

/** What the past-runs list reads of `result.json`; a malformed winner lists as none. */
export const resultSummarySchema = z.looseObject({
	question: z.string(),
	status: runStatusSchema,
	winner: winnerSchema.nullable().catch(null),
	/** ISO 8601; checked by `recordedStart` (an unreadable one falls back to the run id). */
	startedAt: z.unknown().optional(),
	/** A malformed plan record lists as none. */
	plan: planRecordSchema.optional().catch(undefined),
});

const changeSchema = z.looseObject({
	path: z.string(),
	kind: z.enum(['add', 'modify', 'delete']),
	base: z.string().nullable(),
	content: z.string().nullable(),
});

const lineRange = { line: z.number().int().min(1), endLine: z.number().int().min(1) };

const revisionRecordSchema = z.looseObject({
	fromRunId: z.string(),
	comments: z
		.array(
			z.looseObject({
				id: z.string().max(8),
				ref: z.string().max(200).optional(),
				path: z.string(),
				...lineRange,
				text: z.string().max(4_000),
				addressed: z.boolean(),
				now: z.object(lineRange).nullable(),
			}),
		)
		.max(100),
	userEdited: z.array(z.string()),
});

/** `result.json` of run `runId` as a turn (sessions, reports, history). */
export function runResultSchema(runId: string) {
	return z.looseObject({
		runId: z.literal(runId),
		question: z.string(),
		status: runStatusSchema,
		winner: winnerSchema.nullable(),
		finalAnswer: z.string().nullable(),
		answers: z.array(z.looseObject({ agentId: z.string(), label: z.string(), content: z.string() })),
		votes: z.array(
			z.looseObject({
				voter: z.string(),
				votedFor: z.string(),
				votedForLabel: z.string(),
				reason: z.string(),
				/** A malformed score table reads as none. */
				scores: voteScoresSchema.optional().catch(undefined),
			}),
		),
		/** The checklist in force at the end (the panel's score table); a malformed one reads as none. */
		checklist: z
			.looseObject({ criteria: checklistCriteriaSchema, threshold: z.number().int().min(1).max(10) })
			.optional()
			.catch(undefined),
		changes: z.array(changeSchema),
		usage: z.array(z.looseObject({ agentId: z.string(), costUsd: z.number().nullable().optional() })),
		/** Missing or not a number: 0 (reports print it; a planted file may leave it out). */
		durationMs: z.number().catch(0),
		session: sessionRecordSchema.optional(),
		/** Why coordination ended (reports say it); a malformed record reads as none. */
		coordination: coordinationRecord.optional().catch(undefined),
		/** The user's messages to the team; a malformed list reads as none (a follow-up's history carries them). */
		steering: z
			.array(
				z.looseObject({
					text: z.string(),
					targetAgentId: z.string().optional(),
					noteOnly: z.boolean().optional(),
				}),
			)
			.optional()
			.catch(undefined),
		/** The review comments the run answered (reports, the editor's marks); a malformed record reads as none. */
		revision: revisionRecordSchema.optional().catch(undefined),
		/** The run's part in a plan (reports name it); a malformed record reads as none. */
		plan: planRecordSchema.optional().catch(undefined),
	});
}

/** `result.json`'s usage alone (the day's spend, `daySpend.ts`). */
export const resultUsageSchema = z.looseObject({
	usage: z.array(z.looseObject({ costUsd: z.number().nullable().optional() })),
});

/** `result.json`'s change set alone (Delete Run's "which files", the change outcome's count). */
export const resultChangesSchema = z.looseObject({ changes: z.array(z.unknown()) });

/** Why a field is wrong, in the words the listings have always used (`massgen runs`' "skipped"). */
const fieldProblems: Readonly<Record<string, (value: unknown) => string>> = {
	runId: (value) => `names run ${JSON.stringify(value)}`,
	question: () => 'has no question',
	status: () => 'has no valid status',
	finalAnswer: () => 'has a bad finalAnswer',
	session: () => 'has a bad session record',
};

const lists: ReadonlySet<string> = new Set(['answers', 'votes', 'changes', 'usage']);

/**
 * The first issue of a failed parse of `file` (holding `value`) as a reason: `result.json has no
 * valid status`, `result.json has a bad answers entry (answers.0.content: expected string, received number)`.
 */
export function fileProblem(file: string, value: unknown, error: z.ZodError): string {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${file} is not an object`;
	const issue = error.issues[0]!;
	const key = issue.path[0];
	if (typeof key !== 'string') return `${file}: ${issue.message}`;
	const known = fieldProblems[key];
	if (known) return `${file} ${known((value as Record<string, unknown>)[key])}`;
	if (issue.path.length > 1) {
		return `${file} has a bad ${key} entry (${issue.path.join('.')}: ${issue.message})`;
	}
	return lists.has(key) ? `${file} has no ${key} list` : `${file} has a bad ${key} (${issue.message})`;
}
