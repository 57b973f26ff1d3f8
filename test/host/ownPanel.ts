// A run controller and panel host of a test's own, built by the extension's composition root on the
// real engine bundle (the extension's are not reachable from a test), with what the host posts to
// the webview recorded on the way.
import * as vscode from 'vscode';
import type { HostMessage } from '../../src/protocol/messages';
import type { ShownQuestions } from '../../src/vscode/common/shownQuestions';
import { composeRunPanel } from '../../src/vscode/composeRunPanel';
import type { RunController } from '../../src/vscode/run/runController';
import type { ChangeSetChange } from '../../src/vscode/run/runTypes';
import { KeyStore } from '../../src/vscode/common/secrets';
import type { PanelHost } from '../../src/vscode/panel/panelHost';
import type { SurfaceHost } from '../../src/vscode/panel/surfaceHost';
import { until } from './hostWaits';

export interface OwnPanel {
	readonly runs: RunController;
	/** The graph's panel: its view is never resolved (the extension's own view holds the id). */
	readonly host: PanelHost;
	/** The editor tab's host (Open in Editor): the same host class the side bar view renders with. */
	readonly panel: SurfaceHost;
	/** The questions this graph asked as notifications (provider tools, answer links). */
	readonly questions: ShownQuestions;
	/** Every message the host posted to the webview, oldest first. */
	readonly posted: HostMessage[];
	dispose(): void;
}

/**
 * Opens the panel in an editor tab (Open in Editor: a view id is the extension's own, so a second
 * graph cannot have the side bar view) and waits for its first snapshot. `name`: the log channel's;
 * `env`: the environment the runs read keys from (default: the extension host's); `keys`: the
 * stored keys (default: none).
 */
export async function openOwnPanel(
	extension: vscode.Extension<unknown>,
	name: string,
	options: { readonly env?: NodeJS.ProcessEnv; readonly keys?: KeyStore } = {},
): Promise<OwnPanel> {
	const log = vscode.window.createOutputChannel(name, { log: true });
	const noChanges = new vscode.EventEmitter<ChangeSetChange>();
	const graph = composeRunPanel({
		...(options.env ? { env: options.env } : {}),
		extensionUri: extension.extensionUri,
		log,
		keys:
			options.keys ??
			new KeyStore({ get: async () => undefined, store: async () => {}, delete: async () => {} }),
		memento: { get: () => undefined, update: async () => {}, keys: () => [] } as unknown as vscode.Memento,
		validateConfig: async () => [],
		changes: () => ({
			openDiff: async () => {},
			accept: async () => {},
			reject: async () => {},
			selectHunks: () => {},
			changeSet: () => null,
			pendingRunIds: () => [],
			proposalFiles: () => [],
			onDidChangeChangeSet: noChanges.event,
		}),
	});
	const { runs, panel: host, questions } = graph;
	const posted: HostMessage[] = [];
	await host.openInEditor();
	const panel = host.editor!;
	const webview = panel.surface!.webview;
	const post = webview.postMessage.bind(webview);
	(webview as { postMessage: (message: unknown) => Thenable<boolean> }).postMessage = (message) => {
		posted.push(message as HostMessage);
		return post(message);
	};
	await panel.receive({ type: 'ready' });
	await until('the snapshot', () => posted.some((m) => m.type === 'snapshot'));
	return {
		runs,
		host,
		panel,
		questions,
		posted,
		dispose: () => {
			graph.dispose();
			noChanges.dispose();
			log.dispose();
		},
	};
}
