// A run controller and panel host of a test's own, on the real engine bundle (the extension's are
// not reachable from a test), with what the host posts to the webview recorded on the way.
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { HostMessage } from '../../src/protocol/messages';
import { ConfigDiagnostics } from '../../src/vscode/config/configDiagnostics';
import { engineLoader, loadEngineBundle } from '../../src/vscode/run/loadEngine';
import { RunController } from '../../src/vscode/run/runController';
import { RunStatusBar } from '../../src/vscode/run/runStatusBar';
import { KeyStore } from '../../src/vscode/secrets';
import { PanelHost } from '../../src/vscode/view';
import { until } from './hostWaits';

export interface OwnPanel {
	readonly runs: RunController;
	readonly panel: PanelHost;
	/** Every message the host posted to the webview, oldest first. */
	readonly posted: HostMessage[];
	dispose(): void;
}

/** Opens the panel and waits for its first snapshot. `name`: the log channel's. */
export async function openOwnPanel(extension: vscode.Extension<unknown>, name: string): Promise<OwnPanel> {
	const disposables: vscode.Disposable[] = [];
	const log = vscode.window.createOutputChannel(name, { log: true });
	const diagnostics = new ConfigDiagnostics(async () => []);
	const statusBar = new RunStatusBar();
	disposables.push(log, diagnostics, statusBar);
	const runs = new RunController({
		log,
		keys: new KeyStore({ get: async () => undefined, store: async () => {}, delete: async () => {} }),
		diagnostics,
		statusBar,
		shippedConfigsDir: join(extension.extensionPath, 'configs'),
		engine: engineLoader(() => loadEngineBundle(join(extension.extensionPath, 'dist')), log),
	});
	const noChanges = new vscode.EventEmitter<null>();
	disposables.push(runs, noChanges);
	const panel = new PanelHost({
		extensionUri: extension.extensionUri,
		log,
		runs,
		changes: {
			openDiff: async () => {},
			accept: async () => {},
			reject: async () => {},
			selectHunks: () => {},
			changeSet: () => null,
			onDidChangeChangeSet: noChanges.event,
		},
		memento: { get: () => undefined, update: async () => {}, keys: () => [] } as unknown as vscode.Memento,
	});
	disposables.push(panel);
	const posted: HostMessage[] = [];
	panel.show({ preserveFocus: false });
	const webview = panel.panel!.webview;
	const post = webview.postMessage.bind(webview);
	(webview as { postMessage: (message: unknown) => Thenable<boolean> }).postMessage = (message) => {
		posted.push(message as HostMessage);
		return post(message);
	};
	await panel.receive({ type: 'ready' });
	await until('the snapshot', () => posted.some((m) => m.type === 'snapshot'));
	return {
		runs,
		panel,
		posted,
		dispose: () => {
			for (const d of disposables.reverse()) d.dispose();
		},
	};
}
