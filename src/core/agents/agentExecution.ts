import { promptContext, userMessage } from '../context/promptContext.js';
import type { ChatMessage, ChatRequest, ToolCall } from '../providers/spec/model.js';
import type { Toolbox } from '../tools/types.js';
import type { Overlay, OverlaySnapshot } from '../workspace/types.js';
import { voteToolName } from '../workflow/markers.js';
import type { AnswerRecord, AnswerSnapshot, PeerView } from './answers.js';
import type { ModelCallResult } from './modelCall.js';
import { cacheKeyOf } from './cacheKey.js';
import { ContextKeeper } from './contextKeeper.js';
import { ModelCaller } from './modelCaller.js';
import * as prompts from './prompts.js';
import { budgetedCalls, runToolCalls, type ToolRun } from './toolRunner.js';
import { SteerCursor } from './steering.js';
import type { AgentTurn, TurnContext, TurnStep } from './turn.js';
import type { AgentSpec } from './types.js';
import type { VoteScores } from '../../contract/runEvents.js';
import { checklistBlock } from './checklistPrompts.js';
import type { ExecutionChecklist } from './checklistRules.js';
import { decideWorkflow, keptCall, workflowToolNames, workflowTools } from './workflowTools.js';

/** What a coordination execution ends in; the orchestrator applies it to the board. */
export type ExecutionDecision =
	| {
			readonly kind: 'answer';
			readonly content: string;
			readonly overlay: OverlaySnapshot;
			/** Criteria it proposed (`bootstrap_inline`), checked: the orchestrator merges them. */
			readonly proposals: readonly string[];
	  }
	/**
	 * Counts only if no answer landed since `snapshotVersion` and no message of the user took the
	 * voter's vote away after `steerSeen`; else `voteWasStale` and go on.
	 */
	| {
			readonly kind: 'vote';
			readonly callId: string;
			readonly target: AnswerRecord;
			readonly reason: string;
			readonly snapshotVersion: number;
			readonly steerSeen: number;
			/** With a checklist: every answer's scores, the gate passed. */
			readonly scores?: VoteScores;
			readonly proposals: readonly string[];
	  }
	/** Every workflow attempt of the turn was invalid. */
	| { readonly kind: 'exhausted'; readonly message: string };

/** What an execution reads of its run beyond what every turn reads. */
export interface ExecutionContext extends TurnContext {
	/** Every anonymous id of the run (`agent1..agentN`). */
	readonly anonIds: readonly string[];
	readonly peers: PeerView;
	/** A toolbox over the agent's overlay that can read these answers' files. */
	toolbox(answers: ReadonlyMap<string, OverlaySnapshot>): Toolbox;
	/** The checklist of this execution (criteria in force at its start); absent when off. */
	readonly checklist?: ExecutionChecklist;
}

/**
 * One coordination execution ("round") of one agent: a conversation that ends in exactly one
 * accepted workflow call. New answers reach it mid-way as UPDATE messages (inject-and-continue).
 */
export class AgentExecution implements AgentTurn<ExecutionDecision> {
	private snapshot: AnswerSnapshot;
	private readonly messages: ChatMessage[] = [];
	private readonly caller: ModelCaller;
	private readonly steering: SteerCursor;
	private readonly keeper: ContextKeeper;
	/** UPDATE and user messages: kept verbatim when the conversation is compacted. */
	private readonly pinned = new Set<ChatMessage>();
	private attempts = 0;
	private toolCalls = 0;
	/** The last completed response, until its calls are handled. */
	private response: { result: ModelCallResult; toolsRan: boolean } | undefined;
	/** A failed call's request, issued again on the next step. */
	private retry: ChatRequest | undefined;
	/** Rebuilt only when the snapshot changes: building tool schemas is the costly part of a request. */
	private toolboxCache: { readonly version: number; readonly toolbox: Toolbox } | undefined;

	constructor(
		private readonly agent: AgentSpec,
		private readonly anonId: string,
		private readonly overlay: Overlay,
		private readonly context: ExecutionContext,
		private readonly signal: AbortSignal,
	) {
		this.snapshot = context.peers.snapshot();
		this.caller = new ModelCaller(agent, 'coordination', context, signal);
		this.steering = new SteerCursor(context.steering, agent.id, 'coordination', (body) => context.emit(body));
		this.keeper = new ContextKeeper(agent, 'coordination', context, signal);
		const prompt = promptContext(context, agent.model);
		const first = prompts.coordinationUserMessage(
			context.question,
			context.history,
			this.snapshot,
			prompt,
			context.restartFeedback,
			context.checklist ? checklistBlock(context.checklist) : '',
		);
		this.messages.push(userMessage(first, prompt));
	}

