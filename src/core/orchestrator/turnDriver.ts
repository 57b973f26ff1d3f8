import type { CallReport, AgentTurn } from '../agents/turn.js';
import type { ProviderError } from '../providers/spec/providerError.js';
import type { RunClock } from '../util/clock.js';
import { sleep } from '../util/sleep.js';
import type { AgentRuntime } from './agentRuntime.js';
import { backoffDelay } from './backoff.js';
import { countedUsage } from './countedUsage.js';
import type { RunEventStream } from './runEventStream.js';
import type { SpendGuard } from './spendGuard.js';
import type { OrchestratorSettings } from './types.js';
import type { UsageLedger } from './usageLedger.js';

export type Driven<Done> =
	| { readonly kind: 'done'; readonly value: Done }
	| { readonly kind: 'stopped' }
	/** The agent is out after a failed call (fatal, or too many in a row): `hooks.out` was told why. */
	| { readonly kind: 'failed' };

/** What a caller adds to driving a turn (coordination: its scheduling; every phase: its end). */
export interface DriveHooks {
	/** Each step has begun: the turn has read the board's answers (before its model call). */
	readonly stepBegun?: () => void;
	readonly toolsBegin?: () => void;
	readonly toolsEnd?: () => void;
	/** The agent is out: called at once, before the turn ends. */
	readonly out?: (reason: string) => void;
}

/**
 * Applies the steps of agents' turns (coordination executions, presentations, evaluations): counts
 * each call's usage against the ledger and the budget, retries failed calls after backoff, runs the
 * tools a step asks for. The agent's failure count and time to first output live in its runtime.
 */
export class TurnDriver {
	constructor(
		private readonly run: {
			readonly settings: OrchestratorSettings;
			readonly clock: RunClock;
			readonly events: RunEventStream;
			readonly ledger: UsageLedger;
			readonly spend: SpendGuard;
			readonly random?: () => number;
			/** A completed call's cost, for the run tools' own budget. */
			readonly toolsUsage: (agentId: string, costUsd: number | null) => void;
		},
	) {}

	async drive<Done>(
		turn: AgentTurn<Done>,
		rt: AgentRuntime,
		signal: AbortSignal,
		hooks: DriveHooks = {},
	): Promise<Driven<Done>> {
		for (;;) {
			const stepping = turn.next();
			hooks.stepBegun?.();
			const step = await stepping;
			if (step.kind === 'done') return step;
			if (step.kind === 'stopped') {
				if (step.report) this.account(rt, step.report);
				return step;
			}
			if (step.kind === 'tools') {
				hooks.toolsBegin?.();
				try {
					await turn.runTools(step.calls);
				} finally {
					hooks.toolsEnd?.();
				}
				continue;
			}
			this.account(rt, step.report);
			// Answers that land in the same turn of the event loop cost one re-issued call, not one each.
			if (step.report.aborted?.reason === 'stale') await new Promise((resolve) => setImmediate(resolve));
			if (step.failure) {
				const retry = await this.failed(rt, step.failure, signal, hooks);
				if (retry !== 'retry') return { kind: retry };
			}
		}
	}

	private account(rt: AgentRuntime, report: CallReport): void {
		const { events, ledger, spend } = this.run;
		const agentId = rt.spec.id;
		if (report.firstOutputMs !== undefined) rt.firstOutput.observe(report.firstOutputMs);
		// Counted as `countedUsage` reads them: a server's impossible counts never offset the others'.
		if (report.aborted) {
			const usage = report.aborted.usage && countedUsage(report.aborted.usage);
			events.emit({ ...report.aborted, ...(usage ? { usage } : {}) });
			spend.add(usage, ledger.aborted(agentId, usage, rt.spec.price));
		}
		if (report.usage) {
			const usage = countedUsage(report.usage);
			const costUsd = ledger.record(agentId, usage, rt.spec.price);
			events.emit({ type: 'usage', agentId, usage, costUsd });
			if (spend.add(usage, costUsd)) this.run.toolsUsage(agentId, costUsd);
		}
		if (report.completed) rt.failures = 0;
	}

	/** Counts a failed call; the agent is out after a fatal error or too many in a row, else it waits its backoff. */
	private async failed(
		rt: AgentRuntime,
		error: ProviderError,
		signal: AbortSignal,
		hooks: DriveHooks,
	): Promise<'retry' | 'failed' | 'stopped'> {
		const { settings, events, clock } = this.run;
		rt.failures++;
		rt.lastError = error.message;
		events.emit({
			type: 'agent-error',
			agentId: rt.spec.id,
			message: error.message,
			kind: error.kind,
			retryable: error.retryable,
			failures: rt.failures,
		});
		const fatal = error.kind === 'auth' || error.kind === 'context-length' || error.kind === 'unavailable';
		if (fatal || rt.failures >= settings.maxAgentFailures) {
			hooks.out?.(fatal ? error.message : `failed ${rt.failures} times in a row: ${error.message}`);
			return 'failed';
		}
		try {
			await sleep(this.backoff(rt.failures, error.retryAfterMs), signal, clock);
			return 'retry';
		} catch {
			return 'stopped';
		}
	}

	backoff(failures: number, retryAfterMs?: number): number {
		const { settings, random } = this.run;
		return backoffDelay(failures, settings.retryBaseDelayMs, settings.retryMaxDelayMs, retryAfterMs, random);
	}
}
