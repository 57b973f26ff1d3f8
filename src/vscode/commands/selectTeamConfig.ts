import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import * as vscode from 'vscode';
import { presetPrefix } from '../config/teamConfigSetting.js';
import { defaultFolder } from '../common/runFolders.js';
import { readConfigSetting, writeConfigSetting } from '../common/settings.js';

interface ConfigItem extends vscode.QuickPickItem {
	/** The setting value; '' = automatic; undefined = browse. */
	readonly value?: string;
}

/** Shipped presets, except the price table and schema. */
export async function presets(configsDir: string): Promise<{ name: string; summary: string }[]> {
	const names = (await readdir(configsDir)).filter((n) => /\.ya?ml$/.test(n) && n !== 'prices.yaml').sort();
	return Promise.all(
		names.map(async (name) => ({
			name: name.replace(/\.ya?ml$/, ''),
			summary: summaryOf(await readFile(join(configsDir, name), 'utf8')),
		})),
	);
}

/** The first comment line that is not the schema modeline. */
export function summaryOf(yaml: string): string {
	for (const line of yaml.split('\n')) {
		const comment = line.match(/^#\s*(.*)$/);
		if (!comment) break;
		const text = comment[1]!.trim();
		if (text && !text.startsWith('yaml-language-server')) return text;
	}
	return '';
}

/**
 * "MassGen: Select Team Config": shipped presets, the workspace's `.massgen/*.yaml`, a file picked
 * from disk, or automatic (empty setting). Writes `massgen.config`; resolves to the value written
 * (undefined: nothing was chosen).
 */
export async function selectTeamConfig(configsDir: string): Promise<string | undefined> {
	const folder = defaultFolder();
	const current = readConfigSetting(folder?.uri);
	const mark = (value: string) => (value === current ? '$(check) ' : '');
	const items: ConfigItem[] = [
		{
			label: vscode.l10n.t('{0}Automatic', mark('')),
			description: vscode.l10n.t('.massgen/config.yaml in the workspace, else the default team'),
			value: '',
		},
		{ label: vscode.l10n.t('Shipped presets'), kind: vscode.QuickPickItemKind.Separator },
		...(await presets(configsDir)).map(({ name, summary }) => ({
			label: `${mark(`${presetPrefix}${name}`)}${name}`,
			description: summary,
			value: `${presetPrefix}${name}`,
		})),
	];
	if (folder) {
		const files = await vscode.workspace.findFiles(
			new vscode.RelativePattern(folder, '.massgen/*.{yaml,yml}'),
			null,
			50,
		);
		if (files.length) {
			const untrusted = vscode.workspace.isTrusted
				? ''
				: vscode.l10n.t(' (not used: the workspace is not trusted)');
			items.push({ label: vscode.l10n.t('Workspace'), kind: vscode.QuickPickItemKind.Separator });
			for (const file of files.sort((a, b) => a.fsPath.localeCompare(b.fsPath))) {
				const rel = relative(folder.uri.fsPath, file.fsPath).replace(/\\/g, '/');
				items.push({ label: `${mark(rel)}${rel}`, description: untrusted || undefined, value: rel });
			}
		}
	}
	items.push(
		{ label: '', kind: vscode.QuickPickItemKind.Separator },
		{ label: vscode.l10n.t('$(folder-opened) Browse…') },
	);
	const picked = await vscode.window.showQuickPick(items, {
		title: vscode.l10n.t('MassGen: Select Team Config'),
		placeHolder: current ? vscode.l10n.t('Current: {0}', current) : vscode.l10n.t('Current: automatic'),
		matchOnDescription: true,
	});
	if (!picked) return;
	let value = picked.value;
	if (value === undefined) {
		const chosen = await vscode.window.showOpenDialog({
			title: vscode.l10n.t('MassGen: team config'),
			canSelectMany: false,
			defaultUri: folder?.uri,
			filters: { 'MassGen team config': ['yaml', 'yml'] },
		});
		if (!chosen?.[0]) return;
		const path = chosen[0].fsPath;
		const rel = folder ? relative(folder.uri.fsPath, path) : path;
		value = folder && !rel.startsWith('..') ? rel.replace(/\\/g, '/') : path;
	}
	await writeConfigSetting(value);
	void vscode.window.showInformationMessage(
		vscode.l10n.t('MassGen: team config set to {0}.', value || vscode.l10n.t('automatic')),
	);
	return value;
}