	/** Labels of the answers in the snapshot this execution starts from. */
	get startLabels(): string[] {
		return [...this.snapshot.answers.values()].map((answer) => answer.label);
	}

	/** Its snapshot holds no answer, so it cannot vote: unless it runs tools first, it will end in an answer. */
	get mustAnswer(): boolean {
		return this.snapshot.answers.size === 0;
	}

	answersChanged(firstOutputEstimateMs: number | undefined): void {
		this.caller.answersChanged(firstOutputEstimateMs);
	}

	next(): Promise<TurnStep<ExecutionDecision>> {
		// A response that arrived is decided even if the turn was stopped meanwhile (its answer still counts).
		const handled = this.response && this.handle(this.response);
		if (handled) return Promise.resolve(handled);
		if (this.signal.aborted) return Promise.resolve({ kind: 'stopped' });
		const request =
			this.retry ??
			(this.injectUpdates(), this.messages.push(...this.pin(this.steering.take())), this.request());
		this.retry = undefined;
		if (!this.keeper.overflows(request)) return this.call(request);
		return this.keeper.compactInto(this.messages, request, (message) => this.pinned.has(message));
	}

	async runTools(calls: readonly ToolCall[]): Promise<void> {
		const { settings } = this.context;
		const budget = settings.maxToolCallsPerTurn - this.toolCalls;
		const run: ToolRun = {
			agentId: this.agent.id,
			phase: 'coordination',
			toolbox: this.toolbox(),
			signal: this.signal,
			emit: (body) => this.context.emit(body),
		};
		this.messages.push(...(await runToolCalls(calls, run, Math.max(0, budget))));
		this.toolCalls += budgetedCalls(calls);
		if (this.toolCalls >= settings.maxToolCallsPerTurn) {
			this.messages.push({ role: 'user', content: prompts.toolBudgetMessage });
		}
	}

	/**
	 * The board had moved on when its vote arrived (new answers, or a message of the user): it sees
	 * what changed and decides again (the user's message comes with the next request).
	 */
	voteWasStale(decision: Extract<ExecutionDecision, { kind: 'vote' }>): void {
		const changed = this.refreshSnapshot();
		this.messages.push({
			role: 'tool',
			toolCallId: decision.callId,
			toolName: voteToolName,
			content: changed.length > 0 ? prompts.staleVoteMessage(changed) : prompts.steeredVoteMessage,
			isError: true,
		});
	}

	private async call(request: ChatRequest): Promise<TurnStep<ExecutionDecision>> {
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
		if (outcome.kind === 'failed') this.retry = request;
		if (outcome.kind === 'completed') {
			const { result } = outcome;
			this.keeper.completed(request, result.usage);
			this.messages.push({
				role: 'assistant',
				content: result.text,
				// An oversize answer or reason is rejected below; the history keeps only its size.
				toolCalls: result.toolCalls.map(keptCall),
				providerData: result.providerData,
			});
			this.response = { result, toolsRan: false };
		}
		return {
			kind: 'called',
			report: outcome.report,
			...(outcome.kind === 'failed' ? { failure: outcome.error } : {}),
		};
	}

	/** The step the last response leads to, or undefined to make another call. */
	private handle(response: {
		result: ModelCallResult;
		toolsRan: boolean;
	}): TurnStep<ExecutionDecision> | undefined {
		const calls = response.result.toolCalls;
		const workflow = calls.filter((call) => workflowToolNames.has(call.name));
		const others = calls.filter((call) => !workflowToolNames.has(call.name));
		if (others.length > 0 && !response.toolsRan) {
			response.toolsRan = true;
			return { kind: 'tools', calls: others };
		}
		this.response = undefined;
		const decision = workflow.length > 0 ? this.decide(workflow) : this.noWorkflowCall(others.length > 0);
		if (decision) return { kind: 'done', value: decision };
		if (this.attempts >= this.context.settings.maxAttemptsPerTurn) {
			const message = `no valid workflow call after ${this.attempts} attempts`;
			return { kind: 'done', value: { kind: 'exhausted', message } };
		}
		return undefined;
	}

