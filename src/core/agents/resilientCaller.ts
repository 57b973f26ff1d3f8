import type { Phase, Usage } from '../../contract/runEvents.js';
import type { AgentSpec } from './types.js';
import type { ChatRequest, ProviderToolUse } from '../providers/spec/model.js';
import { providerToolEvent } from '../providers/shared/providerToolEvent.js';
import { ProviderError } from '../providers/spec/providerError.js';
import type { AgentHost } from './agentHost.js';
import { runModelCall, type ModelCallResult, type ModelCallState } from './modelCall.js';
import { shouldRestart } from './restartRule.js';
import { errorMessage } from '../util/errorMessage.js';

const stale = Symbol('stale snapshot');

/**
 * One agent's model calls: streams deltas as events, retries failures through the host's backoff,
 * drops a call when re-issuing it with new answers is cheaper (`restartRule.ts`), and reports every
 * call that ends early.
 */
export class ResilientCaller {
	private current: AbortController | undefined;
	private startedAt = 0;
	private hasOutput = false;

	constructor(
		private readonly agent: AgentSpec,
		private readonly phase: Phase,
		private readonly host: AgentHost,
		private readonly signal: AbortSignal,
	) {}

	/** Resolves with the result, `'restart'` when dropped as stale, or `'stopped'` when aborted or the agent is out. */
	async call(request: ChatRequest): Promise<ModelCallResult | 'restart' | 'stopped'> {
		for (;;) {
			if (this.signal.aborted) return 'stopped';
			const controller = new AbortController();
			const forward = () => controller.abort(this.signal.reason);
			this.signal.addEventListener('abort', forward, { once: true });
			this.current = controller;
			// The SDK loads once per process: not part of this agent's time to first output.
			await this.agent.model.prepare?.();
			this.startedAt = this.host.now();
			this.hasOutput = false;
			const state: ModelCallState = { lastUsage: undefined };
			try {
				const model = this.agent.model;
				const timed = { ...request, clock: this.host.clock };
				const result = await runModelCall(model, timed, controller.signal, this.listener(), state);
				if (result.usage) this.host.recordUsage(this.agent.id, result.usage);
				this.host.callSucceeded(this.agent.id);
				return result;
			} catch (error) {
				const dropped = controller.signal.reason === stale;
				if (dropped || this.signal.aborted) {
					this.reportAborted(dropped ? 'stale' : 'stopped', state.lastUsage);
				}
				if (this.signal.aborted) return 'stopped';
				if (dropped) return 'restart';
				const failure = asProviderError(error, this.agent.model.provider);
				if (!(await this.host.callFailed(this.agent.id, failure, this.signal))) return 'stopped';
			} finally {
				this.signal.removeEventListener('abort', forward);
				this.current = undefined;
			}
		}
	}

	/** New answers were accepted: drop the current call if re-issuing it with them is cheaper. */
	answersChanged(): void {
		const call = { elapsedMs: this.host.now() - this.startedAt, hasOutput: this.hasOutput };
		const estimate = this.host.firstOutputEstimate(this.agent.id);
		if (this.current && shouldRestart(call, estimate.ms, this.host.settings.staleCallRestartFraction)) {
			this.current.abort(stale);
		}
	}

	private reportAborted(reason: 'stale' | 'stopped', usage: Usage | undefined): void {
		this.host.callAborted({
			type: 'call-aborted',
			agentId: this.agent.id,
			phase: this.phase,
			reason,
			elapsedMs: Math.round(this.host.now() - this.startedAt),
			hadOutput: this.hasOutput,
			...(usage ? { usage } : {}),
		});
	}

	private listener() {
		const { host, agent, phase } = this;
		return {
			onText: (text: string) => host.emit({ type: 'text-delta', agentId: agent.id, phase, text }),
			onReasoning: (text: string) => host.emit({ type: 'reasoning-delta', agentId: agent.id, phase, text }),
			onProviderTool: (use: ProviderToolUse) => host.emit(providerToolEvent(agent.id, phase, use)),
			onNotice: (message: string) => host.emit({ type: 'notice', agentId: agent.id, message }),
			onFirstOutput: () => {
				this.hasOutput = true;
				host.firstOutputEstimate(agent.id).observe(host.now() - this.startedAt);
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
