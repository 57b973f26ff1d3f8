import * as vscode from 'vscode';
import { createApprovals, type MassGenApprovalsApi } from './vscode/approvals/registerApprovals.js';
import { contributedTitles, type CommandHandlers, registerCommands } from './vscode/commands.js';
import { viewTypes } from './vscode/commandIds.js';
import { ConfigDiagnostics } from './vscode/config/configDiagnostics.js';
import { changeReviewFeature } from './vscode/changes/registerChangeReview.js';
import type { MassGenApi } from './vscode/extensionApi.js';
import type { FeatureFactory } from './vscode/feature.js';
import type { FindingThread } from './vscode/review/selectionReview.js';
import type { ChangeActions } from './vscode/run/runTypes.js';
import { DisposableStore } from './vscode/lifecycle.js';
import { createLog, SessionSecrets } from './vscode/log.js';
import { selectionReviewFeature } from './vscode/review/registerSelectionReview.js';
import { loadEngineBundle } from './vscode/run/loadEngine.js';
import { RunController } from './vscode/run/runController.js';
import { RunStatusBar } from './vscode/run/runStatusBar.js';
import { KeyStore } from './vscode/secrets.js';
import { PanelHost } from './vscode/view.js';

/**
 * Feature modules built at activation: the change review (Accept/Reject Changes and File, the
 * diffs, the panel's ChangeActions) and the selection review (Review Selection, comment threads).
 */
const features: readonly FeatureFactory[] = [changeReviewFeature, selectionReviewFeature];

/**
 * Builds the object graph and hands one root disposable to VS Code. Loads no SDK and no config
 * schema: the run engine is `dist/engine.js`, loaded at the first run.
 */
export function activate(
	context: vscode.ExtensionContext,
): MassGenApi & { readonly approvals: MassGenApprovalsApi } {
	const started = performance.now();
	const root = new DisposableStore();
	context.subscriptions.push(root);

	const secrets = new SessionSecrets();
	const log = root.add(createLog(secrets));
	const keys = new KeyStore(context.secrets);
	const configsDir = vscode.Uri.joinPath(context.extensionUri, 'configs').fsPath;
	const statusBar = root.add(new RunStatusBar());
	const approvals = root.add(createApprovals({ log, workspaceState: context.workspaceState, secrets }));
	let panel: PanelHost | undefined;
	const runs: RunController = root.add(
		new RunController({
			log,
			secrets,
			keys,
			statusBar,
			shippedConfigsDir: configsDir,
			isPanelVisible: () => panel?.visible ?? false,
			loadEngine: () => loadEngineBundle(vscode.Uri.joinPath(context.extensionUri, 'dist').fsPath),
			approvals: { broker: approvals.broker, store: approvals.store },
			diagnostics: root.add(
				new ConfigDiagnostics(async (text, file) => {
					const engine = await runs.engine();
					return engine.loadConfigText(text, file).issues;
				}),
			),
		}),
	);
	panel = root.add(
		new PanelHost({
			extensionUri: context.extensionUri,
			log,
			runs,
			memento: context.workspaceState,
			approvals: approvals.prompts,
			secrets,
		}),
	);
	approvals.attach(panel);
	root.add(
		vscode.window.registerWebviewPanelSerializer(viewTypes.panel, {
			deserializeWebviewPanel: async (webviewPanel) => panel.revive(webviewPanel),
		}),
	);

	const extra: CommandHandlers = {};
	let changes: ChangeActions | undefined;
	const findingThreads: (() => readonly FindingThread[])[] = [];
	for (const create of features) {
		const feature = root.add(create({ extensionContext: context, log, runs }));
		Object.assign(extra, feature.commands);
		if (feature.changeActions) panel.setChangeActions((changes = feature.changeActions));
		if (feature.findingThreads) findingThreads.push(feature.findingThreads);
	}
	root.add(
		registerCommands({
			log,
			panel,
			runs,
			keys,
			configsDir,
			extra,
			titles: contributedTitles(context.extension.packageJSON),
		}),
	);

	const activationMs = performance.now() - started;
	log.info(`activated ${context.extension.packageJSON.version as string} in ${activationMs.toFixed(1)} ms`);
	return {
		runs,
		lastState: () => runs.state,
		conversation: () => runs.conversation,
		changes,
		findingThreads: () => findingThreads.flatMap((threads) => threads()),
		ui: () => ({
			runActive: runs.runActiveContext,
			statusBar: statusBar.text,
			panelOpen: panel.panel !== undefined,
		}),
		activationMs,
		approvals: approvals.api,
	};
}

export function deactivate(): void {}
