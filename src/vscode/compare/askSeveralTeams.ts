import { join, relative } from 'node:path';
import * as vscode from 'vscode';
import { presets } from '../commands/selectTeamConfig.js';
import { defaultFolder } from '../common/runFolders.js';
import type { AskedTeam, TeamComparisons } from './teamComparisons.js';

interface TeamItem extends vscode.QuickPickItem {
	readonly asked?: AskedTeam;
}

/**
 * The teams one can ask: the folder's own team (as Ask Team would choose it), the shipped presets,
 * and the folder's `.massgen/*.yaml` only when the workspace is trusted (an untrusted repository's
 * config is never offered, and the core would not use it: `runTeamConfig`).
 */
export async function teamItems(
	configsDir: string,
	folder: vscode.WorkspaceFolder | undefined,
): Promise<TeamItem[]> {
	const items: TeamItem[] = [
		{
			label: vscode.l10n.t('Workspace team'),
			description: vscode.l10n.t('massgen.config, .massgen/config.yaml or the default team'),
			asked: { label: vscode.l10n.t('workspace team') },
		},
		{ label: vscode.l10n.t('Shipped presets'), kind: vscode.QuickPickItemKind.Separator },
		...(await presets(configsDir)).map(({ name, summary }) => ({
			label: name,
			description: summary,
			asked: { label: name, team: { file: join(configsDir, `${name}.yaml`) } },
		})),
	];
	if (folder && vscode.workspace.isTrusted) {
		const files = await vscode.workspace.findFiles(
			new vscode.RelativePattern(folder, '.massgen/*.{yaml,yml}'),
			null,
			50,
		);
		if (files.length) {
			items.push({ label: vscode.l10n.t('Workspace'), kind: vscode.QuickPickItemKind.Separator });
		}
		for (const file of files.sort((a, b) => a.fsPath.localeCompare(b.fsPath))) {
			const rel = relative(folder.uri.fsPath, file.fsPath).replace(/\\/g, '/');
			items.push({ label: rel, asked: { label: rel, team: { file: file.fsPath } } });
		}
	}
	return items;
}

/**
 * "MassGen: Ask Several Teams…": the question, then two or more teams; every team runs it at once
 * (within `massgen.runs.maxConcurrent`), and the comparison opens when all have ended.
 */
export async function askSeveralTeams(
	comparisons: TeamComparisons,
	configsDir: string,
): Promise<string | undefined> {
	const title = vscode.l10n.t('MassGen: Ask Several Teams');
	const question = (
		await vscode.window.showInputBox({ title, prompt: vscode.l10n.t('The question every team answers') })
	)?.trim();
	if (!question) return undefined;
	const picked = await vscode.window.showQuickPick(await teamItems(configsDir, defaultFolder()), {
		title,
		placeHolder: vscode.l10n.t('Pick two or more teams'),
		canPickMany: true,
		matchOnDescription: true,
	});
	const teams = (picked ?? []).flatMap((item) => (item.asked ? [item.asked] : []));
	if (picked && teams.length < 2) {
		void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: pick at least two teams to compare.'));
	}
	if (teams.length < 2) return undefined;
	return vscode.window.withProgress(
		{
			location: vscode.ProgressLocation.Notification,
			title: vscode.l10n.t('MassGen: asking {0} teams…', teams.length),
			cancellable: true,
		},
		(_progress, token) => comparisons.ask(question, teams, token),
	);
}
