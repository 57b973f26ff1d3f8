/**
 * The host ⇄ webview wire protocol (docs/editor.md): ready → snapshot → batched
 * live events. Types only, so the webview bundle pulls in no runtime code from here; the host
 * validates inbound messages with `parseWebviewMessage`.
 */
import type { RunEvent } from '../contract/runEvents.js';
import type { PastRunSummary } from '../contract/pastRunSummary.js';
import type { AttachmentChip } from './attachmentChip.js';
import type { ChangeOutcomesView, ChangeSetView } from './changeSetView.js';
import type { PlanProgressView } from './planProgress.js';
import type { RunState } from './runState.js';
import type { WebviewStrings } from './stringsTable.js';

/** The panel's past-run rows: part of the protocol, so the webview imports it from here. */
export type { PastRunSummary };

/** Host → webview. */
export type HostMessage =
	/**
	 * Sent in answer to `ready` and on reopening a run: the whole state, then live `events`; with the
	 * panel's strings table (the webview builds the panel from the first).
	 */
	| {
			readonly type: 'snapshot';
			readonly state: RunState | null;
			readonly runs: readonly PastRunSummary[];
			/** The run switcher's list (`live-runs` updates it). */
			readonly liveRuns: readonly SwitcherRun[];
			readonly strings: WebviewStrings;
	  }
	/** Live events, coalesced by the host; the webview folds them with `reduceRun`. */
	| { readonly type: 'events'; readonly events: readonly RunEvent[] }
	/** The past-runs list changed. */
	| { readonly type: 'runs'; readonly runs: readonly PastRunSummary[] }
	/**
	 * The pending change set (sent after `snapshot` and whenever it, its selection or its files'
	 * staleness change); null when nothing is pending (accepted, rejected, or no changes).
	 */
	| { readonly type: 'change-set'; readonly changeSet: ChangeSetView | null }
	/**
	 * What became of the shown run's files that are no longer pending (accepted, partly accepted,
	 * rejected, reverted), from its record: sent after `snapshot` and whenever the record may have changed.
	 */
	| ({ readonly type: 'change-outcomes' } & ChangeOutcomesView)
	/** The answer to one `search-context` (`#` completion): fixed items first, then files and folders. */
	| {
			readonly type: 'context-results';
			readonly requestId: string;
			readonly items: readonly AttachmentChip[];
	  }
	/**
	 * Chips for the ask box from the host ("+", "Add Context", a file dropped from the Explorer);
	 * `notice` says what was left out and why (a secret path, a file outside the workspace).
	 */
	| { readonly type: 'chips-added'; readonly chips: readonly AttachmentChip[]; readonly notice?: string }
	/**
	 * An `ask` that did not start a run (an attachment refused, a run declined, no team config):
	 * the question and its chips go back to the ask box, with the reason (redacted).
	 */
	| {
			readonly type: 'ask-refused';
			readonly question: string;
			readonly attachments: readonly AttachmentChip[];
			readonly reason: string;
	  }
	/** Give the ask box the keyboard (Show Panel, Focus Ask Box, Add Context: the user is about to type). */
	| { readonly type: 'focus-ask' }
	/**
	 * The run switcher's list: the window's live runs and the run shown (the `snapshot` has it first;
	 * then whenever a run is asked, starts, changes state or ends; throttled by the host).
	 */
	| { readonly type: 'live-runs'; readonly runs: readonly SwitcherRun[] }
	/**
	 * What became of the panel's `steer` or `finish-now` for run `runId`: refused with the run's own
	 * reason (shown by the message box), or accepted (a message: `agents` it will reach).
	 */
	| {
			readonly type: 'control-result';
			readonly runId: string;
			readonly action: 'steer' | 'finish-now';
			readonly ok: boolean;
			readonly reason?: string;
	  }
	/**
	 * The window's plan executions (Execute Plan), newest first: sent after `snapshot` and whenever
	 * one moves. The panel shows the one whose `runIds` hold the run it shows.
	 */
	| { readonly type: 'plan-progress'; readonly plans: readonly PlanProgressView[] };

/** What the switcher says of a run (the state words come from the strings table). */
export type SwitcherRunState =
	'working' | 'queued' | 'approval' | 'review' | 'finished' | 'failed' | 'cancelled';

/** One run in the switcher. */
export interface SwitcherRun {
	/** Names the row (the controller's ticket, or the run id of a run that is not live). */
	readonly key: string;
	/** Null while the run waits in the queue (nothing to show yet). */
	readonly runId: string | null;
	/** The question's first line, shortened. */
	readonly name: string;
	readonly state: SwitcherRunState;
	/** Approvals of this run waiting for the user. */
	readonly waiting: number;
	/** The run this surface shows. */
	readonly shown: boolean;
}

