import type { ToolCall, ToolDefinition } from '../providers/spec/model.js';
import { newAnswerToolName, voteToolName } from '../workflow/markers.js';
import type { VoteScores } from '../../contract/runEvents.js';
import type { AnswerRecord, AnswerSnapshot } from './answers.js';
import { checklistLimits } from './checklist.js';
import { checkProposals, checkScores, type ExecutionChecklist } from './checklistRules.js';
import { jaccardSimilarity, noveltyThreshold } from './novelty.js';
import type { Sensitivity } from './types.js';

export const workflowToolNames = new Set([newAnswerToolName, voteToolName]);

/**
 * An answer rides in every later request of every peer and in the logs; 256 KiB (about 64,000
 * tokens, read_file's cap too) is past any answer a model writes in one response, and a team of
 * four such answers already fills most context windows. File changes travel as edits, not text.
 * MassGen has no such setting: a constant.
 */
export const maxAnswerBytes = 256 * 1024;
/** A vote's reason is a sentence or a paragraph; it reaches the presenter's prompt. */
export const maxVoteReasonBytes = 8 * 1024;
/** A vote's `scores` or a call's `proposed_criteria` over this (as JSON) is not kept in the agent's history. */
const maxChecklistArgumentBytes = 64 * 1024;

const kib = (bytes: number) => `${bytes / 1024} KB`;

/**
 * The same two tools on every coordination call of the run (as in MassGen): `vote`'s enum holds every
 * anonymous id, not only those with answers, so the tool list — the start of every provider's prompt
 * prefix — never changes and the prompt cache holds. `decideWorkflow` rejects votes for ids without
 * an answer in the agent's snapshot.
 */
export function workflowTools(
	anonIds: readonly string[],
	checklist?: { readonly proposals: boolean; readonly maxProposals: number; readonly threshold: number },
): ToolDefinition[] {
	// With a checklist the tools take more; the same all run either way (criteria ids are not in the schema).
	const proposals = checklist?.proposals
		? {
				proposed_criteria: {
					type: 'array',
					items: { type: 'string' },
					description: `Up to ${checklist.maxProposals} new criteria (one sentence each, at most ${checklistLimits.criterionBytes} bytes) that the current answers do not meet yet; they join the EVALUATION CHECKLIST from the next round.`,
				},
			}
		: {};
	const scores = checklist
		? {
				scores: {
					type: 'array',
					description: `Your score of every answer in CURRENT ANSWERS on every criterion of the EVALUATION CHECKLIST (an empty list while it has none). You may vote only for an answer you scored at least ${checklist.threshold} on every criterion.`,
					items: {
						type: 'object',
						properties: {
							agent_id: { type: 'string', enum: [...anonIds] },
							criteria: {
								type: 'array',
								items: {
									type: 'object',
									properties: {
										id: { type: 'string', description: 'The criterion id (C1, C2, …).' },
										score: { type: 'integer', minimum: 1, maximum: 10 },
									},
									required: ['id', 'score'],
									additionalProperties: false,
								},
							},
						},
						required: ['agent_id', 'criteria'],
						additionalProperties: false,
					},
				},
			}
		: {};
	return [
		{
			name: newAnswerToolName,
			description: `Submit a new, complete, improved answer to the ORIGINAL MESSAGE. Ends your turn. At most ${kib(maxAnswerBytes)}: do not paste files.`,
			parameters: {
				type: 'object',
				properties: {
					content: { type: 'string', description: 'Your complete answer (Markdown).' },
					...proposals,
				},
				required: ['content'],
				additionalProperties: false,
			},
		},
		{
			name: voteToolName,
			description: 'Vote for the best answer in CURRENT ANSWERS. Ends your turn.',
			parameters: {
				type: 'object',
				properties: {
					agent_id: { type: 'string', enum: [...anonIds] },
					reason: { type: 'string', description: `Why it is the best (at most ${kib(maxVoteReasonBytes)}).` },
					...scores,
					...proposals,
				},
				required: checklist ? ['agent_id', 'reason', 'scores'] : ['agent_id', 'reason'],
				additionalProperties: false,
			},
		},
	];
}

