import type { Phase, Usage } from '../../contract/runEvents.js';
import type { ChatMessage, ChatRequest } from '../providers/spec/model.js';
import { ProviderError } from '../providers/spec/providerError.js';
import {
	clipText,
	clipToolResults,
	messagesTokens,
	planCompaction,
	summaryMessage,
	transcript,
	type CompactionHow,
} from './compaction.js';
import { runModelCall } from './modelCall.js';
import { compactionSystemPrompt, compactionUserMessage } from './prompts.js';
import { estimateRequestTokens, estimateTextTokens } from './tokenEstimate.js';
import type { CallReport, TurnContext, TurnStep } from './turn.js';
import type { AgentSpec } from './types.js';

/** What a compaction leaves: the new conversation, or why the turn cannot go on. */
export type Compaction =
	| { readonly kind: 'compacted'; readonly messages: ChatMessage[]; readonly report?: CallReport }
	| { readonly kind: 'stopped'; readonly report?: CallReport }
	| { readonly kind: 'impossible'; readonly error: ProviderError; readonly report?: CallReport };

/** A compacted conversation uses at most this share of the limit, leaving room for the turn to go on. */
const targetShare = 0.6;
/** The summary call's output, at most. */
const maxSummaryTokens = 4_096;
/** Below this, a summary says too little to be worth a call: the truncation fallback is used. */
const minSummaryTokens = 128;
/** A provider rejected a request of this many estimated tokens: the limit is below it, by this factor. */
const rejectedShare = 0.9;
/** Rejections in a row, each after a compaction, before the agent is given up. */
const maxRejections = 3;
/**
 * The most a provider's reported prompt tokens raise the estimate: bytes / 3 is rarely off by more
 * than half, so a larger gap is a count the estimate should not follow (a server's fixed usage,
 * images billed by size) — the provider's own rejection still lowers the limit.
 */
const maxRatio = 3;

/**
 * Keeps one turn's requests inside its model's context window: says when the next request would
 * not fit (by estimate, against the window less the output reserve) or a provider said it did
 * not, and compacts the conversation then. A summary is made by the agent's own model in one
 * call (its usage counted like any call's); when that call fails or would not fit, the older
 * messages are clipped instead (`transcript`). The task and the pinned messages stay verbatim.
 */
export class ContextKeeper {
	/** Input tokens a request may use; undefined = unknown (only a provider's rejection tells). */
	private limit: number | undefined;
	/** Real prompt tokens per estimated one, when a provider reported more than estimated. */
	private ratio = 1;
	private rejections = 0;
	private mustCompact = false;

	constructor(
		private readonly agent: AgentSpec,
		private readonly phase: Phase,
		private readonly context: TurnContext,
		private readonly signal: AbortSignal,
	) {
		const window = agent.contextWindow;
		if (window !== undefined) {
			const reserve = agent.maxOutputTokens ?? Math.min(16_384, Math.floor(window / 8));
			this.limit = Math.max(1, window - reserve);
		}
	}

	estimate(request: Pick<ChatRequest, 'system' | 'messages' | 'tools'>): number {
		return Math.ceil(estimateRequestTokens(request) * this.ratio);
	}

	/** The request must be compacted before it is sent. */
	overflows(request: ChatRequest): boolean {
		return this.mustCompact || (this.limit !== undefined && this.estimate(request) > this.limit);
	}

	/** A call completed: its reported prompt tokens calibrate the estimate. */
	completed(request: ChatRequest, usage: Usage | undefined): void {
		this.rejections = 0;
		const estimated = estimateRequestTokens(request);
		if (usage && estimated > 0 && usage.inputTokens > estimated) {
			this.ratio = Math.min(maxRatio, Math.max(this.ratio, usage.inputTokens / estimated));
		}
	}

	/**
	 * The provider answered `context-length`: the limit lies below this request. True when the turn
	 * should compact and go on; false when it has already been rejected too often.
	 */
	rejected(request: ChatRequest): boolean {
		this.rejections++;
		const below = Math.floor(this.estimate(request) * rejectedShare);
		this.limit = Math.min(this.limit ?? below, below);
		this.mustCompact = this.rejections <= maxRejections;
		return this.mustCompact;
	}

	/**
	 * Compacts `messages` (the conversation `request` was built from) in place: the turn's step. A
	 * summary call's usage is in its report; a conversation that cannot fit ends in a failure.
	 */
	async compactInto(
		messages: ChatMessage[],
		request: ChatRequest,
		isPinned: (message: ChatMessage) => boolean,
	): Promise<TurnStep<never>> {
		const compaction = await this.compact(request, isPinned);
		if (compaction.kind === 'stopped') return { kind: 'stopped', report: compaction.report };
		const report = compaction.report ?? { completed: false };
		if (compaction.kind === 'impossible') return { kind: 'called', report, failure: compaction.error };
		messages.splice(0, messages.length, ...compaction.messages);
		return { kind: 'called', report };
	}

