import * as vscode from 'vscode';
import { viewTypes } from '../common/commandIds.js';

/**
 * Where the run webview is shown: the side bar's `WebviewView` or an editor tab's `WebviewPanel`.
 * `SurfaceHost` renders into either through this, so both get the same page, messages and gate.
 */
export interface WebviewSurface {
	readonly kind: 'view' | 'editor';
	readonly webview: vscode.Webview;
	readonly visible: boolean;
	/** Visible and holding the keyboard focus. */
	readonly focused: boolean;
	/** Shows it (`preserveFocus`: the keyboard stays where it is). */
	reveal(preserveFocus: boolean): void;
	/** The editor tab's title (`MassGen (1 waiting)`); a view shows the count as its badge instead. */
	setWaiting(title: string, count: number): void;
	/** What the webview said about its focus (a view has no `active` of its own). */
	reportFocus(focused: boolean): void;
	/** Shown or hidden (a hidden webview's page is gone until it shows again: it loads anew). */
	readonly onDidChangeVisibility: vscode.Event<unknown>;
	readonly onDidDispose: vscode.Event<void>;
	dispose(): void;
}

/** The side bar view: focused when visible and its webview said it has the focus. */
export function viewSurface(view: vscode.WebviewView): WebviewSurface {
	let focused = false;
	view.onDidChangeVisibility(() => {
		if (!view.visible) focused = false;
	});
	return {
		kind: 'view',
		webview: view.webview,
		get visible() {
			return view.visible;
		},
		get focused() {
			return view.visible && focused;
		},
		reveal: (preserveFocus) => view.show(preserveFocus),
		setWaiting: (_title, count) => {
			const tooltip =
				count === 1
					? vscode.l10n.t('1 tool call waits for your approval')
					: vscode.l10n.t('{0} tool calls wait for your approval', count);
			// Not `undefined`: the workbench keeps a webview view's badge on the activity bar when it is
			// cleared that way (microsoft/vscode#331019); a count of 0 is drawn as no badge.
			view.badge = { value: count, tooltip: count > 0 ? tooltip : '' };
		},
		reportFocus: (value) => {
			focused = value;
		},
		onDidChangeVisibility: view.onDidChangeVisibility,
		onDidDispose: view.onDidDispose,
		// A view is the workbench's to dispose (the user hides it): nothing to do here.
		dispose: () => {},
	};
}

/** The editor tab ("Open in Editor", or restored after a reload). */
export function editorSurface(panel: vscode.WebviewPanel): WebviewSurface {
	return {
		kind: 'editor',
		webview: panel.webview,
		get visible() {
			return panel.visible;
		},
		get focused() {
			return panel.visible && panel.active && panelTabActive();
		},
		reveal: (preserveFocus) => panel.reveal(undefined, preserveFocus),
		setWaiting: (title) => {
			if (panel.title !== title) panel.title = title;
		},
		reportFocus: () => {},
		onDidChangeVisibility: panel.onDidChangeViewState,
		onDidDispose: panel.onDidDispose,
		dispose: () => panel.dispose(),
	};
}

/**
 * The panel's tab is the active tab of the active group. `WebviewPanel.active` alone is not
 * enough: a new panel starts out active until VS Code reports its view state, even when it
 * opened beside the editor without the focus (seen under load in the in-host tests).
 */
function panelTabActive(): boolean {
	const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
	return tab?.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(viewTypes.panel);
}