export interface WorkflowRules {
	readonly snapshot: AnswerSnapshot;
	readonly ownAnonId: string;
	readonly answersSoFar: number;
	readonly maxAnswers: number | null;
	readonly novelty: Sensitivity;
	/** Checklist evaluation; absent when off. */
	readonly checklist?: ExecutionChecklist;
}

export type WorkflowDecision =
	| {
			readonly kind: 'answer';
			readonly call: ToolCall;
			readonly content: string;
			/** `proposed_criteria` (bootstrap_inline), checked. */
			readonly proposals: readonly string[];
	  }
	| {
			readonly kind: 'vote';
			readonly call: ToolCall;
			readonly target: AnswerRecord;
			readonly reason: string;
			readonly scores?: VoteScores;
			readonly proposals: readonly string[];
	  }
	| {
			readonly kind: 'errors';
			readonly errors: readonly { readonly call: ToolCall; readonly message: string }[];
	  };

/**
 * Checks one response's workflow calls: MassGen's rules, with novelty as
 * docs/decisions/0013-novelty-ignores-own-answer.md has it.
 */
export function decideWorkflow(calls: readonly ToolCall[], rules: WorkflowRules): WorkflowDecision {
	const votes = calls.filter((call) => call.name === voteToolName);
	const answers = calls.filter((call) => call.name === newAnswerToolName);
	const all = (message: string, others = message) =>
		({
			kind: 'errors',
			errors: calls.map((call, i) => ({ call, message: i === 0 ? message : others })),
		}) as const;
	if (votes.length > 1) {
		return all(
			'Multiple vote calls are not allowed: make exactly one workflow call.',
			'Rejected: only one vote per turn.',
		);
	}
	if (votes.length && answers.length) return all('You cannot both vote and submit a new answer: choose one.');
	if (answers.length > 1) {
		return all(
			'Multiple new_answer calls are not allowed: submit exactly one answer.',
			'Rejected: only one answer per turn.',
		);
	}
	const call = calls[0]!;
	if (call.parseError) {
		return one(call, `Invalid arguments for ${call.name}: ${call.parseError}. Send a JSON object.`);
	}
	return call.name === voteToolName ? checkVote(call, rules) : checkAnswer(call, rules);
}

function checkVote(call: ToolCall, rules: WorkflowRules): WorkflowDecision {
	const ids = [...rules.snapshot.answers.keys()];
	if (ids.length === 0) return one(call, 'You cannot vote: no answers exist yet. Use new_answer.');
	const agentId = call.arguments['agent_id'];
	const reason = call.arguments['reason'];
	const target = typeof agentId === 'string' ? rules.snapshot.answers.get(agentId) : undefined;
	if (!target) return one(call, `Invalid agent_id '${String(agentId)}'. Valid ids: ${ids.join(', ')}.`);
	if (typeof reason !== 'string' || !reason.trim()) return one(call, 'vote needs a non-empty reason.');
	const reasonBytes = Buffer.byteLength(reason, 'utf8');
	if (reasonBytes > maxVoteReasonBytes) {
		return one(
			call,
			`The reason is ${reasonBytes} bytes; the cap is ${maxVoteReasonBytes} (${kib(maxVoteReasonBytes)}). Shorten it to a few sentences and vote again.`,
		);
	}
	if (!rules.checklist) return { kind: 'vote', call, target, reason: reason.trim(), proposals: [] };
	const proposals = checkProposals(call.arguments['proposed_criteria'], rules.checklist);
	if ('error' in proposals) return one(call, proposals.error);
	const canAnswer = rules.maxAnswers === null || rules.answersSoFar < rules.maxAnswers;
	const scores = checkScores(
		call.arguments['scores'],
		rules.snapshot.answers,
		target,
		rules.checklist,
		canAnswer,
	);
	if ('error' in scores) return one(call, scores.error);
	return {
		kind: 'vote',
		call,
		target,
		reason: reason.trim(),
		...(scores.ok ? { scores: scores.ok } : {}),
		proposals: proposals.ok,
	};
}

