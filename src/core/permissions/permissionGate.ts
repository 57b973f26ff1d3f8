/**
 * The choke point every tool call that leaves the workspace overlay passes through, for every
 * agent and every backend (MassGen hooked permissions per backend and missed some:
 * docs/decisions/0011-one-choke-point-for-tool-calls.md). It charges the run budget, asks the engine, waits
 * for an approval when the engine says "ask", records every decision in the audit ledger and tells the model
 * why a call was refused.
 */
import type { ApprovalBroker, ApprovalOutcome } from './approvalBroker.js';
import type { Phase, RunEventBody } from '../../contract/runEvents.js';
import type { AuditEntry, AuditLedger } from './auditLedger.js';
import type {
	PermissionEngine,
	PermissionRequest,
	PermissionStore,
	PermissionVerdict,
} from './permissionEngine.js';
import { exactRule } from './rules.js';
import type { RunBudget } from './runBudget.js';
import { stableJson } from '../util/stableJson.js';

export interface PermissionGateOptions {
	readonly runId: string;
	readonly engine: PermissionEngine;
	readonly broker: ApprovalBroker;
	readonly ledger: AuditLedger;
	readonly budget: RunBudget;
	readonly approvalTimeoutMs: number;
	readonly store?: PermissionStore;
	readonly emit: (body: RunEventBody) => void;
	/** Stops an agent cleanly (the orchestrator kills it during coordination). */
	readonly stopAgent: (agentId: string, reason: string) => void;
	/** Problems the caller should surface (e.g. an "always allow" that could not be saved). */
	readonly onNotice?: (message: string) => void;
}

export type GateResult = { readonly allowed: true } | { readonly allowed: false; readonly message: string };

export class PermissionGate {
	constructor(private readonly options: PermissionGateOptions) {}

	/** Charges one call of any tool to the run budget; over budget, the agent is stopped. */
	charge(agentId: string, tool: string): GateResult {
		const over = this.options.budget.takeToolCall();
		if (over === null) return { allowed: true };
		this.options.stopAgent(agentId, `stopped: ${over}`);
		return { allowed: false, message: `${tool}: stopped: ${over}. Finish now with what you have.` };
	}

	/** Adds a model call's cost; over budget, the agent is stopped. */
	usage(agentId: string, costUsd: number | null): void {
		const over = this.options.budget.addCost(costUsd);
		if (over !== null) this.options.stopAgent(agentId, `stopped: ${over}`);
	}

	/** Decides one call: allowed, refused, or (after asking) approved or not. */
	async authorize(request: PermissionRequest, phase: Phase, signal: AbortSignal): Promise<GateResult> {
		const verdict = this.options.engine.evaluate(request);
		if (verdict.decision === 'allow') {
			this.record(request, phase, verdict, { decision: 'allow', via: verdict.via, by: 'engine' });
			return { allowed: true };
		}
		if (verdict.decision === 'deny') {
			this.record(request, phase, verdict, { decision: 'deny', via: verdict.via, by: 'engine' });
			return { allowed: false, message: `${request.tool}: ${verdict.reason}.` };
		}
		const grantRule = exactRule(request.action, request.target);
		const outcome = await this.options.broker.request(
			{
				runId: this.options.runId,
				agentId: request.agentId,
				tool: request.tool,
				action: request.action,
				target: request.target,
				args: request.args,
				reason: verdict.reason,
				risk: verdict.risk,
				key: requestKey(request),
				grantRule,
				timeoutMs: this.options.approvalTimeoutMs,
				emit: this.options.emit,
			},
			signal,
		);
		if (outcome.decision === 'allow') await this.grant(outcome, grantRule);
		this.record(request, phase, verdict, {
			decision: outcome.decision,
			via: 'approval',
			by: outcome.by === 'rule' ? 'policy' : outcome.by,
			requestId: outcome.requestId || undefined,
			scope: outcome.decision === 'allow' ? outcome.scope : undefined,
			note: outcome.note,
		});
		if (outcome.decision === 'allow') return { allowed: true };
		return { allowed: false, message: refusal(request.tool, outcome) };
	}

	/** Records a refusal decided outside the engine (e.g. an MCP server that is unavailable). */
	refuse(request: PermissionRequest, phase: Phase, via: 'unavailable' | 'budget', reason: string): void {
		this.options.ledger.append({
			...describe(request),
			runId: this.options.runId,
			phase,
			decision: 'deny',
			via,
			by: 'engine',
			reason,
		});
	}

	private async grant(outcome: ApprovalOutcome, grantRule: string): Promise<void> {
		if (outcome.scope === 'once') return;
		this.options.engine.addRule({ effect: 'allow', pattern: grantRule, source: 'run' });
		if (outcome.scope !== 'always') return;
		if (this.options.store === undefined) {
			this.options.onNotice?.(
				`"Always allow" for ${grantRule} applies to this run only: there is nowhere to save it.`,
			);
			return;
		}
		if (this.options.store.rules().includes(grantRule)) return;
		try {
			await this.options.store.add(grantRule);
		} catch (error) {
			this.options.onNotice?.(`could not save "always allow" for ${grantRule}: ${(error as Error).message}`);
		}
	}

	private record(
		request: PermissionRequest,
		phase: Phase,
		verdict: PermissionVerdict,
		decided: Pick<AuditEntry, 'decision' | 'via' | 'by'> &
			Partial<Pick<AuditEntry, 'requestId' | 'scope' | 'note'>>,
	): void {
		const { requestId, scope, note, ...rest } = decided;
		this.options.ledger.append({
			...describe(request),
			runId: this.options.runId,
			phase,
			...rest,
			...(verdict.rule ? { rule: verdict.rule } : {}),
			risk: { level: verdict.risk.level, reasons: verdict.risk.reasons },
			reason: verdict.reason,
			...(requestId ? { requestId } : {}),
			...(scope ? { scope } : {}),
			...(note ? { note } : {}),
		});
	}
}

function describe(request: PermissionRequest) {
	return {
		agentId: request.agentId,
		tool: request.tool,
		action: request.action,
		target: request.target,
		args: request.args,
	};
}

/** Identical requests: same action, target and arguments (a command's cwd included). */
function requestKey(request: PermissionRequest): string {
	return `${request.action}\u0000${request.target.trim().replace(/\s+/g, ' ')}\u0000${stableJson(request.args)}`;
}

function refusal(tool: string, outcome: ApprovalOutcome): string {
	const note = outcome.note ? ` Note from the user: ${outcome.note}` : '';
	switch (outcome.by) {
		case 'user':
			return `${tool}: denied by the user.${note}`;
		case 'timeout':
			return `${tool}: not approved (${outcome.note ?? 'no decision in time'}); treated as denied.`;
		case 'cancelled':
			return `${tool}: cancelled while waiting for approval.`;
		case 'rule':
			return `${tool}: denied${outcome.note ? `: ${outcome.note}` : ' by policy'}.`;
	}
}
