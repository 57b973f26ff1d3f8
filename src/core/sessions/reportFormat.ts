/**
 * Words and numbers shared by the run reports (`massgen show`, `massgen runs`, Export Run).
 */
import type { ChangeOutcome } from '../changes/acceptRecord.js';
import type { AttachmentRecord } from '../../contract/runEvents.js';
import type { RunResult } from '../../contract/runResult.js';

export function formatCost(costUsd: number | null): string {
	return costUsd === null ? 'no price' : `$${costUsd.toFixed(costUsd >= 1 ? 2 : 4)}`;
}

export function formatBytes(bytes: number): string {
	return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`;
}

/** `2025-01-01 09:00 UTC`. */
export function formatTime(iso: string): string {
	return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

export function formatDuration(ms: number): string {
	return ms < 60_000
		? `${(ms / 1000).toFixed(1)} s`
		: `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

const outcomeWords: Record<ChangeOutcome, string> = {
	none: 'none',
	pending: 'pending',
	accepted: 'accepted',
	'partly-accepted': 'partly accepted',
	rejected: 'rejected',
	reverted: 'reverted',
	superseded: 'never applied (a later run replaced them)',
};

/** `3 files, accepted`, or `none`. */
export function formatChanges(count: number, outcome: ChangeOutcome): string {
	return count === 0 ? outcomeWords[outcome] : `${count} file(s), ${outcomeWords[outcome]}`;
}

export function formatAttachment(a: AttachmentRecord): string {
	const lines = a.lines ? ` lines ${a.lines.start}–${a.lines.end}` : '';
	return `${a.kind} ${a.source}${lines} (${formatBytes(a.bytes)}${a.truncated ? ', cut to the caps' : ''})`;
}

/** One line, at most `max` characters. */
export function oneLine(text: string, max: number): string {
	const line = text.replace(/\s+/g, ' ').trim();
	return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * The evaluation checklist of a run (`massgen show`, Export Run): the threshold, each criterion on
 * a line, then each vote's scores per answer. Empty without a checklist.
 */
export function formatChecklist(result: Pick<RunResult, 'checklist' | 'votes'>): string[] {
	if (!result.checklist) return [];
	const { criteria, threshold } = result.checklist;
	const lines = [`an answer needs ${threshold} or more on every criterion to be voted for`];
	for (const c of criteria) {
		const from = c.proposedBy ? `, proposed by ${c.proposedBy} in round ${c.round}` : '';
		lines.push(`${c.id} (${c.category}${from}): ${oneLine(c.text, 300)}`);
	}
	for (const vote of result.votes) {
		if (!vote.scores?.length) continue;
		const per = vote.scores.map(
			(answer) =>
				`${answer.label} ${answer.criteria.map((score) => `${score.id} ${score.score}${score.score < threshold ? '!' : ''}`).join(' ')}`,
		);
		lines.push(`${vote.voter} scored: ${per.join(' · ')}`);
	}
	return lines;
}

/** `voter → votedFor (label): reason`, one line per vote (`massgen show`, the headless team call). */
export function formatVotes(votes: RunResult['votes']): string[] {
	return votes.map((v) => `${v.voter} → ${v.votedFor} (${v.votedForLabel}): ${v.reason}`);
}

/** `claude_agent (agent2.1), 3 of 4 votes`, or `none`. */
export function formatWinner(result: Pick<RunResult, 'winner' | 'votes'>): string {
	if (!result.winner) return 'none';
	const { agentId, label } = result.winner;
	const votes = result.votes.filter((v) => v.votedFor === agentId).length;
	return `${agentId} (${label}), ${votes} of ${result.votes.length} vote(s)`;
}
