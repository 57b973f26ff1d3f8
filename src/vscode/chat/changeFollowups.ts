import * as vscode from 'vscode';
import { commandIds } from '../common/commandIds.js';
import type { ChangeActions } from '../run/runTypes.js';

/** Metadata of our responses: the history check, the follow-ups and the tests read it. */
export interface ParticipantResultMetadata {
	/** The run the response is about (its session continues on the next question). */
	readonly runId?: string;
	/** The question asked (an ask, not a review): "Ask the team again" asks it again. */
	readonly question?: string;
}

/** What the follow-ups and `/accept`, `/changes` need of the change review. */
export interface ChatChanges {
	readonly changeSet: ChangeActions['changeSet'];
	readonly pendingRunIds: ChangeActions['pendingRunIds'];
	/** Accept wrote files (their paths). */
	readonly onDidAccept: vscode.Event<readonly string[]>;
}

/**
 * After an answer: "Review Changes" and "Accept" while its run's change set is pending (they send
 * `/changes` and `/accept`, which run the review's own commands), and "Ask the team again" after
 * an ask (the same question as the conversation's next turn, under the same command).
 */
export function chatFollowups(result: vscode.ChatResult, changes: ChatChanges): vscode.ChatFollowup[] {
	const metadata = result.metadata as ParticipantResultMetadata | undefined;
	if (!metadata?.runId) return [];
	const followups: vscode.ChatFollowup[] = [];
	if (changes.changeSet(metadata.runId) !== null) {
		followups.push(
			{
				prompt: vscode.l10n.t('Review the proposed changes'),
				label: vscode.l10n.t('Review Changes'),
				command: 'changes',
			},
			{
				prompt: vscode.l10n.t('Accept the proposed changes'),
				label: vscode.l10n.t('Accept'),
				command: 'accept',
			},
		);
	}
	if (metadata.question) {
		followups.push({ prompt: metadata.question, label: vscode.l10n.t('Ask the team again') });
	}
	return followups;
}

/** The run of the chat's last `@massgen` answer, if the previous turn was one. */
export function lastRunId(history: vscode.ChatContext['history'], participantId: string): string | undefined {
	const previous = history.at(-1);
	if (!(previous instanceof vscode.ChatResponseTurn) || previous.participant !== participantId) {
		return undefined;
	}
	const runId = (previous.result.metadata as ParticipantResultMetadata | undefined)?.runId;
	return typeof runId === 'string' ? runId : undefined;
}

/**
 * `/changes` opens the chat's last answer's change set in the review (Review Changes; another
 * run's when that one has none pending: the command asks which when several are); `/accept`
 * accepts it with Accept Changes, only the change set of the chat's last answer, and says what was written.
 */
export async function changeCommand(
	command: 'accept' | 'changes',
	runId: string | undefined,
	stream: Pick<vscode.ChatResponseStream, 'markdown' | 'button'>,
	changes: ChatChanges,
): Promise<vscode.ChatResult> {
	const ours = runId !== undefined && changes.changeSet(runId) !== null;
	const metadata: ParticipantResultMetadata = runId ? { runId } : {};
	if (changes.pendingRunIds().length === 0) {
		stream.markdown(vscode.l10n.t('No MassGen changes are waiting for review.'));
		return { metadata };
	}
	// The run as the commands' argument (`RunArg`): without it they ask which run when several wait.
	const arg = ours ? [{ runId }] : [];
	if (command === 'changes') {
		await vscode.commands.executeCommand(commandIds.reviewChanges, ...arg);
		stream.markdown(vscode.l10n.t('The proposed changes are open for review.'));
		return { metadata };
	}
	if (!ours) {
		stream.markdown(
			vscode.l10n.t(
				'The changes waiting for review are not from the last answer here: review and accept them in the MassGen panel.',
			),
		);
		stream.button({ command: commandIds.reviewChanges, title: vscode.l10n.t('Review Changes') });
		return { metadata };
	}
	const written: string[] = [];
	const listening = changes.onDidAccept((paths) => written.push(...paths));
	try {
		await vscode.commands.executeCommand(commandIds.acceptChanges, ...arg);
	} finally {
		listening.dispose();
	}
	if (written.length === 0) {
		stream.markdown(vscode.l10n.t('Nothing was written; the changes are still waiting for review.'));
	} else {
		const files = written.map((path) => `\`${path.replace(/`/g, '')}\``).join(', ');
		stream.markdown(vscode.l10n.t('Accepted: {0} (undo with Undo, or MassGen: Revert Run).', files));
	}
	return { metadata };
}
