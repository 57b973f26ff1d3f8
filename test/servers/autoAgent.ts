import { answerIdsShown } from '../../src/core/workflow/markers.js';
import type { PromptView, Turn } from './types.js';

/**
 * How a turn streams: `text-first` (a line of text, then the workflow call), `tool-call-only`
 * (no text: the call's name and arguments in several deltas) or `reasoning-first` (reasoning
 * deltas, then the call). A presentation is text in every style.
 */
export type StreamStyle = 'text-first' | 'tool-call-only' | 'reasoning-first';

export interface AutoAgentOptions {
	/** Shown in answers and presentations so peers' answers differ (default: the protocol name). */
	readonly name?: string;
	/** Answer text for `new_answer` (default: derived from the name and the question). */
	readonly answer?: string | ((prompt: PromptView) => string);
	/** Final-presentation text (default: derived from the name). */
	readonly presentation?: string | ((prompt: PromptView) => string);
	readonly usage?: Turn['usage'];
	/** Default `text-first`. */
	readonly style?: StreamStyle | ((prompt: PromptView) => StreamStyle);
	/**
	 * Models that revise once: the first time one sees peers' answers and no revision of its own,
	 * it submits a new answer instead of voting.
	 */
	readonly revisers?: readonly string[];
	/**
	 * Files the presenter writes (`write_file`) before its final text: the first presentation call
	 * makes the writes, the call after their results presents. Makes the run's change set.
	 */
	readonly presentationWrites?:
		readonly PresentationWrite[] | ((prompt: PromptView) => readonly PresentationWrite[]);
	/**
	 * A checklist run (`vote` takes `scores`): the score it gives answer `anonId` on criterion `id`
	 * (default 8 for every one). It votes for the first answer it scored at or above the threshold
	 * the prompt states on every criterion; with none, it answers.
	 */
	readonly score?: (prompt: PromptView, anonId: string, criterionId: string) => number;
	/** `proposed_criteria` it sends with its first answer when the tools take them (bootstrap_inline). */
	readonly propose?: (prompt: PromptView) => readonly string[];
}

/** One file a presenter writes. */
export interface PresentationWrite {
	readonly path: string;
	readonly content: string;
}

/** Argument deltas of a workflow call in the `tool-call-only` and `reasoning-first` styles. */
const styledCallChunks = 8;

const answerTag = /<answer id="([^"]+)">/;

/**
 * A model stand-in that plays one MassGen coordination turn from the request alone:
 * - `vote` offered with a non-empty `agent_id` enum and answers in the prompt → vote for the first id;
 * - else `new_answer` offered → answer (also when the last tool result reported an error for a vote);
 * - no workflow tools (final presentation, single agent) → plain text.
 */
export function autoAgentTurn(prompt: PromptView, options: AutoAgentOptions = {}): Turn {
	const style = typeof options.style === 'function' ? options.style(prompt) : (options.style ?? 'text-first');
	return styled(plainTurn(prompt, options), style);
}

