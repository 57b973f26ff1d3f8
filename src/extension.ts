import * as vscode from 'vscode';
import { ApprovalBroker } from './core/permissions/approvalBroker.js';
import { seedRedactor } from './core/secrets/seedRedactor.js';
import { createApprovals, type MassGenApprovalsApi } from './vscode/approvals/registerApprovals.js';
import { WorkspacePermissionStore } from './vscode/approvals/workspacePermissionStore.js';
import { registerChatParticipant } from './vscode/chat/participant.js';
import { ChangeReview } from './vscode/changes/changeReview.js';
import { viewIds, viewTypes } from './vscode/common/commandIds.js';
import { registerCommands } from './vscode/commands.js';
import { runChangeSets } from './vscode/compare/runChangeSets.js';
import { TeamComparisons } from './vscode/compare/teamComparisons.js';
import { composeRunPanel } from './vscode/composeRunPanel.js';
import { pickContext } from './vscode/context/contextPicker.js';
import { registerFixCodeActions } from './vscode/context/fixCodeActions.js';
import { recordTerminalHistory } from './vscode/context/terminalRecorder.js';
import type { MassGenApi } from './vscode/extensionApi.js';
import { DisposableStore } from './vscode/common/lifecycle.js';
import { registerAskTeamTool } from './vscode/lm/askTeamTool.js';
import { registerTeamMcpServer, TeamMcpServerProvider } from './vscode/lm/teamMcpServer.js';
import { registerTeamChatProvider } from './vscode/lm/teamChatProvider.js';
import { createLog, SessionSecrets } from './vscode/common/log.js';
import { SelectionReview } from './vscode/codeReview/selectionReview.js';
import { DiffReview } from './vscode/codeReview/diffReview.js';
import { FindingThreads } from './vscode/codeReview/findingThreads.js';
import { ReviewSides } from './vscode/codeReview/reviewSides.js';
import { ReviewLoop } from './vscode/reviewLoop/reviewLoop.js';
import { WorkspaceConsent } from './vscode/trust/workspaceConsent.js';
import { reportEnded } from './vscode/run/runMessages.js';
import { panelShows } from './vscode/common/panelShows.js';
import { RunsView } from './vscode/pastRuns/runsView.js';
import { OtherPlans } from './vscode/plans/otherPlans.js';
import { PlanDocuments } from './vscode/plans/planDocuments.js';
import { TeamView } from './vscode/team/teamView.js';
import { KeyStore } from './vscode/common/secrets.js';
import { FirstUseWalkthrough } from './vscode/walkthrough.js';
import { PlanExecutions } from './vscode/plans/planExecutions.js';
import { PlanProgress } from './vscode/plans/planProgress.js';
import { WalkthroughProgress } from './vscode/walkthroughProgress.js';

/**
 * Builds the object graph, each object after what it needs, and hands one root disposable to VS
 * Code. Loads no SDK and no config schema: the run engine is `dist/engine.js`, loaded at the first run.
 */
