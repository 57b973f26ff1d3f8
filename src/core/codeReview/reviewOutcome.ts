import type { RunResult } from '../../contract/runResult.js';
import { type AgreedFinding, countAgreement } from './agreement.js';
import { parseFindings } from './findings.js';

export interface ReviewOutcome {
	/** The winning review's findings and those at least two other agents agree on. */
	readonly findings: readonly AgreedFinding[];
	/** Agents whose answers were counted ("raised by K of N agents"), at least 1. */
	readonly of: number;
}

/**
 * A finished review run read as findings: every agent's latest answer and the winning final
 * answer parsed (`parseFindings`), then counted (`countAgreement`). What the editor's Review
 * Selection and `massgen mcp`'s review_changes both show.
 */
export function reviewOutcome(result: Pick<RunResult, 'winner' | 'answers' | 'finalAnswer'>): ReviewOutcome {
	const winner = result.winner?.agentId ?? null;
	const answers = result.answers.map((answer) => ({
		agentId: answer.agentId,
		findings: parseFindings(answer.content),
	}));
	const findings = countAgreement({ winner, final: parseFindings(result.finalAnswer ?? ''), answers });
	const of = Math.max(
		1,
		new Set([...(winner ? [winner] : []), ...result.answers.map((answer) => answer.agentId)]).size,
	);
	return { findings, of };
}
