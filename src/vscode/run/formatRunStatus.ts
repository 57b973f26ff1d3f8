import * as vscode from 'vscode';
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
	if (!state || state.status === 'idle') {
		return vscode.l10n.t('$(loading~spin) MassGen: starting · {0}', elapsed);
	}
	const lanes = state.agentOrder.map((id) => state.agents[id]).filter((lane) => lane !== undefined);
	const live = lanes.filter((lane) => lane.state !== 'killed').length;
	const agents =
		live === lanes.length
			? vscode.l10n.t('{0} agents', lanes.length)
			: vscode.l10n.t('{0}/{1} agents', live, lanes.length);
	let phase: string;
	if (state.presenter) phase = vscode.l10n.t('{0} presenting', state.presenter);
	else {
		const round = Math.max(0, ...lanes.map((lane) => lane.round));
		const answers = Object.keys(state.answerLabels).length;
		const votes = Object.keys(state.votes).length;
		const answerCount = answers === 1 ? vscode.l10n.t('1 answer') : vscode.l10n.t('{0} answers', answers);
		const voteCount = votes === 1 ? vscode.l10n.t('1 vote') : vscode.l10n.t('{0} votes', votes);
		phase = vscode.l10n.t('round {0} · {1} · {2}', Math.max(round, 1), answerCount, voteCount);
	}
	return vscode.l10n.t('$(loading~spin) MassGen: {0} · {1} · {2}', agents, phase, elapsed);
}