	private noWorkflowCall(ranTools: boolean): undefined {
		if (ranTools) return undefined;
		this.attempts++;
		this.context.emit({
			type: 'workflow-error',
			agentId: this.agent.id,
			attempt: this.attempts,
			message: 'no workflow call (new_answer or vote) in the response',
		});
		this.messages.push({ role: 'user', content: prompts.enforcementMessage });
		return undefined;
	}

	private request(): ChatRequest {
		const { settings, anonIds, runId } = this.context;
		const toolbox = this.toolbox();
		const { checklist } = settings;
		const workflow = checklist
			? workflowTools(anonIds, {
					proposals: checklist.mode === 'bootstrap_inline',
					maxProposals: checklist.maxProposalsPerAgentPerRound,
					threshold: checklist.threshold,
				})
			: workflowTools(anonIds);
		return {
			system: prompts.coordinationSystemPrompt({
				systemMessage: this.agent.systemMessage,
				votingSensitivity: settings.votingSensitivity,
				noveltyRequirement: settings.answerNoveltyRequirement,
				...(settings.planningMode ? { planning: settings.planningModeInstruction } : {}),
				...(checklist ? { checklistThreshold: checklist.threshold } : {}),
			}),
			messages: [...this.messages],
			tools: this.toolCalls < settings.maxToolCallsPerTurn ? [...toolbox.definitions, ...workflow] : workflow,
			temperature: this.agent.temperature,
			maxOutputTokens: this.agent.maxOutputTokens,
			providerOptions: this.agent.providerOptions,
			stablePrefixMessages: 1,
			cacheKey: cacheKeyOf(runId, this.agent.id),
			overlay: this.overlay,
		};
	}

	private decide(workflow: readonly ToolCall[]): ExecutionDecision | undefined {
		const { settings, peers } = this.context;
		const decision = decideWorkflow(workflow, {
			snapshot: this.snapshot,
			ownAnonId: this.anonId,
			answersSoFar: peers.answerCount(this.agent.id),
			maxAnswers: settings.maxNewAnswersPerAgent,
			novelty: settings.answerNoveltyRequirement,
			...(this.context.checklist ? { checklist: this.context.checklist } : {}),
		});
		if (decision.kind === 'answer') {
			const { content, proposals } = decision;
			return { kind: 'answer', content, overlay: this.overlay.snapshot(), proposals };
		}
		if (decision.kind === 'vote') {
			const { call, target, reason, scores, proposals } = decision;
			const { version } = this.snapshot;
			return {
				kind: 'vote',
				callId: call.id,
				target,
				reason,
				snapshotVersion: version,
				steerSeen: this.steering.lastSeen,
				...(scores ? { scores } : {}),
				proposals,
			};
		}
		this.attempts++;
		for (const { call, message } of decision.errors) {
			this.context.emit({
				type: 'workflow-error',
				agentId: this.agent.id,
				attempt: this.attempts,
				message: `${call.name}: ${message}`,
			});
			this.messages.push({
				role: 'tool',
				toolCallId: call.id,
				toolName: call.name,
				content: message,
				isError: true,
			});
		}
		return undefined;
	}

	/** At each decision point, answers accepted since the snapshot reach the agent as an UPDATE. */
	private injectUpdates(): void {
		if (this.context.peers.snapshot().version === this.snapshot.version) return;
		const changed = this.refreshSnapshot();
		if (changed.length === 0) return;
		this.messages.push(...this.pin([{ role: 'user', content: prompts.updateMessage(changed) }]));
	}

	private pin(messages: ChatMessage[]): ChatMessage[] {
		for (const message of messages) this.pinned.add(message);
		return messages;
	}

	private refreshSnapshot(): AnswerRecord[] {
		const previous = this.snapshot;
		this.snapshot = this.context.peers.snapshot();
		const changed = [...this.snapshot.answers.values()].filter(
			(answer) => previous.answers.get(answer.anonId)?.label !== answer.label,
		);
		if (changed.length > 0) {
			this.context.emit({
				type: 'update-injected',
				agentId: this.agent.id,
				labels: changed.map((answer) => answer.label),
			});
		}
		return changed;
	}

	private toolbox(): Toolbox {
		if (this.toolboxCache?.version === this.snapshot.version) return this.toolboxCache.toolbox;
		const answers = new Map<string, OverlaySnapshot>();
		for (const [anonId, answer] of this.snapshot.answers) answers.set(anonId, answer.overlay);
		const toolbox = this.context.toolbox(answers);
		this.toolboxCache = { version: this.snapshot.version, toolbox };
		return toolbox;
	}
}