export function activate(
	context: vscode.ExtensionContext,
): MassGenApi & { readonly approvals: MassGenApprovalsApi } {
	const started = performance.now();
	const root = new DisposableStore();
	context.subscriptions.push(root);

	// The environment's secret-looking values are masked from the first log line, before any run.
	const secrets = new SessionSecrets(seedRedactor({ env: process.env }));
	const log = root.add(createLog(secrets));
	const keys = new KeyStore(context.secrets);
	const configsDir = vscode.Uri.joinPath(context.extensionUri, 'configs').fsPath;
	// Shell integration's commands can only be read from their start: recorded from activation on.
	const terminals = recordTerminalHistory();
	root.add(terminals.disposable);
	const picker = { terminals: terminals.history, redact: secrets.text };
	// One broker for every run's approval requests; the panel's cards and the notifications answer it.
	const broker = new ApprovalBroker();
	const grants = new WorkspacePermissionStore(context.workspaceState);
	const planProgress = root.add(new PlanProgress());
	const { engine, statusBar, runs, changes, panel } = root.add(
		composeRunPanel({
			extensionUri: context.extensionUri,
			log,
			secrets,
			keys,
			memento: context.workspaceState,
			approvals: { broker, store: grants },
			// The user's profile, not the workspace's: a repository cannot pre-seed its own consent.
			consent: new WorkspaceConsent(context.globalState),
			changes: (runs) => root.add(new ChangeReview({ runs, log })),
			pickContext: () => pickContext(picker),
			plans: planProgress,
		}),
	);
	const plans = root.add(
		new PlanExecutions({ runs, changes, progress: planProgress, log, redact: secrets.text }),
	);
	const findingThreads = root.add(new FindingThreads());
	const selection = root.add(new SelectionReview({ runs, log, threads: findingThreads }));
	const diffReview = root.add(
		new DiffReview({ runs, log, threads: findingThreads, sides: root.add(new ReviewSides()) }),
	);
	const reviewLoop = root.add(new ReviewLoop({ changes, runs, log }));
	changes.decorateViews((view) => reviewLoop.decorate(view));
	const runsView = root.add(
		new RunsView({
			runs,
			approvals: broker,
			changes,
			openInPanel: (runId) => panel.openRun(runId),
			memento: context.workspaceState,
			log,
		}),
	);
	const teamView = root.add(
		new TeamView({
			engine,
			keys,
			shippedConfigsDir: configsDir,
			onDidChangeSecrets: context.secrets.onDidChange,
			log,
		}),
	);
	const approvals = root.add(createApprovals({ broker, grants, panel, runs, log, secrets }));
	const walkthrough = root.add(new FirstUseWalkthrough(context, [teamView.view, runsView.view], log));
	const progress = root.add(
		new WalkthroughProgress({
			keys,
			onDidChangeSecrets: context.secrets.onDidChange,
			runs,
			onDidAccept: changes.onDidAccept,
			log,
		}),
	);
	root.add(
		vscode.window.registerWebviewViewProvider(viewIds.teamPanel, {
			resolveWebviewView: (view) => panel.resolveView(view),
		}),
	);
	root.add(
		vscode.window.registerWebviewPanelSerializer(viewTypes.panel, {
			deserializeWebviewPanel: (webviewPanel, state: unknown) => panel.revive(webviewPanel, state),
		}),
	);
	const comparisons = root.add(new TeamComparisons({ runs, changes: runChangeSets(changes), log }));
	const planDocuments = root.add(new PlanDocuments({ runs, log }));
	const otherPlans = root.add(new OtherPlans(log));
	// A finished run is announced by a notification unless a visible panel already shows it.
	root.add(
		runs.onDidFinishRun((run) =>
			reportEnded(
				run,
				{
					shown: panelShows(panel, run.result.runId, 'visible'),
					show: () => void panel.openRun(run.result.runId),
				},
				secrets.text,
			),
		),
	);
	root.add(
		registerCommands({
			log,
			panel,
			runs,
			keys,
			configsDir,
			changes,
			selection,
			diffReview,
			findingThreads,
			reviewLoop,
			runsView,
			teamView,
			picker,
			engine,
			around: (command) => walkthrough.around(command),
			progress,
			comparisons,
			plans,
			planDocuments,
			otherPlans,
		}),
	);
	root.add(registerFixCodeActions());
	root.add(registerAskTeamTool(runs));
	const teamMcp = root.add(
		new TeamMcpServerProvider({
			extensionUri: context.extensionUri,
			version: context.extension.packageJSON.version as string,
			storedKeys: () => keys.getAll(),
			onDidChangeSecrets: context.secrets.onDidChange,
		}),
	);
	root.add(registerTeamMcpServer(teamMcp));
	root.add(registerChatParticipant(context.extensionUri, { runs, changes, planDocuments }));
	root.add(
		registerTeamChatProvider({
			source: { engine, keys, shippedConfigsDir: configsDir, log },
			runs,
			onDidChangeTeam: teamView.provider.onDidChangeTeam,
		}),
	);

	const activationMs = performance.now() - started;
	log.info(`activated ${context.extension.packageJSON.version as string} in ${activationMs.toFixed(1)} ms`);
	return {
		runs,
		lastState: () => runs.state,
		conversation: () => runs.conversation,
		changes,
		findingThreads: () => findingThreads.threads(),
		diffReview,
		teamThreads: (runId) => reviewLoop.comments.threads(runId),
		ui: () => ({
			runActive: runs.runActiveContext,
			statusBar: statusBar.text,
			statusTooltip: statusBar.tooltip,
			panelOpen: panel.visible,
		}),
		runsView,
		teamView,
		panelRunId: () => panel.shownRunId,
		panelSurfaces: () => {
			const state = (host: typeof panel.view | undefined) => ({
				open: host?.surface !== undefined,
				visible: host?.visible ?? false,
				focused: host?.focused ?? false,
				runId: host?.shownRunId,
			});
			return { view: state(panel.view), editor: state(panel.editor), editors: panel.editors.map(state) };
		},
		activationMs,
		approvals: approvals.api,
		compare: comparisons,
		plans: planProgress,
		planDocuments,
	};
}

export function deactivate(): void {}