function checkAnswer(call: ToolCall, rules: WorkflowRules): WorkflowDecision {
	const content = call.arguments['content'];
	if (typeof content !== 'string' || !content.trim()) return one(call, 'new_answer needs non-empty content.');
	const bytes = Buffer.byteLength(content, 'utf8');
	if (bytes > maxAnswerBytes) {
		return one(
			call,
			`The answer is ${bytes} bytes; the cap is ${maxAnswerBytes} (${kib(maxAnswerBytes)}). Shorten it: summarise, and leave file contents to your file edits.`,
		);
	}
	if (rules.maxAnswers !== null && rules.answersSoFar >= rules.maxAnswers) {
		return one(
			call,
			`Answer limit reached (${rules.maxAnswers} per agent). Vote for the best existing answer.`,
		);
	}
	const text = content.trim();
	for (const [anonId, answer] of rules.snapshot.answers) {
		if (answer.content.trim() === text) {
			return one(call, `This answer is identical to ${anonId}. Vote for it instead.`);
		}
	}
	const threshold = noveltyThreshold(rules.novelty);
	if (threshold !== null) {
		for (const [anonId, answer] of rules.snapshot.answers) {
			if (anonId === rules.ownAnonId) continue;
			const similarity = jaccardSimilarity(text, answer.content);
			if (similarity > threshold) {
				return one(
					call,
					`This answer is too similar to ${anonId} (${Math.round(similarity * 100)}% overlap). Take a different approach or vote.`,
				);
			}
		}
	}
	if (!rules.checklist) return { kind: 'answer', call, content: text, proposals: [] };
	const proposals = checkProposals(call.arguments['proposed_criteria'], rules.checklist);
	if ('error' in proposals) return one(call, proposals.error);
	return { kind: 'answer', call, content: text, proposals: proposals.ok };
}

/**
 * The call as the agent's history keeps it: an argument over its cap is replaced by a note of its
 * size, so the rejected text is not sent again with every later request of this agent.
 */
export function keptCall(call: ToolCall): ToolCall {
	return keptWorkflowText(keptChecklistArguments(call));
}

/** `scores` and `proposed_criteria` over their cap (as JSON) leave the history as a note of their size. */
function keptChecklistArguments(call: ToolCall): ToolCall {
	if (!workflowToolNames.has(call.name)) return call;
	let kept = call;
	for (const key of ['scores', 'proposed_criteria']) {
		const value = call.arguments[key];
		if (value === undefined) continue;
		const bytes = Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
		if (bytes <= maxChecklistArgumentBytes) continue;
		kept = {
			...kept,
			arguments: {
				...kept.arguments,
				[key]: `[${bytes} bytes, over the ${kib(maxChecklistArgumentBytes)} cap: not kept]`,
			},
		};
	}
	return kept;
}

function keptWorkflowText(call: ToolCall): ToolCall {
	const cap =
		call.name === newAnswerToolName ? maxAnswerBytes : call.name === voteToolName ? maxVoteReasonBytes : null;
	const key = call.name === newAnswerToolName ? 'content' : 'reason';
	const value = call.arguments[key];
	if (cap === null || typeof value !== 'string') return call;
	const bytes = Buffer.byteLength(value, 'utf8');
	if (bytes <= cap) return call;
	return {
		...call,
		arguments: { ...call.arguments, [key]: `[${bytes} bytes, over the ${kib(cap)} cap: not kept]` },
	};
}

function one(call: ToolCall, message: string): WorkflowDecision {
	return { kind: 'errors', errors: [{ call, message }] };
}
