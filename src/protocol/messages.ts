/**
 * The host ⇄ webview wire protocol (DESIGN §7, house-style §3.4): ready → snapshot → batched
 * live events. Types only, so the webview bundle pulls in no runtime code from here; the host
 * validates inbound messages with `parseWebviewMessage`.
 */
import type { RunEvent } from '../core/orchestrator/events.js';
import type { PastRunSummary } from '../core/logs/pastRunSummary.js';
import type { RunState } from './runState.js';

/** Host → webview. */
export type HostMessage =
	/** Sent in answer to `ready` and on reopening a run: the whole state, then live `events`. */
	| { readonly type: 'snapshot'; readonly state: RunState | null; readonly runs: readonly PastRunSummary[] }
	/** Live events, coalesced by the host; the webview folds them with `reduceRun`. */
	| { readonly type: 'events'; readonly events: readonly RunEvent[] }
	/** The past-runs list changed. */
	| { readonly type: 'runs'; readonly runs: readonly PastRunSummary[] };

/** A decision on an approval card (DESIGN §1). */
export type ApprovalDecision = 'allow-once' | 'allow-run' | 'always' | 'deny';

/** Webview → host. Untrusted: the host accepts only what `parseWebviewMessage` returns. */
export type WebviewMessage =
	| { readonly type: 'ready' }
	| { readonly type: 'ask'; readonly question: string }
	| { readonly type: 'cancel' }
	/** Workspace-relative path of a change in the current change set. */
	| { readonly type: 'open-diff'; readonly path: string }
	/** Accept all pending changes, or only these paths. */
	| { readonly type: 'accept'; readonly paths?: readonly string[] }
	| { readonly type: 'reject' }
	| { readonly type: 'open-run'; readonly runId: string }
	| {
			readonly type: 'approval';
			readonly requestId: string;
			readonly decision: ApprovalDecision;
			readonly note?: string;
	  };

export type HostMessageType = HostMessage['type'];
export type WebviewMessageType = WebviewMessage['type'];
