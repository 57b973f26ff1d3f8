import type { RunResult } from '../../core/orchestrator/types.js';

/**
 * Plain-text summaries of a finished run for the chat participant and the language model tool.
 * No `vscode` import: both shells and their tests share it.
 */

/** "planner won with 2 of 3 votes (reviewer, skeptic)", or why there is no winner. */
export function voteSummary(result: Pick<RunResult, 'winner' | 'votes'>): string {
	if (!result.winner) return 'No winner was selected.';
	const winner = result.winner.agentId;
	const voters = result.votes.filter((vote) => vote.votedFor === winner).map((vote) => vote.voter);
	const others = result.votes.filter((vote) => vote.votedFor !== winner);
	const elsewhere = others.length
		? `; ${others.map((vote) => `${vote.voter} voted for ${vote.votedFor}`).join(', ')}`
		: '';
	const by = voters.length ? ` (${voters.join(', ')})` : '';
	return `${winner} won with ${voters.length} of ${result.votes.length} votes${by}${elsewhere}.`;
}

/** One line per proposed change ("modify README.md"), sorted by path; empty when nothing changed. */
export function changeLines(result: Pick<RunResult, 'changes'>): string[] {
	return [...result.changes]
		.sort((a, b) => a.path.localeCompare(b.path))
		.map((change) => `${change.kind} ${change.path}`);
}

const ended: Record<RunResult['status'], string> = {
	completed: 'completed',
	cancelled: 'was cancelled',
	timeout: 'timed out',
	failed: 'failed',
};

/** How a run ended, with its error ("The MassGen run timed out."). */
export function runEnding(result: Pick<RunResult, 'status' | 'error'>): string {
	return `The MassGen run ${ended[result.status]}${result.error ? `: ${result.error}` : ''}.`;
}
