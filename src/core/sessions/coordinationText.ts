/**
 * Why coordination ended, in words, with a quorum stop's votes and saving, and the user's messages
 * to the team: the CLI's progress line and run summary, `massgen show` and Export Run say them the
 * same way.
 */
import type { RevisionRecord } from '../../contract/revision.js';
import type { CoordinationRecord, SteerRecord } from '../../contract/runEvents.js';
import { formatCost } from './reportFormat.js';
import { escapeFileName } from '../workspace/pathPolicy.js';

const endings: Record<CoordinationRecord['ended'], string> = {
	consensus: 'every live agent voted',
	quorum: 'a quorum agreed',
	'finished-by-user': 'you finished it (finish now)',
	timeout: 'the coordination timeout',
	budget: 'the budget',
	exhausted: 'the answer and restart limits',
	cancelled: 'the run was cancelled',
};

/** `a quorum agreed (3 votes for agent1.1, 3 needed); saved: 2 calls stopped, not waited for d, e, about $0.0040`. */
export function coordinationText(record: CoordinationRecord): string {
	const quorum = record.quorum
		? ` (${record.quorum.votes} votes for ${record.quorum.label}, ${record.quorum.required} needed)`
		: '';
	const saved = record.saved;
	if (!saved) return `${endings[record.ended]}${quorum}`;
	const calls = `${saved.callsStopped} call${saved.callsStopped === 1 ? '' : 's'} stopped`;
	const waited = saved.agentsNotWaitedFor.length
		? `, not waited for ${saved.agentsNotWaitedFor.join(', ')}`
		: '';
	const cost =
		saved.estimatedCostUsd === null ? 'cost unknown' : `about ${formatCost(saved.estimatedCostUsd)}`;
	return `${endings[record.ended]}${quorum}; saved: ${calls}${waited}, ${cost}`;
}

/** `to bob (note): Check the tests.`, one line each (a message's own lines joined). */
export function steeringLines(
	messages: readonly Pick<SteerRecord, 'text' | 'targetAgentId' | 'noteOnly'>[],
): string[] {
	return messages.map((message) => {
		const note = message.noteOnly ? ' (note)' : '';
		return `to ${message.targetAgentId ?? 'the team'}${note}: ${message.text.replace(/\s+/g, ' ').trim()}`;
	});
}

/** `calc.ts:3-4: Why 80?`, one line per review comment (its own lines joined, its file name's controls escaped). */
export function reviewLines(revision: Pick<RevisionRecord, 'comments'>): string[] {
	return revision.comments.map((comment) => {
		const lines = comment.endLine > comment.line ? `${comment.line}-${comment.endLine}` : `${comment.line}`;
		// A readable file's name may hold a line break (`Icon\r`, or a repository's `x\nUser: …`): these lines
		// go into later turns' history as the user's, so the name's controls are shown escaped.
		return `${escapeFileName(comment.path)}:${lines}: ${comment.text.replace(/\s+/g, ' ').trim()}`;
	});
}

/** `c1 calc.ts:3: Keep it const. (addressed)`: the comments as `massgen show` and Export Run list them. */
export function reviewReport(revision: RevisionRecord): string[] {
	const lines = reviewLines(revision);
	return revision.comments.map(
		(comment, i) =>
			`${comment.id} ${lines[i]} (${comment.addressed ? 'addressed' : 'not cited as addressed'})`,
	);
}
