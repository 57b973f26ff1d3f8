import * as vscode from 'vscode';
import { AttachmentError } from '../../core/context/attachment.js';
import { errorMessage } from '../../core/util/errorMessage.js';
import type { AttachmentChip } from '../../protocol/attachmentChip.js';
import type { ApprovalDecision, HostMessage } from '../../protocol/messages.js';
import { commandIds } from '../common/commandIds.js';
import { readPlanDepth } from '../common/settings.js';
import { planRunRequest } from '../plans/planRunRequest.js';
import type { ShownQuestions } from '../common/shownQuestions.js';
import { chipsToRequests } from '../context/chipRequest.js';
import type { SessionSecrets } from '../common/log.js';
import type { RunController } from '../run/runController.js';
import { reportAttachmentProblem } from '../run/runMessages.js';
import type { ChangeActions } from '../run/runTypes.js';
import type { ContextSearch } from './contextSearch.js';
import type { PanelActions } from './dispatchWebviewMessage.js';
import { openAnswerLink } from './openAnswerLink.js';

export interface PanelActionDeps {
	readonly log: vscode.LogOutputChannel;
	readonly runs: RunController;
	readonly changes: ChangeActions;
	readonly secrets?: SessionSecrets;
	readonly pickContext?: () => Promise<readonly AttachmentChip[] | undefined>;
	readonly questions?: ShownQuestions;
	/** The panel's own steps: its snapshot, showing a run, posting, and the run it shows. */
	readonly panel: {
		snapshot(): Promise<void>;
		openRun(runId: string): Promise<void>;
		post(message: HostMessage): void;
		/** The run asked in this page's box started: the page shows it (its first batch follows). */
		showAsked(runId: string): void;
		shownRunId(): string | undefined;
		folder(): vscode.WorkspaceFolder | undefined;
		/** `#` completion for the panel's folder; undefined when the panel is closed or no folder is open. */
		search(): ContextSearch | undefined;
		answerApproval(requestId: string, decision: ApprovalDecision, note: string | undefined): void;
		/** The webview (re)loaded: nothing is posted to it before its snapshot. */
		closeGate(): void;
		/** The shown run's record may have changed (a revert): post what became of its files. */
		outcomesChanged(): Promise<void>;
	};
}

function notLive(): { readonly ok: false; readonly reason: string } {
	return { ok: false, reason: vscode.l10n.t('That run is not going in this window.') };
}

function outcomeWords(outcome: { readonly ok: true } | { readonly ok: false; readonly reason: string }): {
	ok: boolean;
	reason?: string;
} {
	return outcome.ok ? { ok: true } : { ok: false, reason: outcome.reason };
}

