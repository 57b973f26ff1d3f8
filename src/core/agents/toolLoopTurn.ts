import type { Phase } from '../../contract/runEvents.js';
import type { ChatMessage, ChatRequest, ToolCall } from '../providers/spec/model.js';
import type { Toolbox } from '../tools/types.js';
import type { ModelCallResult } from './modelCall.js';
import { ContextKeeper } from './contextKeeper.js';
import { ModelCaller } from './modelCaller.js';
import { budgetedCalls, runToolCalls, type ToolRun } from './toolRunner.js';
import { SteerCursor } from './steering.js';
import type { AgentTurn, TurnContext, TurnStep } from './turn.js';
import type { AgentSpec } from './types.js';

/** How a response leaves the turn: ended with a value, or with tool calls to run before the next call. */
export type ToolLoopOutcome<Done> = { readonly done: Done } | { readonly toolCalls: readonly ToolCall[] };

/**
 * A turn outside coordination (the presentation, the post-evaluation): it calls the model, runs the
 * tool calls a response asks for within the per-turn tool budget, and calls again until a response
 * ends it. A failed call is repeated as it was; what ends the turn is the subclass's `settle`.
 */
export abstract class ToolLoopTurn<Done> implements AgentTurn<Done> {
	protected readonly messages: ChatMessage[];
	private readonly caller: ModelCaller;
	private readonly steering: SteerCursor;
	private readonly keeper: ContextKeeper;
	/** The user's messages: kept verbatim when the conversation is compacted. */
	private readonly pinned = new Set<ChatMessage>();
	private toolCalls = 0;
	/** The last response's tool calls, until they ran. */
	private pendingTools: readonly ToolCall[] | undefined;
	private retry: ChatRequest | undefined;
	private ended: { readonly value: Done } | undefined;
	private readonly phase: Phase;

	constructor(
		protected readonly agent: AgentSpec,
		private readonly toolbox: Toolbox,
		protected readonly context: TurnContext,
		private readonly signal: AbortSignal,
		first: ChatMessage,
		/** The phase its events name: the criteria generator's call comes before coordination. */
		phase: Phase = 'presentation',
	) {
		this.phase = phase;
		this.caller = new ModelCaller(agent, phase, context, signal);
		this.steering = new SteerCursor(context.steering, agent.id, phase, (body) => context.emit(body));
		this.keeper = new ContextKeeper(agent, phase, context, signal);
		this.messages = [first];
	}

	async next(): Promise<TurnStep<Done>> {
		if (this.ended) return { kind: 'done', value: this.ended.value };
		if (this.pendingTools) return { kind: 'tools', calls: this.pendingTools };
		if (this.signal.aborted) return { kind: 'stopped' };
		for (const message of this.retry === undefined ? this.steering.take() : []) {
			this.messages.push(message);
			this.pinned.add(message);
		}
		const request = this.retry ?? this.request(this.toolBudgetLeft() > 0);
		this.retry = undefined;
		const pinned = (message: ChatMessage) => this.pinned.has(message);
		if (this.keeper.overflows(request)) return this.keeper.compactInto(this.messages, request, pinned);
		const outcome = await this.caller.call(request);
		if (outcome.kind === 'stopped') return { kind: 'stopped', report: outcome.report };
		// Too long for the model: the next step compacts the conversation and builds the request anew.
		if (
			outcome.kind === 'failed' &&
			outcome.error.kind === 'context-length' &&
			this.keeper.rejected(request)
		) {
			return { kind: 'called', report: outcome.report };
		}
		if (outcome.kind === 'failed') {
			this.retry = request;
			return { kind: 'called', report: outcome.report, failure: outcome.error };
		}
		if (outcome.kind === 'completed') {
			const { result } = outcome;
			this.keeper.completed(request, result.usage);
			const settled = this.settle(result);
			if ('done' in settled) this.ended = { value: settled.done };
			else {
				this.messages.push({
					role: 'assistant',
					content: result.text,
					toolCalls: settled.toolCalls,
					providerData: result.providerData,
				});
				this.pendingTools = settled.toolCalls;
			}
		}
		return { kind: 'called', report: outcome.report };
	}

	async runTools(calls: readonly ToolCall[]): Promise<void> {
		this.pendingTools = undefined;
		const run: ToolRun = {
			agentId: this.agent.id,
			phase: this.phase,
			toolbox: this.toolbox,
			signal: this.signal,
			emit: (body) => this.context.emit(body),
		};
		this.messages.push(...(await runToolCalls(calls, run, Math.max(0, this.toolBudgetLeft()))));
		this.toolCalls += budgetedCalls(calls);
	}

	/** The next call's request over `messages`; `withTools`: the tool budget is not spent yet. */
	protected abstract request(withTools: boolean): ChatRequest;

	/** What a completed response does to the turn: ends it, or asks for tools first. */
	protected abstract settle(result: ModelCallResult): ToolLoopOutcome<Done>;

	private toolBudgetLeft(): number {
		return this.context.settings.maxToolCallsPerTurn - this.toolCalls;
	}
}
