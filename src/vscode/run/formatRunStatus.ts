import type { RunState } from '../../protocol/runState.js';

/** `m:ss` (or `h:mm:ss`). */
export function formatElapsed(ms: number): string {
	const total = Math.max(0, Math.floor(ms / 1000));
	const s = String(total % 60).padStart(2, '0');
	const m = Math.floor(total / 60) % 60;
	const h = Math.floor(total / 3600);
	return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The status bar text while a run is active: agents, phase or round, elapsed time. */
export function formatRunStatus(state: RunState | null, elapsedMs: number): string {
	const elapsed = formatElapsed(elapsedMs);
	if (!state || state.status === 'idle') return `$(loading~spin) MassGen: starting · ${elapsed}`;
	const lanes = state.agentOrder.map((id) => state.agents[id]).filter((lane) => lane !== undefined);
	const live = lanes.filter((lane) => lane.state !== 'killed').length;
	const agents = live === lanes.length ? `${lanes.length} agents` : `${live}/${lanes.length} agents`;
	let phase: string;
	if (state.presenter) phase = `${state.presenter} presenting`;
	else {
		const round = Math.max(0, ...lanes.map((lane) => lane.round));
		const answers = Object.keys(state.answerLabels).length;
		const votes = Object.keys(state.votes).length;
		phase = `round ${Math.max(round, 1)} · ${answers} answer${answers === 1 ? '' : 's'} · ${votes} vote${votes === 1 ? '' : 's'}`;
	}
	return `$(loading~spin) MassGen: ${agents} · ${phase} · ${elapsed}`;
}
