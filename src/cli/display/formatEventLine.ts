/**
 * One human line per meaningful event (plain progress, and the log above the live table).
 * Streaming deltas, tool calls and usage are too frequent to print and return null.
 */
import type { RunEvent, RunEventOf } from '../../contract/runEvents.js';
import type { RunState } from '../../protocol/runState.js';
import { formatDuration } from './terminalText.js';
import { budgetCapsText } from './budgetLine.js';
import { coordinationText } from '../../core/sessions/coordinationText.js';

/**
 * Formats `event` with `state` already folded over it (for tallies and names). The result may
 * contain model text: sanitize it before it reaches a terminal.
 */
export function formatEventLine(event: RunEvent, state: RunState): string | null {
	switch (event.type) {
		case 'run-start': {
			const team = event.agents.map((a) => `${a.agentId} (${a.provider}/${a.model})`).join(', ');
			const attached = (event.attachments ?? []).map((a) =>
				a.kind === a.source ? a.kind : `${a.kind} ${a.source}`,
			);
			const context = attached.length ? `; attached: ${attached.join(', ')}` : '';
			const used = (event.instructions ?? []).map((file) =>
				file.truncated ? `${file.path} (cut)` : file.path,
			);
			const rules = used.length ? `; instructions: ${used.join(', ')}` : '';
			const budget = budgetCapsText(event.budget);
			return `run ${event.runId}: ${plural(event.agents.length, 'agent')}: ${team}${context}${rules}${budget ? `; ${budget}` : ''}`;
		}
		case 'round-start':
			return event.snapshot.length === 0
				? `${event.agentId}: round ${event.round}`
				: `${event.agentId}: round ${event.round} (sees ${event.snapshot.join(', ')})`;
		case 'update-injected':
			return `${event.agentId}: update injected (${event.labels.join(', ')})`;
		case 'new-answer':
			return `${event.agentId}: new answer ${event.label} (${event.content.length} chars)`;
		case 'vote':
			return `${event.voter} votes ${event.votedFor}: ${event.reason}${scoresText(event.scores)}`;
		case 'checklist':
			return `checklist (${event.criteria.length === 1 ? '1 criterion' : `${event.criteria.length} criteria`}, threshold ${event.threshold}): ${event.criteria.map((c) => c.id).join(', ') || 'none yet'}`;
		case 'votes-invalidated':
			return `${event.byLabel} invalidates the votes of ${event.voters.join(', ')}`;
		case 'workflow-error':
			return `${event.agentId}: workflow error (attempt ${event.attempt}): ${event.message}`;
		case 'agent-error': {
			const retry = event.retryable ? ', retrying' : '';
			return `${event.agentId}: ${event.kind} error (failure ${event.failures}${retry}): ${event.message}`;
		}
		case 'agent-killed':
			return `${event.agentId}: killed: ${event.reason}`;
		case 'tool-result':
			return event.isError ? `${event.agentId}: ${event.name} failed: ${event.text}` : null;
		case 'provider-tool': {
			const what = event.kind === 'code' ? 'ran code on the provider' : `web ${event.kind}`;
			const query = event.query ? ` "${event.query}"` : '';
			const pages = event.sources?.length ? ` (${plural(event.sources.length, 'page')})` : '';
			return `${event.agentId}: ${what}${query}${pages}${event.isError ? ': failed' : ''}`;
		}
		case 'approval-request':
			return `${event.agentId} asks approval to ${event.action} ${event.target}: ${event.reason}`;
		case 'approval-result':
			return `${event.agentId}: ${event.decision === 'allow' ? 'allowed' : 'denied'} (${event.by})`;
		case 'winner-selected': {
			const votes = Object.hasOwn(event.tally, event.agentId) ? event.tally[event.agentId]! : 0;
			const why = event.reason === 'no-votes' ? 'no votes' : plural(votes, 'vote');
			const tie = event.reason === 'tie-break' ? ', tie-break' : '';
			return `winner: ${event.agentId} with ${event.label} (${why}${tie})`;
		}
		case 'presentation-start':
			return `${event.agentId}: presenting the final answer`;
		case 'file-edit':
			// Coordination edits stay in that agent's own overlay; only presentation edits are the change set.
			const draft = event.phase === 'coordination' ? ' (draft)' : '';
			return `${event.agentId}: ${event.kind} ${event.path}${draft}`;
		case 'final-answer':
			return `final answer: ${event.label} by ${event.agentId} (${event.content.length} chars)`;
		case 'run-end': {
			const changes = state.fileEdits.filter((f) => f.phase === 'presentation').length;
			const tail = changes > 0 ? `, ${plural(changes, 'file')} changed` : '';
			const verb = event.status === 'completed' ? 'in' : 'after';
			const error = event.error ? `: ${event.error}` : '';
			return `run ${event.status} ${verb} ${formatDuration(event.durationMs)}${tail}${error}`;
		}
		case 'text-delta':
		case 'reasoning-delta':
		case 'tool-call':
		case 'usage':
		case 'call-aborted':
			return null;
		case 'compacted':
			return `${event.agentId}: conversation compacted to fit the context window (about ${event.tokensBefore} → ${event.tokensAfter} tokens, ${event.how === 'summary' ? `${event.messagesSummarised} messages summarised` : `${event.messagesSummarised} messages clipped`})`;
		case 'notice':
			// The tools' notices are said as `massgen: …` in every mode (`runCommand`).
			return event.source === 'tools' ? null : `notice: ${event.message}`;
		case 'evaluation-start':
			return `${event.agentId}: checking the final answer (attempt ${event.attempt})`;
		case 'evaluation-end':
			return event.verdict === 'restart'
				? `${event.agentId}: the answer is incomplete, restarting: ${event.reason ?? ''}`
				: `${event.agentId}: the answer stands${event.verdict === 'auto' ? ' (no verdict)' : ''}`;
		case 'attempt-start':
			return `attempt ${event.attempt}: coordination starts again (${event.reason})`;
		case 'agent-stopped':
			return `${event.agentId}: stopped by the user`;
		case 'budget-reached':
			return `budget: ${event.reason}: no new model call starts`;
		case 'steer': {
			const votes = event.noteOnly ? 'note: votes stand' : 'votes reset';
			return `you → ${event.agents.join(', ')} (message ${event.id}, ${votes}): ${event.text}`;
		}
		case 'steer-delivered': {
			const presenting = event.phase === 'presentation' ? ' (presenting)' : '';
			return `${event.agentId}: reads your message ${event.id}${presenting}`;
		}
		case 'coordination-end':
			// Consensus is what the winner line says; the other endings are news.
			return event.ended === 'consensus' ? null : `coordination ends: ${coordinationText(event)}`;
		case 'command-sandbox':
			// Off and unsandboxed are run notices (warnings) already.
			return event.mode === 'off' || event.mode === 'none' ? null : event.notice;
		default:
			return unknownEvent(event);
	}
}

/** `1 vote`, `3 votes`. */
export function plural(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** A vote's scores in one line: ` [agent1.1 8 7 · agent2.1 5 9]` (each answer's scores, criteria in order). */
function scoresText(scores: RunEventOf<'vote'>['scores']): string {
	if (!scores?.length) return '';
	return ` [${scores.map((entry) => `${entry.label} ${entry.criteria.map((c) => c.score).join(' ')}`).join(' · ')}]`;
}

/** Compile-time exhaustiveness; an unknown type from a newer core prints nothing. */
function unknownEvent(_event: never): null {
	return null;
}
