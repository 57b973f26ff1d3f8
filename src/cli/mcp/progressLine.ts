import type { RunEvent } from '../../contract/runEvents.js';

/**
 * A short plain line for an MCP progress notification, or null for events too frequent or too
 * detailed to report. Only ids and counts: no model text (answers, vote reasons) goes into a line.
 */
export function progressLine(event: RunEvent): string | null {
	switch (event.type) {
		case 'run-start':
			return `run ${event.runId}: ${event.agents.length} agent(s) working: ${event.agents.map((a) => a.agentId).join(', ')}`;
		case 'new-answer':
			return `${event.agentId} answered (${event.label})`;
		case 'vote':
			return `${event.voter} voted for ${event.votedForAgent} (${event.votedFor})`;
		case 'winner-selected':
			return `winner: ${event.agentId} (${event.label})`;
		case 'presentation-start':
			return `${event.agentId} is presenting the final answer`;
		case 'agent-error':
			return `${event.agentId}: ${event.kind} error${event.retryable ? ', retrying' : ''}`;
		case 'budget-reached':
			return `budget reached (${event.kind})`;
		case 'run-end':
			return `run ${event.status}`;
		default:
			return null;
	}
}
