import type { RunResult } from '../../contract/runResult.js';
import { mergeFindings, type MergedFinding } from './agreement.js';
import { parseFindings, severityOrder, type Severity } from './findings.js';

/**
 * A finished review, read as findings (docs/changes.md, "Review quality"). What the editor's
 * reviews, `massgen review` and `massgen mcp`'s review_changes show.
 */
export interface ReviewOutcome {
	/** Raised by at least two agents (every finding, with a team of one), by file and line. */
	readonly agreed: readonly MergedFinding[];
	/** Raised by one agent only ("single-agent findings"), kept apart; empty with a team of one. */
	readonly single: readonly MergedFinding[];
	/** Agents whose answers were counted ("raised by K of N agents"), at least 1. */
	readonly of: number;
	/** The highest severity among the agreed findings (what `massgen review --fail-on` gates on). */
	readonly highestAgreed: Severity | null;
}

/**
 * Whether a finished review run has findings to show: it answered and was neither cancelled nor
 * failed (Review Selection and Review Changes both show nothing otherwise).
 */
export function reviewAnswered(result: Pick<RunResult, 'finalAnswer' | 'status'>): boolean {
	return result.finalAnswer !== null && result.status !== 'cancelled' && result.status !== 'failed';
}

/**
 * Every agent's latest answer and the winning final answer parsed (`parseFindings`), merged across
 * agents by location and meaning (`mergeFindings`), then split into agreed and single-agent findings.
 */
export function reviewOutcome(result: Pick<RunResult, 'winner' | 'answers' | 'finalAnswer'>): ReviewOutcome {
	const winner = result.winner?.agentId ?? null;
	const answers = result.answers.map((answer) => ({
		agentId: answer.agentId,
		findings: parseFindings(answer.content),
	}));
	const findings = mergeFindings({ winner, final: parseFindings(result.finalAnswer ?? ''), answers });
	const of = Math.max(
		1,
		new Set([...(winner ? [winner] : []), ...result.answers.map((answer) => answer.agentId)]).size,
	);
	const enough = Math.min(2, of);
	const agreed = findings.filter((finding) => finding.agents.length >= enough);
	return {
		agreed,
		single: findings.filter((finding) => finding.agents.length < enough),
		of,
		highestAgreed:
			severityOrder.find((level) => agreed.some((finding) => finding.severity === level)) ?? null,
	};
}
