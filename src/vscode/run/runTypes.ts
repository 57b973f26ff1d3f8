import type * as vscode from 'vscode';
import type { AttachmentRequest, DiffSource } from '../../core/context/attachment.js';
import type { Turn } from '../../core/orchestrator/types.js';
import type { RunResult } from '../../contract/runResult.js';
import type { Workspace } from '../../core/workspace/types.js';
import type { ProposalFile } from '../../contract/revision.js';
import type { ChangeSetView } from '../../protocol/changeSetView.js';
import type { AcceptRequest } from '../../protocol/messages.js';
import type { ChatModelInfo } from '../lm/pickChatModel.js';
import type { RunState } from '../../protocol/runState.js';
import type { RunTeam } from './runTeam.js';
import type { RevisionRequest } from '../../contract/revision.js';
import type { PlanRunRecord } from '../../contract/plan.js';

/** Contracts between the run controller (Ask team, panel) and the change review / selection review. */

/**
 * What the user asked for. A review carries the selection it is about; a plan run (`plan`: Plan
 * with Team, src/vscode/plans) is read-only, and its answer becomes a plan document.
 */
export interface RunRequest {
	readonly question: string;
	readonly kind: 'ask' | 'review' | 'plan';
	readonly review?: ReviewTarget;
	/** A review of a git diff (Review Changes): which diff; its findings go on the diff's new side. */
	readonly diffReview?: DiffReviewTarget;
	/**
	 * The workspace folder the run works on (multi-root). Absent: the folder of the run it follows
	 * up on, of the reviewed file or the active editor, the only one, or the one the user picks.
	 */
	readonly folder?: vscode.Uri;
	/**
	 * `ask` only: a follow-up in the current conversation: the session of `continueFrom`, else of
	 * the last run this window asked. The earlier turns (read back from their run directories) are
	 * given to the run as history. Otherwise a new conversation starts.
	 */
	readonly continueConversation?: boolean;
	/**
	 * `ask` only (implies `continueConversation`): the run whose session this follows up on (the
	 * run the panel shows, a Runs view row). The follow-up joins that session after its last turn;
	 * with `fork`, it follows up on this very run as a new session line.
	 */
	readonly continueFrom?: string;
	readonly fork?: boolean;
	/**
	 * `ask` only, not with a follow-up: earlier turns the caller holds itself (the model picker's
	 * chat, through `conversationRequest`), given to the run as its history; a new session starts.
	 */
	readonly history?: readonly Turn[];
	/**
	 * Context for the question (the open file, a selection, a diagnostic), read by the core under the
	 * tools' path policy. One that cannot be attached (secret, missing, too large) stops the run before
	 * it starts, with the reason shown.
	 */
	readonly attachments?: readonly AttachmentRequest[];
	/**
	 * A shipped team for this run only, whatever the settings and the workspace choose: `demo`
	 * (`configs/demo.yaml`, scripted, no key) when the user picked Try the Demo Team. A follow-up
	 * of such a run keeps it.
	 */
	readonly preset?: 'demo';
	/**
	 * A team config for this run only (Ask Several Teams: one run per team), judged by the same
	 * trust rules as `massgen.config` (`runTeamConfig`). `preset` wins when both are given.
	 */
	readonly team?: RunTeam;
	/**
	 * `ask` only: one more member for this run, a VS Code chat model (`type: vscode_lm`): the chat's
	 * selected model when the user asks `@massgen /withModel`. Never a model of the `massgen` vendor.
	 */
	readonly addModel?: ChatModelInfo;
	/**
	 * `ask` only: Send to Team (src/vscode/reviewLoop): revise run `fromRunId`'s proposal with the
	 * reviewer's comments. The run follows up on `fromRunId` (set `continueFrom` to it as well).
	 */
	readonly revision?: RevisionRequest;
	/**
	 * The run's part in a plan (`result.json`'s `plan`; the Runs view names the run by it): a
	 * step's run or all steps' (Execute Plan, src/vscode/plans), the planning run (Plan with Team:
	 * `kind: 'plan'`, which makes every agent read-only with no change set).
	 */
	readonly plan?: PlanRunRecord;
}

export interface ReviewTarget {
	/** The reviewed document (a file in the workspace). */
	readonly uri: vscode.Uri;
	/** Workspace-relative path with `/` separators. */
	readonly path: string;
	/** 0-based, inclusive start and exclusive end lines of the selection. */
	readonly startLine: number;
	readonly endLine: number;
}

/** What Review Changes reviews (its run attaches the diff: `attachments` `{ kind: 'diff', source }`). */
export interface DiffReviewTarget {
	readonly source: DiffSource;
	/** The diff in words, as the picker named it ("the staged changes", "pull request #12"). */
	readonly label: string;
	/** The files the diff changes (workspace-relative, `/`), when the review started. */
	readonly files: readonly string[];
}

