import { basename } from 'node:path';
import * as vscode from 'vscode';
import { viewTypes } from '../common/commandIds.js';
import { changeScheme, changeUri, parseChangeUri, type ParsedChangeUri } from './changeUri.js';
import type { PendingChangeSet } from './pendingChangeSet.js';

/** The change-set file shown by a tab (a diff of our scheme), if any. */
export function changeOfTab(tab: vscode.Tab | undefined): ParsedChangeUri | undefined {
	const input = tab?.input;
	if (input instanceof vscode.TabInputTextDiff) {
		return parseChangeUri(input.modified) ?? parseChangeUri(input.original);
	}
	if (input instanceof vscode.TabInputText) return parseChangeUri(input.uri);
	return undefined;
}

export function activeChange(): ParsedChangeUri | undefined {
	return changeOfTab(vscode.window.tabGroups.activeTabGroup.activeTab);
}

/**
 * Whether a preview tab opened in `column` replaces only one of ours: a file the user opened in
 * preview (one click in the Explorer) must stay, so the diff then opens pinned beside it.
 */
function previewIsOurs(column: vscode.ViewColumn): boolean {
	const group = vscode.window.tabGroups.all.find((candidate) => candidate.viewColumn === column);
	const preview = group?.tabs.find((tab) => tab.isPreview);
	return !preview || changeOfTab(preview) !== undefined;
}

/** A column for a diff that leaves the MassGen panel visible: the active group, unless that is the panel's. */
export function diffColumn(): vscode.ViewColumn {
	const groups = vscode.window.tabGroups;
	const isPanel = (tab: vscode.Tab) =>
		tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(viewTypes.panel);
	const panelGroup = groups.all.find((group) => group.activeTab !== undefined && isPanel(group.activeTab));
	if (!panelGroup || groups.activeTabGroup !== panelGroup) return groups.activeTabGroup.viewColumn;
	return groups.all.find((group) => group !== panelGroup)?.viewColumn ?? vscode.ViewColumn.Beside;
}

/** What a diff shows, with the run it belongs to (several runs' changes can wait at once). */
function versionTitle(pending: PendingChangeSet, version: string): string {
	const winner = pending.set.winner?.agentId ?? 'MassGen';
	const name = pending.name;
	if (version === 'proposed') return vscode.l10n.t('MassGen {0}: {1}', name, winner);
	if (version === 'final') return vscode.l10n.t('MassGen {0}: {1} (all hunks)', name, winner);
	// An answer by its agent's name: its label (`agent2.1`) is the protocol's, not the user's.
	const answer = pending.answers.find((candidate) => candidate.label === version);
	return answer
		? vscode.l10n.t('MassGen {0}: {1}’s version', name, answer.agentId)
		: vscode.l10n.t('MassGen {0}: {1}', name, version);
}

/**
 * Opens base ↔ `version` of one file as a read-only diff; never takes the keyboard unless asked.
 * A new file opens as its proposed text alone: VS Code diffs an empty document as one deleted
 * empty line (`DefaultLinesDiffComputer`), a line the file never had.
 */
export async function openChangeDiff(
	pending: PendingChangeSet,
	path: string,
	version: string,
	options: { preserveFocus: boolean; preview: boolean; viewColumn?: vscode.ViewColumn },
): Promise<void> {
	const file = pending.anyFile(path);
	const viewColumn = options.viewColumn ?? diffColumn();
	const show = {
		preserveFocus: options.preserveFocus,
		preview: options.preview && previewIsOurs(viewColumn),
		viewColumn,
	};
	if (file?.kind === 'add' && version !== 'base') {
		await vscode.window.showTextDocument(changeUri(pending.runId, version, path), show);
		return;
	}
	const kind = file?.kind === 'delete' ? vscode.l10n.t('deleted, ') : '';
	const title = `${basename(path)} (${kind}${versionTitle(pending, version)})`;
	await vscode.commands.executeCommand(
		'vscode.diff',
		changeUri(pending.runId, 'base', path),
		changeUri(pending.runId, version, path),
		title,
		show,
	);
}

/** Titles of the multi-file views opened per run (their tab input type is not in the stable API). */
const multiDiffTitles = new Map<string, Set<string>>();

