import * as vscode from 'vscode';
import type { Engine } from '../run/loadEngine.js';
import { teamFolder } from './teamFolder.js';
import { askPick, back, type StepHook } from './quickSteps.js';
import type { TeamStats } from './teamStats.js';
import { userTeamFile, writeTeam } from './teamBuilder.js';
import { evidenceItems, suggestedMembers, suggestionSummary } from './suggestionItems.js';

export interface SuggestDeps {
	readonly engine: () => Promise<Engine>;
	readonly stats: TeamStats;
	/** How many agents the team the view shows has: the suggestion keeps its size. */
	readonly teamSize: () => Promise<number>;
	readonly onStep?: StepHook;
}

type Place = vscode.QuickPickItem & { readonly user: boolean };

/**
 * "MassGen: Suggest a Team": the cheapest team the user's own runs in this folder support (core
 * `suggestTeam`, the size of the team the view shows), with its evidence, in one quick pick. Only
 * picking where to keep it writes: through Build Team's writer (validated, never over a file
 * without asking). `size` (a command argument) asks for another size.
 */
export async function suggestTeamCommand(deps: SuggestDeps, size?: unknown): Promise<string | undefined> {
	const folder = teamFolder();
	if (!folder) {
		void vscode.window.showInformationMessage(
			vscode.l10n.t('MassGen: open a folder: the suggestion comes from the runs made in it.'),
		);
		return undefined;
	}
	const wanted =
		typeof size === 'number' && Number.isInteger(size) && size > 0 ? size : await deps.teamSize();
	const suggestion = await deps.stats.suggest(await deps.stats.board(folder.uri.fsPath), wanted);
	if ('none' in suggestion) {
		void vscode.window.showInformationMessage(
			vscode.l10n.t('MassGen: no team to suggest yet. {0}', suggestion.none),
		);
		return undefined;
	}
	const places: Place[] = [
		{
			label: vscode.l10n.t('$(save) Save in This Workspace'),
			description: '.massgen/config.yaml',
			user: false,
		},
		{
			label: vscode.l10n.t('$(account) Save for Me, in Every Workspace'),
			description: userTeamFile(),
			user: true,
		},
	];
	const picked = await askPick(
		{
			name: 'suggestion',
			title: vscode.l10n.t('MassGen: Suggest a Team'),
			step: 1,
			totalSteps: 1,
			...(deps.onStep ? { onStep: deps.onStep } : {}),
		},
		[...places, ...evidenceItems(suggestion)] as Place[],
		{ placeholder: suggestionSummary(suggestion), takes: (item) => places.includes(item) },
	);
	if (!picked || picked === back) return undefined;
	const user = picked[0]?.user ?? false;
	return writeTeam(
		await deps.engine(),
		{ members: suggestedMembers(suggestion), roles: [], options: {}, user },
		folder,
	);
}