/** A run that ended (completed, timed out, failed or cancelled). */
export interface FinishedRun {
	readonly request: RunRequest;
	readonly result: RunResult;
	/** The folded state the panel shows (same reducer as the webview). */
	readonly state: RunState;
	/** The workspace folder the run worked in: the changes' paths are relative to it. */
	readonly folder: vscode.WorkspaceFolder;
	/** What Accept checks each target against again right before it writes. */
	readonly writePolicy: WritePolicy;
	/** `<workspace>/.massgen/runs/<runId>/`. */
	readonly runDir: string;
}

/** The run's real root (symlinks resolved), `protected_paths` and secret-path policy. */
export type WritePolicy = Pick<Workspace, 'root' | 'protectedPaths' | 'secretPaths'>;

/**
 * Why a run did not start. The user has been told already (a notification, unless the caller
 * cancelled or declined); callers without a notification of their own (the LM tool, the chat
 * participant) pass `reason` on. Redacted.
 */
export interface RunRefusal {
	readonly refused: 'cancelled' | 'no-workspace' | 'config' | 'attachment' | 'budget' | 'error';
	readonly reason: string;
}

export type StartOutcome = { readonly run: FinishedRun } | RunRefusal;

/** A run the controller admitted: it has its id and its first event is on the way. */
export interface StartedRun {
	readonly request: RunRequest;
	readonly runId: string;
	/** The controller's name for the run from the moment it was asked (`ActiveRunInfo.ticket`). */
	readonly ticket: string;
}

/**
 * A run of this window that has not ended: `starting` (its team and questions are being settled),
 * `queued` (waiting for a slot: `massgen.runs.maxConcurrent`) or `running`.
 */
export interface ActiveRunInfo {
	/** Names the run from the moment it was asked, before it has a run id (the queue's key). */
	readonly ticket: string;
	/** Known once the run started (its run directory exists). */
	readonly runId: string | undefined;
	readonly request: RunRequest;
	readonly folder: vscode.WorkspaceFolder;
	readonly phase: 'starting' | 'queued' | 'running';
	/** Its live state (empty until it runs). */
	readonly state: RunState;
	/** When it was asked (ms since the epoch, the controller's clock). */
	readonly askedAt: number;
	/** When it started running; undefined before. */
	readonly startedAt: number | undefined;
}

/** Implemented by the run controller. */
export interface RunService {
	/** Starts a run (queued past `massgen.runs.maxConcurrent`). Resolves when it ends; undefined if not started. */
	start(request: RunRequest, token?: vscode.CancellationToken): Promise<FinishedRun | undefined>;
	readonly onDidFinishRun: vscode.Event<FinishedRun>;
}

/** A run's pending change set changed (`changeSet` null: nothing of that run is pending any more). */
export interface ChangeSetChange {
	readonly runId: string;
	readonly changeSet: ChangeSetView | null;
}

/**
 * Implemented by the change review; the panel and the commands call it. Several runs' change sets
 * can be pending at once: every call names the run it is about.
 */
export interface ChangeActions {
	/**
	 * Opens the diff of one changed file of run `runId` (focus preserved). `version` picks the right
	 * side: `proposed` (default: base + selected hunks), `final` (the winner's text) or an answer label.
	 */
	openDiff(runId: string, path: string, version?: string): Promise<void>;
	/** Applies (part of) the run's pending change set, as the request says, as one undoable WorkspaceEdit. */
	accept(request: AcceptRequest): Promise<void>;
	/** Discards the run's pending change set (or only `paths` of it); nothing is written. */
	reject(runId: string, paths?: readonly string[]): Promise<void>;
	/** Switches hunks of one file on or off in the selection that Accept uses for that run. */
	selectHunks(runId: string, path: string, ids: readonly string[], selected: boolean): void;
	/** The run's pending change set as the panel shows it; null when nothing of it is pending. */
	changeSet(runId: string): ChangeSetView | null;
	/** The runs with a pending change set, in the order they finished. */
	pendingRunIds(): readonly string[];
	/**
	 * The run's pending files as a follow-up tells the team (`RevisionRequest.files`): what Accept
	 * would write now (the selection and the user's edits of the proposal) and the lines the user
	 * wrote. Empty when nothing of the run is pending.
	 */
	proposalFiles(runId: string): readonly ProposalFile[];
	/** Fires whenever a run's `changeSet` changes (new run, selection, accept, reject, a file edited meanwhile). */
	readonly onDidChangeChangeSet: vscode.Event<ChangeSetChange>;
}
