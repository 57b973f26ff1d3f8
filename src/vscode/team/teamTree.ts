import { basename } from 'node:path';
import * as vscode from 'vscode';
import { commandIds } from '../common/commandIds.js';
import type { TeamAgentRow, TeamSnapshot } from './teamSnapshot.js';
import { statsLook, type StatsNode } from './statsTree.js';
import { statsWords } from './statsWords.js';

export type TeamNode =
	| { readonly kind: 'source'; readonly snapshot: TeamSnapshot }
	| { readonly kind: 'agent'; readonly row: TeamAgentRow; readonly snapshot: TeamSnapshot }
	| { readonly kind: 'problem'; readonly message: string }
	| { readonly kind: 'note'; readonly text: string }
	| { readonly kind: 'demo' }
	| StatsNode;

const kindLabels = (): Record<TeamSnapshot['kind'], string> => ({
	workspace: vscode.l10n.t('workspace team'),
	setting: vscode.l10n.t('from the massgen.config setting'),
	preset: vscode.l10n.t('shipped preset'),
	default: vscode.l10n.t('default team: only what is available'),
});

/** The rows of the Team view, in order: where the team comes from, its agents, what stops a run. */
export function teamNodes(snapshot: TeamSnapshot | undefined, message?: string): TeamNode[] {
	if (!snapshot) return message ? [{ kind: 'problem', message }] : [];
	const nodes: TeamNode[] = [{ kind: 'source', snapshot }];
	nodes.push(...snapshot.agents.map((row) => ({ kind: 'agent' as const, row, snapshot })));
	nodes.push(...snapshot.notes.map((text) => ({ kind: 'note' as const, text })));
	if (snapshot.problem) nodes.push({ kind: 'problem', message: snapshot.problem.message });
	if (!snapshot.agents.some((row) => row.available)) nodes.push({ kind: 'demo' });
	return nodes;
}

/** The tree item of a node; `contextValue` words drive the inline actions (package.json menus). */
export function teamItem(node: TeamNode): vscode.TreeItem {
	switch (node.kind) {
		case 'source': {
			const item = new vscode.TreeItem(basename(node.snapshot.file));
			item.description = kindLabels()[node.snapshot.kind];
			item.tooltip = node.snapshot.file;
			item.iconPath = new vscode.ThemeIcon('organization');
			item.resourceUri = vscode.Uri.file(node.snapshot.file);
			item.contextValue = 'source';
			item.command = { command: commandIds.teamOpenConfig, title: vscode.l10n.t('Open Team Config') };
			return item;
		}
		case 'agent':
			return agentItem(node.row, node.snapshot);
		case 'problem': {
			const item = new vscode.TreeItem(node.message);
			item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
			item.tooltip = node.message;
			item.contextValue = 'problem';
			return item;
		}
		case 'note': {
			const item = new vscode.TreeItem(node.text);
			item.iconPath = new vscode.ThemeIcon('info');
			item.tooltip = node.text;
			item.contextValue = 'note';
			return item;
		}
		case 'stats':
		case 'stats-model':
		case 'stats-skipped':
			return statsItem(node);
		case 'demo': {
			const item = new vscode.TreeItem(vscode.l10n.t('Run demo team'));
			item.description = vscode.l10n.t('scripted agents: no key, no network');
			item.iconPath = new vscode.ThemeIcon('play');
			item.contextValue = 'demo';
			item.command = { command: commandIds.teamRunDemo, title: vscode.l10n.t('Run Demo Team') };
			return item;
		}
	}
}

function agentItem(row: TeamAgentRow, snapshot: TeamSnapshot): vscode.TreeItem {
	const item = new vscode.TreeItem(row.id);
	const leftOut = row.available && !row.willRun ? vscode.l10n.t(' (not run)') : '';
	// The reason first (what a user looks for: why it runs or not), then provider and model.
	item.description = `${row.reason}${leftOut} · ${row.provider}/${row.model}`;
	// Plain text: a role is the user's text, not Markdown to render.
	item.tooltip = [
		`${row.id} — ${row.provider} / ${row.model}`,
		row.available
			? vscode.l10n.t('Available: {0}', row.reason)
			: vscode.l10n.t('Not available: {0}', row.reason),
		row.role ? vscode.l10n.t('Role: {0}', row.role) : vscode.l10n.t('No role (system message)'),
	].join('\n');
	item.iconPath = row.available
		? new vscode.ThemeIcon(
				row.willRun ? 'pass-filled' : 'circle-outline',
				new vscode.ThemeColor('testing.iconPassed'),
			)
		: new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
	const words = ['agent'];
	if (snapshot.editable && !row.added) words.push('editable');
	if (row.kind === 'key-missing') words.push('needsKey');
	item.contextValue = words.join(' ');
	return item;
}

function statsItem(node: StatsNode): vscode.TreeItem {
	const look = statsLook(node, statsWords());
	const item = new vscode.TreeItem(
		look.label,
		look.expandable ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
	);
	item.description = look.description;
	// Plain text: a model's name comes from a run's record, not Markdown to render.
	item.tooltip = look.tooltip;
	item.iconPath = new vscode.ThemeIcon(look.icon);
	item.contextValue = node.kind;
	if (node.kind === 'stats') {
		item.command = { command: commandIds.showTeamStats, title: vscode.l10n.t('Show Team Stats') };
	}
	return item;
}
