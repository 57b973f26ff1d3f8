/**
 * The permission audit ledger: `permissions.jsonl` in the run directory, one JSON line per
 * decision on a tool call that left the workspace overlay (who asked, what, which rule or risk,
 * the decision and who made it). Append-only and written synchronously, so a crash or a
 * SIGKILL loses nothing already decided.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Phase } from '../../contract/runEvents.js';
import { runFile } from '../../contract/runLayout.js';
import type { RiskLevel } from './riskClassifier.js';
import type { RuleInput } from './rules.js';

export interface AuditEntry {
	/** ISO time of the decision. */
	readonly time: string;
	readonly runId: string;
	readonly agentId: string;
	readonly phase: Phase;
	readonly tool: string;
	readonly action: string;
	readonly target: string;
	readonly args: Readonly<Record<string, unknown>>;
	readonly decision: 'allow' | 'deny';
	/**
	 * What decided: the hardline floor, a rule, the risk classifier (low risk runs unasked), the
	 * run budget, a server that is unavailable or untrusted, or the approval prompt.
	 */
	readonly via: 'hardline' | 'rule' | 'risk' | 'budget' | 'unavailable' | 'approval';
	/** Who made the decision: the engine, the user, an automatic policy (CLI flags), or the clock. */
	readonly by: 'engine' | 'user' | 'policy' | 'timeout' | 'cancelled';
	readonly rule?: RuleInput;
	readonly risk?: { readonly level: RiskLevel; readonly reasons: readonly string[] };
	readonly reason: string;
	readonly requestId?: string;
	readonly scope?: 'once' | 'run' | 'always';
	readonly note?: string;
}

export class AuditLedger {
	private readonly list: AuditEntry[] = [];
	private failure: unknown = null;

	/** `runDir` undefined keeps the ledger in memory only. `redact` scrubs known secrets from each line. */
	constructor(
		private readonly runDir?: string,
		private readonly redact: (text: string) => string = (text) => text,
	) {}

	/** Where the ledger is written, if anywhere. */
	get path(): string | undefined {
		return this.runDir === undefined ? undefined : runFile(this.runDir, 'permissions');
	}

	/** Every entry so far, in order. */
	get entries(): readonly AuditEntry[] {
		return this.list;
	}

	/** The first write error, if any (the ledger keeps going in memory). */
	get error(): unknown {
		return this.failure;
	}

	append(entry: Omit<AuditEntry, 'time'>): AuditEntry {
		const full: AuditEntry = { time: new Date().toISOString(), ...entry };
		this.list.push(full);
		const path = this.path;
		if (path !== undefined && this.failure === null) {
			try {
				mkdirSync(dirname(path), { recursive: true });
				appendFileSync(path, `${this.redact(JSON.stringify(full))}\n`, { encoding: 'utf8', flag: 'a' });
			} catch (error) {
				this.failure = error;
			}
		}
		return full;
	}
}
