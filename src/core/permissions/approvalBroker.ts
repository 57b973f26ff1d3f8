/**
 * Approvals (docs/tools-and-sandbox.md): a risky tool call waits here for the user's decision while
 * the other agents continue. Identical requests from several agents of one run are shown once
 * and resolved for all; a request times out to deny; cancelling the asking agent withdraws it.
 *
 * The broker is UI-free: it emits `approval-request` / `approval-result` run events, tells
 * listeners (the panel, the CLI prompt) what is pending, and takes their answer via `resolve`.
 */
import { randomBytes } from 'node:crypto';
import type { RunEventBody } from '../../contract/runEvents.js';
import type { Risk } from './riskClassifier.js';

/** The user's answer, spelled as the panel's approval message spells it. */
export type ApprovalChoice = 'allow-once' | 'allow-run' | 'always' | 'deny';
export type ApprovalScope = 'once' | 'run' | 'always';

/** What the permission gate asks (one agent's call). */
export interface ApprovalQuestion {
	readonly runId: string;
	readonly agentId: string;
	readonly tool: string;
	readonly action: string;
	readonly target: string;
	readonly args: Readonly<Record<string, unknown>>;
	/** Why approval is needed (the rule or the risk). */
	readonly reason: string;
	readonly risk: Risk;
	/** Requests of one run with the same key are the same request (shown once, resolved for all). */
	readonly key: string;
	/** The rule that "allow for this run" and "always allow" add, e.g. `command(npm test)`. */
	readonly grantRule: string;
	readonly timeoutMs: number;
	/** Where the run's events go (the orchestrator's `emit`). */
	readonly emit: (body: RunEventBody) => void;
}

/** A request waiting for a decision, as the UI shows it. */
export interface PendingApproval {
	readonly requestId: string;
	readonly runId: string;
	/** Every agent waiting on this request, first asker first. */
	readonly agentIds: readonly string[];
	readonly tool: string;
	readonly action: string;
	readonly target: string;
	/** The exact tool arguments (the command and its cwd, or the MCP arguments). */
	readonly args: Readonly<Record<string, unknown>>;
	readonly reason: string;
	readonly risk: Risk;
	readonly grantRule: string;
	/** Epoch ms. */
	readonly requestedAt: number;
	readonly expiresAt: number;
}

export interface ApprovalOutcome {
	readonly requestId: string;
	readonly decision: 'allow' | 'deny';
	/** `rule`: an automatic policy (CLI `--yes` / `--deny-all`, no terminal); `cancelled`: the agent stopped waiting. */
	readonly by: 'user' | 'rule' | 'timeout' | 'cancelled';
	readonly scope: ApprovalScope;
	/** The user's note to the agent (with a denial), or the policy's explanation. */
	readonly note?: string;
}

/** Answers requests without asking anyone (undefined = ask). */
export type ApprovalPolicy = (
	request: PendingApproval,
) => { readonly decision: 'allow' | 'deny'; readonly note?: string } | undefined;

export interface ApprovalBrokerOptions {
	readonly policy?: ApprovalPolicy;
	/** Epoch-ms clock, for tests. */
	readonly now?: () => number;
}

interface Waiter {
	readonly agentId: string;
	readonly settle: (outcome: ApprovalOutcome) => void;
}

interface Entry {
	pending: PendingApproval;
	readonly mapKey: string;
	readonly waiters: Set<Waiter>;
	readonly emit: (body: RunEventBody) => void;
	timer: NodeJS.Timeout | undefined;
}

type Listener<T extends unknown[]> = (...args: T) => void;

export class ApprovalBroker {
	private readonly entries = new Map<string, Entry>();
	private readonly byRequestId = new Map<string, Entry>();
	private readonly requestListeners = new Set<Listener<[PendingApproval]>>();
	private readonly settleListeners = new Set<Listener<[PendingApproval, ApprovalOutcome]>>();
	private readonly now: () => number;
	private counter = 0;

	constructor(private readonly options: ApprovalBrokerOptions = {}) {
		this.now = options.now ?? Date.now;
	}

	/** Called when a new request needs a decision (not again for agents joining it). Returns an unsubscribe function. */
	onDidRequest(listener: (request: PendingApproval) => void): () => void {
		this.requestListeners.add(listener);
		return () => this.requestListeners.delete(listener);
	}

	/** Called once per request when it is decided, times out or is withdrawn. */
	onDidSettle(listener: (request: PendingApproval, outcome: ApprovalOutcome) => void): () => void {
		this.settleListeners.add(listener);
		return () => this.settleListeners.delete(listener);
	}

	/** Requests waiting for a decision (of one run, or all). */
	pending(runId?: string): PendingApproval[] {
		return [...this.entries.values()]
			.map((entry) => entry.pending)
			.filter((pending) => runId === undefined || pending.runId === runId);
	}

