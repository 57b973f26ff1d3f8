import type { Phase, Usage } from '../../contract/runEvents.js';
import type { ChatRequest, ProviderToolUse } from '../providers/spec/model.js';
import { providerToolEvent } from '../providers/shared/providerToolEvent.js';
import { ProviderError } from '../providers/spec/providerError.js';
import { errorMessage } from '../util/errorMessage.js';
import { runModelCall, type ModelCallResult, type ModelCallState } from './modelCall.js';
import { shouldRestart } from './restartRule.js';
import type { CallReport, TurnContext } from './turn.js';
import type { AgentSpec } from './types.js';

const stale = Symbol('stale snapshot');

export type CallOutcome =
	| { readonly kind: 'completed'; readonly result: ModelCallResult; readonly report: CallReport }
	| { readonly kind: 'failed'; readonly error: ProviderError; readonly report: CallReport }
	/** Dropped to be re-issued with new answers (`restartRule.ts`). */
	| { readonly kind: 'dropped'; readonly report: CallReport }
	| { readonly kind: 'stopped'; readonly report: CallReport };

/**
 * One agent's model calls, one at a time: streams deltas as events, drops a call when re-issuing it
 * with new answers is cheaper, and says what became of each call (the orchestrator retries failures
 * and counts usage).
 */
export class ModelCaller {
	private current: AbortController | undefined;
	private startedAt = 0;
	private hasOutput = false;

	constructor(
		private readonly agent: AgentSpec,
		private readonly phase: Phase,
		private readonly context: TurnContext,
		private readonly signal: AbortSignal,
	) {}

	async call(request: ChatRequest): Promise<CallOutcome> {
		const controller = new AbortController();
		const forward = () => controller.abort(this.signal.reason);
		this.signal.addEventListener('abort', forward, { once: true });
		this.current = controller;
		const { clock } = this.context;
		let firstOutputMs: number | undefined;
		// The SDK loads once per process: not part of this agent's time to first output.
		await this.agent.model.prepare?.();
		this.startedAt = clock.now();
		this.hasOutput = false;
		const state: ModelCallState = { lastUsage: undefined };
		const timing = () => (firstOutputMs === undefined ? {} : { firstOutputMs });
		try {
			const listener = this.listener((ms) => (firstOutputMs = ms));
			const timed = { ...request, clock };
			const result = await runModelCall(this.agent.model, timed, controller.signal, listener, state);
			return {
				kind: 'completed',
				result,
				report: { completed: true, ...(result.usage ? { usage: result.usage } : {}), ...timing() },
			};
		} catch (error) {
			const dropped = controller.signal.reason === stale;
			if (dropped || this.signal.aborted) {
				const aborted = this.aborted(dropped ? 'stale' : 'stopped', state.lastUsage);
				const report = { completed: false, aborted, ...timing() };
				return this.signal.aborted ? { kind: 'stopped', report } : { kind: 'dropped', report };
			}
			const failure = asProviderError(error, this.agent.model.provider);
			return { kind: 'failed', error: failure, report: { completed: false, ...timing() } };
		} finally {
			this.signal.removeEventListener('abort', forward);
			this.current = undefined;
		}
	}

	/** New answers were accepted: drop the current call if re-issuing it with them is cheaper. */
	answersChanged(firstOutputEstimateMs: number | undefined): void {
		const call = { elapsedMs: this.context.clock.now() - this.startedAt, hasOutput: this.hasOutput };
		const fraction = this.context.settings.staleCallRestartFraction;
		if (this.current && shouldRestart(call, firstOutputEstimateMs, fraction)) this.current.abort(stale);
	}

	private aborted(reason: 'stale' | 'stopped', usage: Usage | undefined): CallReport['aborted'] {
		return {
			type: 'call-aborted',
			agentId: this.agent.id,
			phase: this.phase,
			reason,
			elapsedMs: Math.round(this.context.clock.now() - this.startedAt),
			hadOutput: this.hasOutput,
			...(usage ? { usage } : {}),
		};
	}

	private listener(onFirstOutput: (ms: number) => void) {
		const { context, agent, phase } = this;
		return {
			onText: (text: string) => context.emit({ type: 'text-delta', agentId: agent.id, phase, text }),
			onReasoning: (text: string) =>
				context.emit({ type: 'reasoning-delta', agentId: agent.id, phase, text }),
			onProviderTool: (use: ProviderToolUse) => context.emit(providerToolEvent(agent.id, phase, use)),
			onNotice: (message: string) => context.emit({ type: 'notice', agentId: agent.id, message }),
			onFirstOutput: () => {
				this.hasOutput = true;
				onFirstOutput(context.clock.now() - this.startedAt);
			},
		};
	}
}

function asProviderError(error: unknown, provider: string): ProviderError {
	if (ProviderError.is(error)) return error;
	const message = errorMessage(error);
	return new ProviderError({
		provider,
		kind: 'invalid-response',
		message: `unexpected failure: ${message}`,
		cause: error,
	});
}
