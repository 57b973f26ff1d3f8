import { promptContext, userMessage } from '../context/promptContext.js';
import type { AnswerRecord, AnswerSnapshot } from './answers.js';
import type { AgentSpec } from './types.js';
import type { ChatMessage, ChatRequest, ToolCall } from '../providers/spec/model.js';
import type { Toolbox } from '../tools/types.js';
import type { Overlay, OverlaySnapshot } from '../workspace/types.js';
import type { AgentHost } from './agentHost.js';
import type { ModelCallResult } from './modelCall.js';
import { cacheKeyOf } from './cacheKey.js';
import * as prompts from './prompts.js';
import { ResilientCaller } from './resilientCaller.js';
import { budgetedCalls, runToolCalls } from './toolRunner.js';
import { decideWorkflow, keptCall, workflowToolNames, workflowTools } from './workflowTools.js';

export type ExecutionOutcome =
	| { readonly kind: 'answered' }
	| { readonly kind: 'voted' }
	/** Every workflow attempt of the turn was invalid. */
	| { readonly kind: 'exhausted'; readonly message: string }
	/** Aborted from outside, or the agent is out after failures. */
	| { readonly kind: 'stopped' };

/**
 * One coordination execution ("round") of one agent: a conversation that ends in exactly one
 * accepted workflow call. New answers reach it mid-way as UPDATE messages (inject-and-continue).
 */
export class AgentExecution {
	private snapshot: AnswerSnapshot;
	private readonly messages: ChatMessage[] = [];
	private readonly caller: ResilientCaller;
	private attempts = 0;
	private toolCalls = 0;
	/** Tools can take long (an approval waits for the user): meanwhile no one waits for this execution. */
	private runningTools = false;
	/** Rebuilt only when the snapshot changes: building tool schemas is the costly part of a request. */
	private toolboxCache: { readonly version: number; readonly toolbox: Toolbox } | undefined;

	constructor(
		private readonly agent: AgentSpec,
		private readonly anonId: string,
		private readonly overlay: Overlay,
		private readonly host: AgentHost,
		private readonly signal: AbortSignal,
	) {
		this.snapshot = host.snapshot();
		this.caller = new ResilientCaller(agent, 'coordination', host, signal);
		const context = promptContext(host.attachments, agent.model);
		const first = prompts.coordinationUserMessage(
			host.question,
			host.history,
			this.snapshot,
			context,
			host.restartFeedback,
		);
		this.messages.push(userMessage(first, context));
	}

	/** Labels of the answers in the snapshot this execution starts from. */
	get startLabels(): string[] {
		return [...this.snapshot.answers.values()].map((answer) => answer.label);
	}

	/**
	 * Its snapshot holds no answer, so this execution cannot vote: unless it is running tools (after
	 * which the answers that landed meanwhile reach it, and it may vote), it will end in an answer.
	 */
	get mustAnswer(): boolean {
		return this.snapshot.answers.size === 0 && !this.runningTools;
	}

	answersChanged(): void {
		this.caller.answersChanged();
	}

	async run(): Promise<ExecutionOutcome> {
		const { settings } = this.host;
		for (;;) {
			this.injectUpdates();
			const result = await this.caller.call(this.request());
			if (result === 'stopped') return { kind: 'stopped' };
			if (result === 'restart') {
				// Answers that land in the same turn of the event loop cost one restart, not one each.
				await new Promise((resolve) => setImmediate(resolve));
				continue;
			}
			this.messages.push({
				role: 'assistant',
				content: result.text,
				// An oversize answer or reason is rejected below; the history keeps only its size.
				toolCalls: result.toolCalls.map(keptCall),
				providerData: result.providerData,
			});
			const outcome = await this.handle(result);
			if (outcome) return outcome;
			if (this.attempts >= settings.maxAttemptsPerTurn) {
				return { kind: 'exhausted', message: `no valid workflow call after ${this.attempts} attempts` };
			}
		}
	}

	private request(): ChatRequest {
		const { settings } = this.host;
		const toolbox = this.toolbox();
		const workflow = workflowTools(this.host.anonIds);
		return {
			system: prompts.coordinationSystemPrompt({
				systemMessage: this.agent.systemMessage,
				votingSensitivity: settings.votingSensitivity,
				noveltyRequirement: settings.answerNoveltyRequirement,
				...(settings.planningMode ? { planning: settings.planningModeInstruction } : {}),
			}),
			messages: [...this.messages],
			tools: this.toolCalls < settings.maxToolCallsPerTurn ? [...toolbox.definitions, ...workflow] : workflow,
			temperature: this.agent.temperature,
			maxOutputTokens: this.agent.maxOutputTokens,
			providerOptions: this.agent.providerOptions,
			stablePrefixMessages: 1,
			cacheKey: cacheKeyOf(this.host.runId, this.agent.id),
			overlay: this.overlay,
		};
	}