/** Hunks picked in one file (ids from `HunkView.id`). */
export interface HunkSelection {
	readonly path: string;
	readonly ids: readonly string[];
}

/**
 * What Accept applies, the same from the panel's message to the change review: the pending
 * changes of run `runId` (every file, or only `paths`); nothing happens when that run has none
 * pending. `hunks` overrides the host's selection for the files it names (ids from `HunkView.id`).
 */
export interface AcceptRequest {
	readonly runId: string;
	readonly paths?: readonly string[];
	readonly hunks?: readonly HunkSelection[];
}

/** A message to a running team, as the panel and the commands send it (the core's `SteerMessage`). */
export interface SteerRequest {
	readonly text: string;
	/** The one agent it is for; absent: every live agent. */
	readonly agentId?: string;
	/** The agents' votes stand (default: the targeted agents' votes are withdrawn). */
	readonly noteOnly?: boolean;
}

/** A decision on an approval card (docs/tools-and-sandbox.md). */
export type ApprovalDecision = 'allow-once' | 'allow-run' | 'always' | 'deny';

/** Webview → host. Untrusted: the host accepts only what `parseWebviewMessage` returns. */
export type WebviewMessage =
	| { readonly type: 'ready' }
	/**
	 * `attachments`: the ask box's chips, validated and converted by the host (`chipToRequest`).
	 * `mode: 'plan'`: the ask box's Plan toggle is on: the question is a task the team plans (read-only).
	 */
	| {
			readonly type: 'ask';
			readonly question: string;
			readonly attachments?: readonly AttachmentChip[];
			readonly mode?: 'plan';
	  }
	/** Cancel the run the page was rendered for (`runId`: a click after a switch cannot hit another run). */
	| { readonly type: 'cancel'; readonly runId: string }
	/** Stop agent: that agent's call is aborted and it leaves the vote; its answers stay. */
	| { readonly type: 'stop-agent'; readonly runId: string; readonly agentId: string }
	/**
	 * A message to the team of run `runId` while it goes: to every live agent, or to `agentId` only;
	 * `noteOnly`: the agents' votes stand (else theirs are withdrawn). Answered with `control-result`.
	 */
	| {
			readonly type: 'steer';
			readonly runId: string;
			readonly text: string;
			readonly agentId?: string;
			readonly noteOnly: boolean;
	  }
	/** Finish now: no new round starts; the leader presents. Answered with `control-result`. */
	| { readonly type: 'finish-now'; readonly runId: string }
	/**
	 * Workspace-relative path of a change in run `runId`'s change set (every change message names
	 * the run it was rendered for: a click after the panel switched runs cannot reach another run's).
	 * `version` picks the right side: the proposed text (default: base + selected hunks), the
	 * winner's `final`, or an answer (`agentN.k`).
	 */
	| { readonly type: 'open-diff'; readonly runId: string; readonly path: string; readonly version?: string }
	| ({ readonly type: 'accept' } & AcceptRequest)
	/** Switch hunks of one file on or off in the host's selection (switching one on switches off those it overlaps). */
	| {
			readonly type: 'select-hunks';
			readonly runId: string;
			readonly path: string;
			readonly ids: readonly string[];
			readonly selected: boolean;
	  }
	| { readonly type: 'reject'; readonly runId: string }
	/** Comment for the Team on a winner hunk: the host opens its diff and asks the reviewer's words. */
	| { readonly type: 'comment-hunk'; readonly runId: string; readonly path: string; readonly hunkId: string }
	/** Send to Team: the run's open comments go back to the team as a revision (a follow-up run). */
	| { readonly type: 'send-to-team'; readonly runId: string }
	| { readonly type: 'open-run'; readonly runId: string }
	/** The panel's Revert Run (after the changes were accepted): the host runs `massgen.revertRun` for it. */
	| { readonly type: 'revert-run'; readonly runId: string }
	| {
			readonly type: 'approval';
			readonly requestId: string;
			readonly decision: ApprovalDecision;
			readonly note?: string;
	  }
	/** `#` completion: what follows the `#`; the host answers with `context-results` of the same id. */
	| { readonly type: 'search-context'; readonly query: string; readonly requestId: string }
	/** The ask box's "+": the host's context picker, answered with `chips-added`. */
	| { readonly type: 'pick-context' }
	/** Files dropped on the ask box (`text/uri-list`): the host makes file chips of those in the workspace. */
	| { readonly type: 'drop-uris'; readonly uris: readonly string[] }
	/** A click on an http(s) link in an answer (a citation): the host opens it once the user confirms. */
	| { readonly type: 'open-link'; readonly url: string }
	/** The webview gained or lost the keyboard focus (a side bar view reports no focus of its own). */
	| { readonly type: 'focus'; readonly focused: boolean };

export type HostMessageType = HostMessage['type'];
export type WebviewMessageType = WebviewMessage['type'];
