import { join } from 'node:path';
import type * as vscode from 'vscode';
import type { ConfigIssue } from '../core/config/configIssue.js';
import type { AttachmentChip } from '../protocol/attachmentChip.js';
import { ShownQuestions } from './common/shownQuestions.js';
import { ConfigDiagnostics } from './config/configDiagnostics.js';
import { DisposableStore } from './common/lifecycle.js';
import { type Engine, engineLoader, loadEngineBundle } from './run/loadEngine.js';
import { RunController, type RunControllerDeps } from './run/runController.js';
import { RunStatusBar } from './run/runStatusBar.js';
import type { ChangeActions } from './run/runTypes.js';
import { PanelHost } from './panel/panelHost.js';
import type { PlanProgressSource } from './plans/planProgress.js';

/** What a run controller takes from outside: the rest (engine, status bar, diagnostics, presets) is built here. */
export type RunParts = Pick<
	RunControllerDeps,
	'log' | 'keys' | 'secrets' | 'approvals' | 'consent' | 'env' | 'isTrusted'
> & {
	/** The extension's folder: `dist/` holds the engine bundle and the webview, `configs/` the shipped presets. */
	readonly extensionUri: vscode.Uri;
	/** Re-validates a saved team config (default: the engine's schema). */
	readonly validateConfig?: (text: string, file: string) => Promise<readonly ConfigIssue[]>;
};

export interface PanelParts<C extends ChangeActions> {
	/** The workspace state: the run the panel showed last. */
	readonly memento: vscode.Memento;
	/** The change review over these runs (the extension's `ChangeReview`; a test's own may stand in); the caller disposes it. */
	readonly changes: (runs: RunController) => C;
	readonly pickContext?: () => Promise<readonly AttachmentChip[] | undefined>;
	/** Execute Plan's progress, shown with the plan's runs. */
	readonly plans?: PlanProgressSource;
}

/** A run controller and what it is built with; disposing it disposes them, newest first. */
export interface RunSide extends vscode.Disposable {
	readonly engine: () => Promise<Engine>;
	readonly statusBar: RunStatusBar;
	readonly diagnostics: ConfigDiagnostics;
	readonly runs: RunController;
	/** The questions the runs (and the panel) asked as notifications: provider tools, answer links. */
	readonly questions: ShownQuestions;
}

export interface RunPanel<C extends ChangeActions> extends RunSide {
	readonly changes: C;
	readonly panel: PanelHost;
}

/**
 * The composition root of the run side: `activate()` builds the extension's with it (through
 * `composeRunPanel`), and an in-host test builds its own the same way (the extension's objects are
 * not reachable from a test), naming only what it replaces.
 */
export function composeRuns(parts: RunParts): RunSide {
	const { extensionUri, validateConfig, ...deps } = parts;
	const store = new DisposableStore();
	const questions = new ShownQuestions();
	const engine = engineLoader(() => loadEngineBundle(join(extensionUri.fsPath, 'dist')), deps.log);
	const statusBar = store.add(new RunStatusBar());
	const diagnostics = store.add(
		new ConfigDiagnostics(
			validateConfig ?? (async (text, file) => (await engine()).loadConfigText(text, file).issues),
		),
	);
	const runs = store.add(
		new RunController({
			...deps,
			statusBar,
			shippedConfigsDir: join(extensionUri.fsPath, 'configs'),
			engine,
			diagnostics,
			questions,
		}),
	);
	return { engine, statusBar, diagnostics, runs, questions, dispose: () => store.dispose() };
}

/** The run side and its panel (`composeRuns`, then the `PanelHost` over its runs). */
export function composeRunPanel<C extends ChangeActions>(parts: RunParts & PanelParts<C>): RunPanel<C> {
	const { memento, changes: changesOf, pickContext, plans, ...runParts } = parts;
	const side = composeRuns(runParts);
	const changes = changesOf(side.runs);
	const panel = new PanelHost({
		extensionUri: parts.extensionUri,
		log: parts.log,
		runs: side.runs,
		changes,
		memento,
		...(parts.secrets ? { secrets: parts.secrets } : {}),
		...(pickContext ? { pickContext } : {}),
		...(plans ? { plans } : {}),
		questions: side.questions,
	});
	return {
		...side,
		changes,
		panel,
		dispose: () => {
			panel.dispose();
			side.dispose();
		},
	};
}
