import * as vscode from 'vscode';
import type { RunEvent } from '../../contract/runEvents.js';
import type { RunResult } from '../../contract/runResult.js';

/**
 * Plain-text summaries of a finished run for the chat participant and the language model tool,
 * in the display language (the tool's caller is a chat model, which reads any).
 */

/** "planner won with 2 of 3 votes (reviewer, skeptic)", or why there is no winner. */
export function voteSummary(result: Pick<RunResult, 'winner' | 'votes'>): string {
	if (!result.winner) return vscode.l10n.t('No winner was selected.');
	const winner = result.winner.agentId;
	const voters = result.votes.filter((vote) => vote.votedFor === winner).map((vote) => vote.voter);
	const others = result.votes.filter((vote) => vote.votedFor !== winner);
	const elsewhere = others.length
		? `; ${others.map((vote) => vscode.l10n.t('{0} voted for {1}', vote.voter, vote.votedFor)).join(', ')}`
		: '';
	const by = voters.length ? ` (${voters.join(', ')})` : '';
	return vscode.l10n.t(
		'{0} won with {1} of {2} votes{3}{4}.',
		winner,
		voters.length,
		result.votes.length,
		by,
		elsewhere,
	);
}

/** One line per proposed change ("modify README.md"), sorted by path; empty when nothing changed. */
export function changeLines(result: Pick<RunResult, 'changes'>): string[] {
	return [...result.changes]
		.sort((a, b) => a.path.localeCompare(b.path))
		.map((change) => `${change.kind} ${change.path}`);
}

/** How a run ended, with its error ("The MassGen run timed out."). */
export function runEnding(result: Pick<RunResult, 'status' | 'error'>): string {
	const error = result.error ? `: ${result.error}` : '';
	switch (result.status) {
		case 'completed':
			return vscode.l10n.t('The MassGen run completed{0}.', error);
		case 'cancelled':
			return vscode.l10n.t('The MassGen run was cancelled{0}.', error);
		case 'timeout':
			return vscode.l10n.t('The MassGen run timed out{0}.', error);
		case 'failed':
			return vscode.l10n.t('The MassGen run failed{0}.', error);
	}
}

/** One progress line per phase (the participant's and the model picker's): the agents start answering, the first vote, the winner. */
export function phaseLine(event: RunEvent): string | undefined {
	switch (event.type) {
		case 'run-start':
			return vscode.l10n.t('{0} agents are answering…', event.agents.length);
		case 'vote':
			return vscode.l10n.t('{0} voted for {1}…', event.voter, event.votedForAgent);
		case 'winner-selected':
			return vscode.l10n.t('{0} won; presenting the final answer…', event.agentId);
		default:
			return undefined;
	}
}
