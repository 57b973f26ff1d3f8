/**
 * `ask_team` and `review_changes`: one headless team call each (`teamCall`), reported as text an
 * agent can act on. Proposed changes come back as a unified diff and are never applied here.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RunEvent } from '../../contract/runEvents.js';
import { diffReviewQuestion } from '../../core/codeReview/diffReviewPrompt.js';
import { reviewOutcome } from '../../core/codeReview/reviewOutcome.js';
import {
	AttachmentError,
	commitRange,
	type AttachmentRequest,
	type DiffSource,
} from '../../core/context/attachment.js';
import { gitDiff } from '../../core/context/gitDiff.js';
import { oneLine } from '../../core/sessions/reportFormat.js';
import type { TeamCallInput, TeamCallOutcome } from '../headless/teamCall.js';
import { emptyWords, reviewText } from '../review/reviewText.js';
import { textResult, toolError } from './toolResult.js';

/** What the tools need of a team call: the question, attachments, the request's signal, events. */
export type TeamCaller = (
	input: Pick<TeamCallInput, 'question' | 'attachments' | 'signal' | 'onEvent'>,
) => Promise<TeamCallOutcome>;

export interface TeamToolContext {
	readonly root: string;
	readonly teamCall: TeamCaller;
	readonly signal: AbortSignal;
	/** Progress lines for the client (when it asked for progress). */
	readonly onEvent: (event: RunEvent) => void;
}

const notApplied =
	'These changes are NOT applied: nothing in the workspace was written. Apply them with your own edit tools (or `git apply`) if you agree with them, under your own approvals; the user can also review them with `massgen show RUN_ID` or in VS Code.';

export async function askTeam(
	context: TeamToolContext,
	question: string,
	files: readonly string[],
): Promise<CallToolResult> {
	if (question.trim() === '') return toolError('question is empty: say what the team should answer');
	const attachments: AttachmentRequest[] = [];
	for (const file of files) {
		const refusal = outsideRefusal(context.root, file);
		if (refusal) return toolError(refusal);
		attachments.push({ kind: 'path', path: resolve(context.root, file) });
	}
	const outcome = await context.teamCall({
		question,
		attachments,
		signal: context.signal,
		onEvent: context.onEvent,
	});
	if (!outcome.ok) return refusal(outcome);
	if (outcome.finalAnswer === null) {
		return toolError(
			`run ${outcome.runId} ${outcome.status} without an answer${outcome.error ? `: ${outcome.error}` : ''}`,
		);
	}
	const summary = [
		`run id: ${outcome.runId} (${outcome.status}${outcome.error ? `: ${outcome.error}` : ''})`,
		'How the team decided:',
		outcome.voteSummary,
		...outcome.notes.map((note) => `note: ${note}`),
	].join('\n');
	const changes =
		outcome.patch.trim() === ''
			? 'The team proposed no file changes.'
			: [
					`The team proposes changes to ${outcome.changedFiles.length} file(s): ${outcome.changedFiles.join(', ')}.`,
					notApplied.replace('RUN_ID', outcome.runId),
					'',
					'```diff',
					outcome.patch.trimEnd(),
					'```',
				].join('\n');
	return textResult(`Final answer:\n${outcome.finalAnswer}`, summary, changes);
}

/** `working` (default), `staged` or `A..B`; an unknown form is a tool error with the forms allowed. */
export async function reviewChanges(
	context: TeamToolContext,
	diff: string | undefined,
): Promise<CallToolResult> {
	const source = diffSource(diff ?? 'working');
	if (source === undefined) {
		return toolError(
			`diff must be "working", "staged" or a range of two commits "A..B" (branch names, tags or hashes), not '${oneLine(diff ?? '', 80)}'`,
		);
	}
	// Only the changed files' names (every one "refused" here): nothing to review, no team run.
	try {
		const listed = await gitDiff(context.root, source, () => 'listed', context.signal);
		if (listed.omitted.length === 0) return textResult(`Nothing to review: ${emptyWords(source)}.`);
	} catch (error) {
		if (AttachmentError.is(error)) {
			return toolError(error.message.replace('cannot attach the git diff', 'cannot review the changes'));
		}
		throw error;
	}
	const outcome = await context.teamCall({
		question: diffReviewQuestion(source),
		attachments: [{ kind: 'diff', source }],
		signal: context.signal,
		onEvent: context.onEvent,
	});
	if (!outcome.ok) return refusal(outcome);
	if (outcome.finalAnswer === null) {
		return toolError(
			`run ${outcome.runId} ${outcome.status} without a review${outcome.error ? `: ${outcome.error}` : ''}`,
		);
	}
	const review = reviewText(reviewOutcome(outcome.result), source);
	const tail = [`run id: ${outcome.runId}`, ...outcome.notes.map((note) => `note: ${note}`)].join('\n');
	const fixes =
		outcome.patch.trim() === ''
			? []
			: [
					[
						`The team proposes fixes to ${outcome.changedFiles.length} file(s): ${outcome.changedFiles.join(', ')}.`,
						notApplied.replace('RUN_ID', outcome.runId),
						'',
						'```diff',
						outcome.patch.trimEnd(),
						'```',
					].join('\n'),
				];
	const fullReview = `The winning review in full:\n${outcome.finalAnswer}`;
	return textResult(review, tail, ...fixes, fullReview);
}

function refusal(outcome: Extract<TeamCallOutcome, { ok: false }>): CallToolResult {
	if (outcome.refused === 'busy') {
		return toolError(
			`${outcome.message}: one team call at a time per workspace; call again when it has finished`,
		);
	}
	return toolError(`the team did not start (${outcome.refused}): ${outcome.message}`);
}

function diffSource(diff: string): DiffSource | undefined {
	if (diff === 'working') return 'working-tree';
	if (diff === 'staged') return 'staged';
	return commitRange(diff);
}

/** Why `file` is not a path inside the workspace (null: it is, as far as its name says). */
function outsideRefusal(root: string, file: string): string | null {
	if (file.trim() === '' || file.includes('\0')) return `'${oneLine(file, 80)}' is not a file path`;
	const rel = relative(root, resolve(root, file));
	if (rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))) return null;
	return `cannot attach '${oneLine(file, 200)}': it is outside the workspace ${root}; attach files inside it (paths relative to it)`;
}
