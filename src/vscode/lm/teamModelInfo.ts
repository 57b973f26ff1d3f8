import { basename, extname, join } from 'node:path';
import * as vscode from 'vscode';
import type { TeamSnapshot } from '../team/teamSnapshot.js';

/** The models' ids: the team a run in the folder would use now, and the shipped demo team. */
export type TeamModelId = 'team' | 'demo';

/** The family every team is listed under (a caller may select `{ vendor: 'massgen', family }`). */
export const teamFamily = 'massgen-team';

/** What a team's model may take: the run's history budget and a final answer's usual size. */
const maxInputTokens = 128_000;
const maxOutputTokens = 16_000;

/**
 * A team as a model of VS Code's picker, "MassGen: <team> (N agents)": only a team that would run
 * (no config problem, at least one member). Capabilities as they are: no tool calling (the team
 * uses its own tools), no image input (image parts are not passed on).
 */
export function teamModelInfo(
	id: TeamModelId,
	snapshot: TeamSnapshot,
	folderName: string,
): vscode.LanguageModelChatInformation | undefined {
	const members = snapshot.agents.filter((agent) => agent.willRun);
	if (snapshot.problem || members.length === 0) return undefined;
	const team = teamLabel(snapshot, folderName);
	const count = members.length === 1 ? vscode.l10n.t('1 agent') : vscode.l10n.t('{0} agents', members.length);
	return {
		id,
		name: vscode.l10n.t('MassGen: {0} ({1})', team, count),
		family: teamFamily,
		version: '1',
		detail: basename(snapshot.file),
		tooltip: vscode.l10n.t(
			'{0} answer in parallel, read each other’s answers and vote; the winner presents. Proposed file changes wait for your review.',
			members.map((agent) => `${agent.id} (${agent.provider}/${agent.model})`).join(', '),
		),
		maxInputTokens,
		maxOutputTokens,
		capabilities: { toolCalling: false, imageInput: false },
	};
}

/** The team's name: the shipped team's, the folder's for its `.massgen/config.yaml`, else the file's. */
export function teamLabel(snapshot: Pick<TeamSnapshot, 'file' | 'kind'>, folderName: string): string {
	const name = basename(snapshot.file, extname(snapshot.file));
	switch (snapshot.kind) {
		case 'default':
			return vscode.l10n.t('default team');
		case 'preset':
			return vscode.l10n.t('{0} team', name);
		case 'workspace':
		case 'setting':
			return snapshot.file.endsWith(join('.massgen', 'config.yaml'))
				? vscode.l10n.t('{0} team', folderName)
				: name;
	}
}