	/**
	 * The user's decision on a pending request; false when it is no longer pending (already
	 * decided, timed out, or withdrawn). `note` reaches the agent with a denial.
	 */
	resolve(requestId: string, choice: ApprovalChoice, note?: string): boolean {
		const entry = this.byRequestId.get(requestId);
		if (entry === undefined) return false;
		const scope: ApprovalScope = choice === 'allow-run' ? 'run' : choice === 'always' ? 'always' : 'once';
		const trimmed = note?.trim();
		this.settle(entry, {
			requestId,
			decision: choice === 'deny' ? 'deny' : 'allow',
			by: 'user',
			scope,
			...(trimmed ? { note: trimmed } : {}),
		});
		return true;
	}

	/** Withdraws every pending request of a run (e.g. when the run ends). */
	cancelRun(runId: string): void {
		for (const entry of [...this.entries.values()]) {
			if (entry.pending.runId === runId) {
				this.settle(entry, {
					requestId: entry.pending.requestId,
					decision: 'deny',
					by: 'cancelled',
					scope: 'once',
				});
			}
		}
	}

	/**
	 * Waits for a decision on one agent's call. Joins an identical pending request of the same
	 * run instead of asking twice. Resolves (never rejects) with the outcome; an aborted
	 * `signal` resolves at once with `cancelled`.
	 */
	request(question: ApprovalQuestion, signal: AbortSignal): Promise<ApprovalOutcome> {
		const mapKey = `${question.runId}\u0000${question.key}`;
		return new Promise<ApprovalOutcome>((resolve) => {
			if (signal.aborted) return resolve({ requestId: '', decision: 'deny', by: 'cancelled', scope: 'once' });
			let entry = this.entries.get(mapKey);
			const fresh = entry === undefined;
			if (entry === undefined) entry = this.open(question, mapKey);
			const current = entry;
			const onAbort = () => this.leave(current, waiter);
			const waiter: Waiter = {
				agentId: question.agentId,
				settle: (outcome) => {
					signal.removeEventListener('abort', onAbort);
					resolve(outcome);
				},
			};
			current.waiters.add(waiter);
			if (!current.pending.agentIds.includes(question.agentId)) {
				current.pending = { ...current.pending, agentIds: [...current.pending.agentIds, question.agentId] };
			}
			signal.addEventListener('abort', onAbort, { once: true });
			if (fresh) this.announce(current, question.timeoutMs);
		});
	}

	private open(question: ApprovalQuestion, mapKey: string): Entry {
		const requestedAt = this.now();
		const requestId = `approval-${++this.counter}-${randomBytes(3).toString('hex')}`;
		const pending: PendingApproval = {
			requestId,
			runId: question.runId,
			agentIds: [],
			tool: question.tool,
			action: question.action,
			target: question.target,
			args: question.args,
			reason: question.reason,
			risk: question.risk,
			grantRule: question.grantRule,
			requestedAt,
			expiresAt: requestedAt + question.timeoutMs,
		};
		const entry: Entry = { pending, mapKey, waiters: new Set(), emit: question.emit, timer: undefined };
		this.entries.set(mapKey, entry);
		this.byRequestId.set(requestId, entry);
		return entry;
	}

	private announce(entry: Entry, timeoutMs: number): void {
		const { pending } = entry;
		entry.emit({
			type: 'approval-request',
			agentId: pending.agentIds[0]!,
			requestId: pending.requestId,
			action: pending.action,
			target: pending.target,
			reason: pending.reason,
		});
		const automatic = this.options.policy?.(pending);
		if (automatic !== undefined) {
			this.settle(entry, {
				requestId: pending.requestId,
				decision: automatic.decision,
				by: 'rule',
				scope: 'once',
				...(automatic.note ? { note: automatic.note } : {}),
			});
			return;
		}
		entry.timer = setTimeout(() => {
			const seconds = Math.round(timeoutMs / 1000);
			this.settle(entry, {
				requestId: pending.requestId,
				decision: 'deny',
				by: 'timeout',
				scope: 'once',
				note: `no decision within ${seconds} s`,
			});
		}, timeoutMs);
		entry.timer.unref?.();
		for (const listener of this.requestListeners) listener(pending);
	}

	private leave(entry: Entry, waiter: Waiter): void {
		if (!entry.waiters.delete(waiter)) return;
		waiter.settle({ requestId: entry.pending.requestId, decision: 'deny', by: 'cancelled', scope: 'once' });
		if (entry.waiters.size === 0) {
			this.settle(entry, {
				requestId: entry.pending.requestId,
				decision: 'deny',
				by: 'cancelled',
				scope: 'once',
			});
		}
	}

	private settle(entry: Entry, outcome: ApprovalOutcome): void {
		if (this.entries.get(entry.mapKey) !== entry) return;
		this.entries.delete(entry.mapKey);
		this.byRequestId.delete(entry.pending.requestId);
		clearTimeout(entry.timer);
		const { pending } = entry;
		// The event union has no "withdrawn": a request nobody waits for any more expires (by timeout).
		const by = outcome.by === 'cancelled' ? 'timeout' : outcome.by;
		entry.emit({
			type: 'approval-result',
			agentId: pending.agentIds[0]!,
			requestId: pending.requestId,
			decision: outcome.decision,
			by,
		});
		const waiters = [...entry.waiters];
		entry.waiters.clear();
		for (const waiter of waiters) waiter.settle(outcome);
		for (const listener of this.settleListeners) listener(pending, outcome);
	}
}
