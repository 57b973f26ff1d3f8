import * as vscode from 'vscode';
import type { ApprovalBroker, PendingApproval } from '../../core/permissions/approvalBroker.js';
import { DisposableStore, toDisposable } from '../common/lifecycle.js';
import type { SessionSecrets } from '../common/log.js';
import { panelShows } from '../common/panelShows.js';
import { runLabel } from '../common/runName.js';
import type { PanelHost } from '../panel/panelHost.js';
import type { ActiveRunInfo } from '../run/runTypes.js';
import { ApprovalBadge } from './approvalBadge.js';
import { ApprovalPrompts, panelTitle } from './approvalPrompts.js';
import type { WorkspacePermissionStore } from './workspacePermissionStore.js';

/** What the in-host tests see of the approvals (`MassGenApi.approvals`). */
export interface MassGenApprovalsApi {
	/** Requests waiting for a decision (each once, with every agent waiting on it). */
	pending(): readonly PendingApproval[];
	/** Notifications shown for requests (newest last). */
	notifications(): readonly string[];
	/** The badge: the status bar text (undefined when hidden) and the panel's title. */
	ui(): { readonly badge: string | undefined; readonly panelTitle: string };
	/** Feeds a message into the panel's message path as if the webview had posted it. */
	postFromPanel(message: unknown): Promise<void>;
	/** This workspace's "always allow" grants. */
	alwaysAllowed(): readonly string[];
	clearAlwaysAllowed(): Promise<void>;
}

export interface Approvals extends vscode.Disposable {
	readonly api: MassGenApprovalsApi;
}

/**
 * The editor's side of the extension's one approval broker (every run's requests; the run
 * controller asks it): the notification + badge for requests and the panel cards' answers.
 */
export function createApprovals(deps: {
	readonly broker: ApprovalBroker;
	/** This workspace's "always allow" grants. */
	readonly grants: WorkspacePermissionStore;
	readonly panel: PanelHost;
	/** The window's runs: a request names the run it is for (its question, and its folder when there are several). */
	readonly runs: { active(): readonly ActiveRunInfo[] };
	readonly log: vscode.LogOutputChannel;
	readonly secrets?: SessionSecrets;
}): Approvals {
	const { broker, grants, panel } = deps;
	const store = new DisposableStore();
	const badge = store.add(new ApprovalBadge());
	const prompts = store.add(
		new ApprovalPrompts(broker, {
			panelFocusedOn: (runId) => panelShows(panel, runId, 'focused'),
			showRun: (runId) => void panel.openRun(runId),
			runLabel: (runId) => {
				const run = deps.runs.active().find((active) => active.runId === runId);
				const several = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
				return run && runLabel(run.request.question, several ? run.folder.name : undefined);
			},
			onCount: (count) => {
				badge.update(count);
				panel.setWaiting(panelTitle(count), count);
			},
			// A command the model wrote may quote a key: the notification shows it redacted (the panel card too).
			notify: (message, ...buttons) =>
				vscode.window.showInformationMessage(deps.secrets?.text(message) ?? message, ...buttons),
			log: deps.log,
		}),
	);
	// Requests still waiting when the extension goes away are denied (their runs end with it).
	store.add(
		toDisposable(() =>
			new Set(broker.pending().map((request) => request.runId)).forEach((runId) => broker.cancelRun(runId)),
		),
	);
	store.add(
		panel.onDidAnswerApproval(({ requestId, decision, note }) => prompts.answer(requestId, decision, note)),
	);
	panel.setWaiting(panelTitle(prompts.waiting), prompts.waiting);
	return {
		api: {
			pending: () => broker.pending(),
			notifications: () => [...prompts.notifications],
			ui: () => ({ badge: badge.text, panelTitle: panel.title }),
			postFromPanel: (message) => panel.receive(message),
			alwaysAllowed: () => grants.rules(),
			clearAlwaysAllowed: () => grants.clear(),
		},
		dispose: () => store.dispose(),
	};
}