function plainTurn(prompt: PromptView, options: AutoAgentOptions): Turn {
	const name = options.name ?? 'loopback';
	const usage = options.usage ?? { input: 120, output: 30 };
	const offers = (tool: string) => prompt.tools.find((t) => t.name === tool);
	const vote = offers('vote');
	const newAnswer = offers('new_answer');
	const everything = [prompt.system, ...prompt.texts].join('\n');
	const hasAnswers = answerTag.test(everything);
	const last = prompt.lastToolResult ?? '';
	const voteFailed = /vote/i.test(last) && /error|invalid|not allowed|cannot|unknown/i.test(last);
	// The enum lists every agent of the run: vote only for ids whose answers the prompt shows.
	const shown = new Set(answerIdsShown([everything]));
	const ids = voteEnum(vote?.parameters).filter((id) => shown.has(id));
	const revising =
		newAnswer &&
		hasAnswers &&
		options.revisers?.includes(prompt.model) &&
		!everything.includes(revised(prompt));

	if (revising) {
		return {
			text: 'Improving my answer.',
			toolCalls: [{ name: 'new_answer', arguments: { content: `${revised(prompt)}: ${question(prompt)}` } }],
			usage,
		};
	}
	const checklist = checklistOf(prompt, vote?.parameters);
	if (checklist && vote && ids.length && hasAnswers && !(voteFailed && newAnswer)) {
		const score = options.score ?? (() => 8);
		const scores = ids.map((anonId) => ({
			agent_id: anonId,
			criteria: checklist.criteria.map((id) => ({ id, score: score(prompt, anonId, id) })),
		}));
		const target = scores.find((entry) => entry.criteria.every((c) => c.score >= checklist.threshold));
		if (target) {
			return {
				text: `Scored every answer on ${checklist.criteria.length} criteria; ${target.agent_id} meets them all.`,
				toolCalls: [
					{
						name: 'vote',
						arguments: { agent_id: target.agent_id, reason: `${name} agent: meets the checklist.`, scores },
					},
				],
				usage,
			};
		}
	}
	if (vote && ids.length && hasAnswers && !(voteFailed && newAnswer) && !checklist) {
		return {
			text: `Reviewing the answers; ${ids[0]} is solid.`,
			toolCalls: [
				{
					name: 'vote',
					arguments: { agent_id: ids[0], reason: `${name} agent: ${ids[0]} answers the question fully.` },
				},
			],
			usage,
		};
	}
	if (newAnswer) {
		const content =
			typeof options.answer === 'function'
				? options.answer(prompt)
				: (options.answer ?? defaultAnswer(name, prompt));
		const takesProposals = Object.hasOwn(properties(newAnswer.parameters), 'proposed_criteria');
		const proposals = takesProposals && options.propose ? options.propose(prompt) : [];
		return {
			text: 'Drafting an answer.',
			toolCalls: [
				{
					name: 'new_answer',
					arguments: { content, ...(proposals.length ? { proposed_criteria: [...proposals] } : {}) },
				},
			],
			usage,
		};
	}
	const writes =
		typeof options.presentationWrites === 'function'
			? options.presentationWrites(prompt)
			: (options.presentationWrites ?? []);
	if (writes.length > 0 && offers('write_file') && prompt.lastToolResult === undefined) {
		return {
			text: 'Making the changes.',
			toolCalls: writes.map((write) => ({ name: 'write_file', arguments: { ...write } })),
			usage,
		};
	}
	const text =
		typeof options.presentation === 'function'
			? options.presentation(prompt)
			: (options.presentation ?? `Final answer (presented by the ${name} agent): ${question(prompt)}`);
	return { text, usage };
}

function styled(turn: Turn, style: StreamStyle): Turn {
	if (style === 'text-first') return turn;
	const reasoning =
		style === 'reasoning-first' ? { reasoning: 'Weighing the question and the answers so far.' } : {};
	if (!turn.toolCalls?.length) return { ...turn, ...reasoning };
	const { text: _text, ...rest } = turn;
	return {
		...rest,
		...reasoning,
		toolCalls: turn.toolCalls.map((call) => ({ ...call, chunks: styledCallChunks })),
	};
}

/** The marker a reviser's second answer carries, so it revises only once. */
function revised(prompt: PromptView): string {
	return `Revised answer from ${prompt.model}`;
}

function properties(parameters: Record<string, unknown> | undefined): Record<string, unknown> {
	return (parameters?.['properties'] as Record<string, unknown> | undefined) ?? {};
}

/**
 * The checklist a vote must score (the tool takes `scores`): the criterion ids of the prompt's
 * EVALUATION CHECKLIST block and the threshold it states; undefined without one.
 */
export function checklistOf(
	prompt: PromptView,
	voteParameters: Record<string, unknown> | undefined,
): { readonly criteria: string[]; readonly threshold: number } | undefined {
	if (!Object.hasOwn(properties(voteParameters), 'scores')) return undefined;
	const text = prompt.texts.join('\n');
	const block = /<EVALUATION CHECKLIST>([\s\S]*?)<\/EVALUATION CHECKLIST>/.exec(text)?.[1] ?? '';
	const criteria = [...block.matchAll(/^- (C\d+) \[/gm)].map((match) => match[1]!);
	const threshold = Number(/with at least (\d+) on all of them/.exec(block)?.[1] ?? 1);
	return { criteria, threshold };
}

function voteEnum(parameters: Record<string, unknown> | undefined): string[] {
	const properties = parameters?.['properties'] as Record<string, Record<string, unknown>> | undefined;
	const values = properties?.['agent_id']?.['enum'];
	return Array.isArray(values) ? values.filter((v): v is string => typeof v === 'string') : [];
}

/** The user's question: MassGen wraps it in <ORIGINAL MESSAGE> tags inside coordination prompts. */
function question(prompt: PromptView): string {
	const first = prompt.texts.find((t) => t.trim()) ?? '';
	const tagged = /<ORIGINAL MESSAGE>\s*([\s\S]*?)\s*<\/ORIGINAL MESSAGE>/i.exec(first);
	const line = (tagged?.[1] ?? first).replace(/\s+/g, ' ').trim();
	return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}

function defaultAnswer(name: string, prompt: PromptView): string {
	return `Answer from the ${name} agent (${prompt.model}): ${question(prompt) || 'the task'} — done.`;
}