/** What each validated webview message does (`dispatchWebviewMessage`). */
export function panelActions(deps: PanelActionDeps): PanelActions {
	const { log, runs, changes, panel } = deps;
	const noResults = (error: unknown): AttachmentChip[] => {
		log.warn(`ask box: cannot list the workspace's files: ${errorMessage(error)}`);
		return [];
	};
	const knownRun = (runId: string, what: string): boolean => {
		if (runs.active().some((run) => run.runId === runId)) return true;
		log.warn(`panel: ${what} for run ${runId} refused: not a live run of this window`);
		return false;
	};
	return {
		ready: async () => {
			panel.closeGate();
			await panel.snapshot();
		},
		ask: async (question, chips, mode) => {
			// A question that does not run goes back to the ask box with its chips and the reason.
			const refused = (reason: string) =>
				panel.post({ type: 'ask-refused', question, attachments: chips, reason });
			let attachments;
			try {
				attachments = chipsToRequests(chips);
			} catch (error) {
				if (!AttachmentError.is(error)) throw error;
				reportAttachmentProblem(log, error, (text) => deps.secrets?.text(text) ?? text);
				refused(error.message);
				return;
			}
			// The folder the chips were found in (the shown run's, in a multi-root workspace).
			const folder = panel.folder();
			const shownRunId = panel.shownRunId();
			// A question asked while the shown run still goes is a new one beside it: a follow-up
			// needs a finished turn to follow. A task to plan is a plan run of its own.
			const follows =
				mode === 'ask' && !(shownRunId && runs.active().some((run) => run.runId === shownRunId));
			// The run asked here is shown here once it starts (also after waiting in the queue).
			let claimed = false;
			const follow = (batch: { readonly runId: string }) => {
				if (claimed) return;
				claimed = true;
				panel.showAsked(batch.runId);
			};
			let outcome;
			try {
				outcome = await runs.tryStart(
					mode === 'plan'
						? planRunRequest({
								task: question,
								depth: readPlanDepth(folder?.uri),
								...(folder ? { folder: folder.uri } : {}),
								attachments,
							})
						: {
								question,
								kind: 'ask',
								...(folder ? { folder: folder.uri } : {}),
								...(follows ? { continueConversation: true } : {}),
								...(follows && shownRunId ? { continueFrom: shownRunId } : {}),
								...(attachments.length ? { attachments } : {}),
							},
					undefined,
					follow,
				);
			} catch (error) {
				// The webview shows "starting" until it hears back: it always does.
				refused(deps.secrets?.text(errorMessage(error)) ?? errorMessage(error));
				throw error;
			}
			if ('refused' in outcome) refused(outcome.reason);
		},
		// The controls of the run the page was rendered for: another run of the window goes on. A
		// run id the window does not know (a stale or forged page) is refused.
		cancel: (runId) => {
			if (knownRun(runId, 'cancel')) runs.cancel(runId);
		},
		stopAgent: (runId, agentId) => {
			if (knownRun(runId, 'stop agent')) runs.stopAgent(runId, agentId);
		},
		// The outcome goes back to the page: a refusal is shown in the message box with its reason.
		steer: (runId, message) => {
			const outcome = knownRun(runId, 'message') ? runs.steer(runId, message) : notLive();
			panel.post({ type: 'control-result', runId, action: 'steer', ...outcomeWords(outcome) });
		},
		finishNow: (runId) => {
			const outcome = knownRun(runId, 'finish now') ? runs.finishNow(runId) : notLive();
			panel.post({ type: 'control-result', runId, action: 'finish-now', ...outcomeWords(outcome) });
		},
		openRun: (runId) => panel.openRun(runId),
		openDiff: (runId, path, version) => changes.openDiff(runId, path, version),
		accept: (request) => changes.accept(request),
		reject: (runId) => changes.reject(runId),
		revertRun: async (runId) => {
			await vscode.commands.executeCommand(commandIds.revertRun, runId);
			await panel.outcomesChanged();
		},
		selectHunks: (runId, path, ids, selected) => changes.selectHunks(runId, path, ids, selected),
		// The review loop's commands (src/vscode/reviewLoop), as the diff's actions run them.
		commentHunk: async (runId, path, hunkId) => {
			await vscode.commands.executeCommand(commandIds.commentOnHunk, { runId, path, hunkId });
		},
		sendToTeam: async (runId) => {
			await vscode.commands.executeCommand(commandIds.sendToTeam, { runId });
		},
		approval: (requestId, decision, note) => panel.answerApproval(requestId, decision, note),
		searchContext: async (query, requestId) => {
			const search = panel.search();
			const items = search ? await search.search(query).catch(noResults) : [];
			panel.post({ type: 'context-results', requestId, items });
		},
		pickContext: async () => {
			const chips = await deps.pickContext?.();
			if (chips?.length) panel.post({ type: 'chips-added', chips });
		},
		dropUris: async (uris) => {
			const search = panel.search();
			if (!search) return;
			panel.post({ type: 'chips-added', ...(await search.fromUris(uris)) });
		},
		// A citation (validated http(s) only): opened once the user confirms.
		openLink: async (url) => {
			await openAnswerLink(url, log, deps.questions);
		},
	};
}
