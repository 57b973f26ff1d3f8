import type { AttachmentChip } from '../../protocol/attachmentChip.js';
import type { SteerRequest } from '../../protocol/messages.js';
import type { AcceptRequest, ApprovalDecision, WebviewMessage } from '../../protocol/messages.js';
import { assertNever } from '../../protocol/assertNever.js';
import type { ParseResult } from '../../protocol/webviewMessageSchema.js';

/** What the panel can ask the host to do (each maps to one validated message type). */
export interface PanelActions {
	ready(): void | Promise<void>;
	/**
	 * `attachments`: the ask box's chips (empty when none), for `RunRequest.attachments`; `plan`: the
	 * Plan toggle was on (the question is a task for Plan with Team).
	 */
	ask(question: string, attachments: readonly AttachmentChip[], mode: 'ask' | 'plan'): void | Promise<void>;
	/** Cancel `runId` (the run the page was rendered for). */
	cancel(runId: string): void | Promise<void>;
	/** Stop agent in a lane of `runId` (absent in hosts without a run to stop). */
	stopAgent?(runId: string, agentId: string): void | Promise<void>;
	/** A message to the team of `runId` (the next two: absent in hosts without a run to steer). */
	steer?(runId: string, message: SteerRequest): void | Promise<void>;
	/** Finish now: the leader of `runId` presents. */
	finishNow?(runId: string): void | Promise<void>;
	/**
	 * The change messages name the run whose change set the panel rendered them for. `version`
	 * only when the message names one (proposed, final, or an answer label).
	 */
	openDiff(runId: string, path: string, version?: string): void | Promise<void>;
	/** The message's request as it came (`{ runId }`: every pending change with the host's selection). */
	accept(request: AcceptRequest): void | Promise<void>;
	/** Hunk checkboxes in the change list (the change review keeps the selection). */
	selectHunks?(runId: string, path: string, ids: readonly string[], selected: boolean): void | Promise<void>;
	/** Comment for the Team on a hunk of the run's pending set (the review loop). */
	commentHunk?(runId: string, path: string, hunkId: string): void | Promise<void>;
	/** Send to Team: the run's open comments, as a revision. */
	sendToTeam?(runId: string): void | Promise<void>;
	reject(runId: string): void | Promise<void>;
	openRun(runId: string): void | Promise<void>;
	/** Revert Run from the panel (absent in hosts without the command). */
	revertRun?(runId: string): void | Promise<void>;
	approval(requestId: string, decision: ApprovalDecision, note: string | undefined): void | Promise<void>;
	/** `#` completion in the ask box (the next three: absent in hosts without the ask box's context); the answer goes back as `context-results` with `requestId`. */
	searchContext?(query: string, requestId: string): void | Promise<void>;
	/** The ask box's "+" button. */
	pickContext?(): void | Promise<void>;
	/** Files dropped on the ask box (URIs as the drag carried them). */
	dropUris?(uris: readonly string[]): void | Promise<void>;
	/** An http(s) link clicked in an answer (absent in hosts that open no links). */
	openLink?(url: string): void | Promise<void>;
	/** The webview gained or lost the keyboard focus (absent in hosts that do not ask). */
	focus?(focused: boolean): void | Promise<void>;
}

/**
 * Validates one inbound webview message and dispatches it. Invalid
 * messages are logged and ignored: nothing the webview says is trusted. Returns whether it was valid.
 */
export async function dispatchWebviewMessage(
	raw: unknown,
	parse: (raw: unknown) => ParseResult,
	actions: PanelActions,
	log: { warn(message: string): void },
): Promise<boolean> {
	const parsed = parse(raw);
	if (!parsed.ok) {
		log.warn(`panel: ignored a message: ${parsed.error}`);
		return false;
	}
	await dispatch(parsed.message, actions);
	return true;
}

function dispatch(message: WebviewMessage, actions: PanelActions): void | Promise<void> {
	switch (message.type) {
		case 'ready':
			return actions.ready();
		case 'ask':
			return actions.ask(message.question, message.attachments ?? [], message.mode ?? 'ask');
		case 'cancel':
			return actions.cancel(message.runId);
		case 'stop-agent':
			return actions.stopAgent?.(message.runId, message.agentId);
		case 'steer':
			return actions.steer?.(message.runId, {
				text: message.text,
				noteOnly: message.noteOnly,
				...(message.agentId === undefined ? {} : { agentId: message.agentId }),
			});
		case 'finish-now':
			return actions.finishNow?.(message.runId);
		case 'open-diff':
			return message.version === undefined
				? actions.openDiff(message.runId, message.path)
				: actions.openDiff(message.runId, message.path, message.version);
		case 'accept': {
			const { type: _type, ...request } = message;
			return actions.accept(request);
		}
		case 'select-hunks':
			return actions.selectHunks?.(message.runId, message.path, message.ids, message.selected);
		case 'reject':
			return actions.reject(message.runId);
		case 'comment-hunk':
			return actions.commentHunk?.(message.runId, message.path, message.hunkId);
		case 'send-to-team':
			return actions.sendToTeam?.(message.runId);
		case 'open-run':
			return actions.openRun(message.runId);
		case 'revert-run':
			return actions.revertRun?.(message.runId);
		case 'approval':
			return actions.approval(message.requestId, message.decision, message.note);
		case 'search-context':
			return actions.searchContext?.(message.query, message.requestId);
		case 'pick-context':
			return actions.pickContext?.();
		case 'drop-uris':
			return actions.dropUris?.(message.uris);
		case 'open-link':
			return actions.openLink?.(message.url);
		case 'focus':
			return actions.focus?.(message.focused);
		default:
			return assertNever(message);
	}
}