/** Whether a tab is one of our multi-file views of `runId`. */
export function isChangesEditorTab(tab: vscode.Tab | undefined, runId: string): boolean {
	if (!tab) return false;
	const input = tab.input;
	// A multi-file diff tab's input class is proposed API: match the title we gave it.
	const multi = input === undefined || (typeof input === 'object' && input !== null && 'textDiffs' in input);
	// The workbench appends the file count to the title: "<title> (3 files)".
	const titles = [...(multiDiffTitles.get(runId) ?? [])];
	return multi && titles.some((title) => tab.label === title || tab.label.startsWith(`${title} (`));
}

/** The run of the active multi-file view, when its title names one run only. */
export function activeChangesEditorRun(): string | undefined {
	const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
	const runs = [...multiDiffTitles.keys()].filter((runId) => isChangesEditorTab(tab, runId));
	return runs.length === 1 ? runs[0] : undefined;
}

/** The run of the active change diff or multi-file view (a command without a run in its argument is for it). */
export function activeChangeRun(): string | undefined {
	return activeChange()?.runId ?? activeChangesEditorRun();
}

/**
 * Every pending file in one multi-file diff editor (`vscode.changes`). Base and proposed have one
 * path (`changeUri`), so no file is marked renamed, and its header shows the workspace path.
 */
export async function openChangesEditor(pending: PendingChangeSet): Promise<void> {
	const files = pending.files();
	const winner = pending.set.winner?.agentId ?? vscode.l10n.t('the team');
	const title =
		files.length === 1
			? vscode.l10n.t('MassGen {0}: 1 file changed by {1}', pending.name, winner)
			: vscode.l10n.t('MassGen {0}: {1} files changed by {2}', pending.name, files.length, winner);
	const titles = multiDiffTitles.get(pending.runId) ?? new Set<string>();
	multiDiffTitles.set(pending.runId, titles.add(title));
	await vscode.commands.executeCommand(
		'vscode.changes',
		title,
		files.map((file) => [
			pending.uri(file.path),
			// A new file has no left side (the editor marks it added), not an empty document of one line.
			file.kind === 'add' ? undefined : changeUri(pending.runId, 'base', file.path),
			changeUri(pending.runId, 'proposed', file.path),
		]),
	);
}

/** Closes our diff tabs of a run (all files, or only `paths`) and multi-file views once nothing is left. */
export async function closeChangeTabs(runId: string, paths?: ReadonlySet<string>): Promise<void> {
	const ours = (uri: vscode.Uri | undefined) => {
		const parsed = uri && uri.scheme === changeScheme ? parseChangeUri(uri) : undefined;
		return parsed !== undefined && parsed.runId === runId && (!paths || paths.has(parsed.path));
	};
	const tabs = vscode.window.tabGroups.all
		.flatMap((group) => group.tabs)
		.filter((tab) => {
			const input = tab.input;
			if (input instanceof vscode.TabInputTextDiff) return ours(input.modified) || ours(input.original);
			if (input instanceof vscode.TabInputText) return ours(input.uri);
			return !paths && isChangesEditorTab(tab, runId);
		});
	if (!paths) multiDiffTitles.delete(runId);
	if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
}

/** Opens the next (or previous) pending file's diff of a set after the active one, wrapping around. */
export async function stepChangeDiff(pending: PendingChangeSet, by: 1 | -1): Promise<void> {
	const files = pending.files();
	const current = activeChange();
	const at = current?.runId === pending.runId ? files.findIndex((file) => file.path === current.path) : -1;
	const next = files[(at + by + files.length) % files.length]!;
	await openChangeDiff(pending, next.path, 'proposed', { preserveFocus: false, preview: true });
}

/**
 * Resolves one file of a set (`resolve`: its accept or reject); when its diff was the active editor
 * and the set is still the run's pending one (`current`), the next pending file's diff takes its place.
 */
export async function resolveThenNext(
	pending: PendingChangeSet,
	path: string,
	resolve: () => Promise<void>,
	current: () => boolean,
): Promise<void> {
	const active = activeChange();
	const wasActive = active?.runId === pending.runId && active.path === path;
	const at = pending.files().findIndex((file) => file.path === path);
	await resolve();
	if (!wasActive || !current() || pending.file(path)) return;
	const rest = pending.files();
	const next = rest[Math.min(at, rest.length - 1)];
	if (next) await openChangeDiff(pending, next.path, 'proposed', { preserveFocus: false, preview: true });
}