	/** Returns the outcome when the turn is over, undefined to make another call. */
	private async handle(result: ModelCallResult): Promise<ExecutionOutcome | undefined> {
		const workflow = result.toolCalls.filter((call) => workflowToolNames.has(call.name));
		const others = result.toolCalls.filter((call) => !workflowToolNames.has(call.name));
		if (others.length > 0) {
			const waitedFor = this.mustAnswer;
			this.runningTools = true;
			if (waitedFor) this.host.mayVoteNow(this.agent.id);
			try {
				await this.runTools(others);
			} finally {
				this.runningTools = false;
			}
		}
		if (workflow.length === 0) {
			if (others.length > 0) return undefined;
			this.attempts++;
			this.host.emit({
				type: 'workflow-error',
				agentId: this.agent.id,
				attempt: this.attempts,
				message: 'no workflow call (new_answer or vote) in the response',
			});
			this.messages.push({ role: 'user', content: prompts.enforcementMessage });
			return undefined;
		}
		return this.decide(workflow);
	}

	private async runTools(calls: readonly ToolCall[]): Promise<void> {
		const budget = this.host.settings.maxToolCallsPerTurn - this.toolCalls;
		const run = {
			agentId: this.agent.id,
			phase: 'coordination' as const,
			toolbox: this.toolbox(),
			signal: this.signal,
			emit: this.host.emit.bind(this.host),
		};
		this.messages.push(...(await runToolCalls(calls, run, Math.max(0, budget))));
		this.toolCalls += budgetedCalls(calls);
		if (this.toolCalls >= this.host.settings.maxToolCallsPerTurn) {
			this.messages.push({ role: 'user', content: prompts.toolBudgetMessage });
		}
	}

	private decide(workflow: readonly ToolCall[]): ExecutionOutcome | undefined {
		const decision = decideWorkflow(workflow, {
			snapshot: this.snapshot,
			ownAnonId: this.anonId,
			answersSoFar: this.host.answerCount(this.agent.id),
			maxAnswers: this.host.settings.maxNewAnswersPerAgent,
			novelty: this.host.settings.answerNoveltyRequirement,
		});
		if (decision.kind === 'errors') {
			this.attempts++;
			for (const { call, message } of decision.errors) {
				this.host.emit({
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
		if (decision.kind === 'answer') {
			this.host.submitAnswer(this.agent.id, decision.content, this.overlay.snapshot());
			return { kind: 'answered' };
		}
		if (
			this.host.submitVote(this.agent.id, decision.target, decision.reason, this.snapshot.version) ===
			'accepted'
		) {
			return { kind: 'voted' };
		}
		const changed = this.refreshSnapshot();
		this.messages.push({
			role: 'tool',
			toolCallId: decision.call.id,
			toolName: 'vote',
			content: prompts.staleVoteMessage(changed),
			isError: true,
		});
		return undefined;
	}

	/** At each decision point, answers accepted since the snapshot reach the agent as an UPDATE. */
	private injectUpdates(): void {
		if (this.host.snapshot().version === this.snapshot.version) return;
		const changed = this.refreshSnapshot();
		if (changed.length > 0) this.messages.push({ role: 'user', content: prompts.updateMessage(changed) });
	}

	private refreshSnapshot(): AnswerRecord[] {
		const previous = this.snapshot;
		this.snapshot = this.host.snapshot();
		const changed = [...this.snapshot.answers.values()].filter(
			(answer) => previous.answers.get(answer.anonId)?.label !== answer.label,
		);
		if (changed.length > 0) {
			this.host.emit({
				type: 'update-injected',
				agentId: this.agent.id,
				labels: changed.map((answer) => answer.label),
			});
		}
		// It can vote now: agents that waited for its first answer may start.
		if (previous.answers.size === 0 && this.snapshot.answers.size > 0) {
			this.host.mayVoteNow(this.agent.id);
		}
		return changed;
	}

	private toolbox(): Toolbox {
		if (this.toolboxCache?.version === this.snapshot.version) return this.toolboxCache.toolbox;
		const answers = new Map<string, OverlaySnapshot>();
		for (const [anonId, answer] of this.snapshot.answers) answers.set(anonId, answer.overlay);
		const toolbox = this.host.createToolbox(this.agent.id, this.overlay, answers, true);
		this.toolboxCache = { version: this.snapshot.version, toolbox };
		return toolbox;
	}
}