	/** Compacts the conversation of `request`; `isPinned` marks the messages that stay verbatim. */
	async compact(request: ChatRequest, isPinned: (message: ChatMessage) => boolean): Promise<Compaction> {
		this.mustCompact = false;
		const limit = this.limit ?? this.estimate(request);
		const before = this.estimate(request);
		const empty = this.estimate({ ...request, messages: [] });
		const plan = planCompaction(request.messages, isPinned);
		const kept = empty + this.scaled(messagesTokens([plan.first, ...plan.pinned]));
		if (kept > limit) return { kind: 'impossible', error: this.tooLong(kept, limit, 'the task') };
		const target = Math.floor(limit * targetShare);
		const tailRoom = Math.max(0, Math.floor((target - kept - minSummaryTokens) / this.ratio));
		const tail = clipToolResults(plan.tail, tailRoom);
		const room = target - kept - this.scaled(messagesTokens(tail));
		let how: CompactionHow = 'truncation';
		let report: CallReport | undefined;
		const middle: ChatMessage[] = [];
		if (plan.middle.length > 0) {
			const budget = Math.min(maxSummaryTokens, Math.floor(room / this.ratio));
			const summary = budget >= minSummaryTokens ? await this.summarise(plan, budget, limit) : undefined;
			if (summary?.kind === 'stopped') return { kind: 'stopped', report: summary.report };
			report = summary?.report;
			if (summary?.text) {
				how = 'summary';
				middle.push(summaryMessage(clipText(summary.text, budget * 3), plan.middle.length, how));
			} else {
				middle.push(summaryMessage(transcript(plan.middle, Math.max(0, budget)), plan.middle.length, how));
			}
		}
		const messages = [plan.first, ...middle, ...plan.pinned, ...tail];
		const after = this.estimate({ ...request, messages });
		const withReport = report ? { report } : {};
		if (after > limit || after >= before) {
			return {
				kind: 'impossible',
				error: this.tooLong(after, limit, 'the compacted request'),
				...withReport,
			};
		}
		this.context.emit({
			type: 'compacted',
			agentId: this.agent.id,
			phase: this.phase,
			tokensBefore: before,
			tokensAfter: after,
			how,
			messagesSummarised: plan.middle.length,
		});
		return { kind: 'compacted', messages, ...withReport };
	}

	/** The agent's model summarises the older messages in one call; undefined text when it failed. */
	private async summarise(
		plan: ReturnType<typeof planCompaction>,
		budget: number,
		limit: number,
	): Promise<
		{ kind: 'summary'; text?: string; report?: CallReport } | { kind: 'stopped'; report?: CallReport }
	> {
		const task = clipText(plan.first.content, 4_000);
		const frame = this.scaled(estimateTextTokens(compactionSystemPrompt + compactionUserMessage(task, '')));
		const transcriptRoom = Math.floor((limit - budget - frame - 64) / this.ratio);
		if (transcriptRoom < minSummaryTokens) return { kind: 'summary' };
		const summaryRequest: ChatRequest = {
			system: compactionSystemPrompt,
			messages: [
				{ role: 'user', content: compactionUserMessage(task, transcript(plan.middle, transcriptRoom)) },
			],
			tools: [],
			maxOutputTokens: budget,
			temperature: this.agent.temperature,
			providerOptions: this.agent.providerOptions,
			clock: this.context.clock,
		};
		const state = { lastUsage: undefined as Usage | undefined };
		const silent = { onText() {}, onReasoning() {}, onFirstOutput() {} };
		try {
			await this.agent.model.prepare?.();
			const result = await runModelCall(this.agent.model, summaryRequest, this.signal, silent, state);
			const report: CallReport = { completed: true, ...(result.usage ? { usage: result.usage } : {}) };
			return { kind: 'summary', text: result.text.trim() || undefined, report };
		} catch {
			const usage = state.lastUsage;
			const report: CallReport | undefined = usage ? { completed: false, usage } : undefined;
			if (this.signal.aborted) return { kind: 'stopped', ...(report ? { report } : {}) };
			return { kind: 'summary', ...(report ? { report } : {}) };
		}
	}

	private scaled(tokens: number): number {
		return Math.ceil(tokens * this.ratio);
	}

	private tooLong(tokens: number, limit: number, what: string): ProviderError {
		const window = this.agent.contextWindow;
		// Where the limit came from: the provider's refusal lowers it below the window.
		const known =
			this.rejections > 0 || window === undefined
				? 'the provider refused a longer request'
				: `context window ${window}, less the output reserve`;
		return new ProviderError({
			provider: this.agent.model.provider,
			kind: 'context-length',
			message:
				`${what} does not fit ${this.agent.model.modelId}'s context window even after compaction: ` +
				`about ${tokens} tokens, at most about ${limit} fit (${known})`,
		});
	}
}
