import * as vscode from 'vscode';
import type { TeamSuggestion } from '../../core/stats/suggestTeam.js';
import { usd } from '../../core/stats/suggestTeam.js';
import type { BackendType } from '../../core/config/backendSchema.js';
import type { TeamMember } from './teamMember.js';

/**
 * A suggested model row as a member: its key is `model:<provider>/<model>` (`leaderboard`), the
 * provider a backend type (`SdkModel.provider`); a model name may hold more slashes.
 */
export function suggestedMembers(suggestion: TeamSuggestion): TeamMember[] {
	return suggestion.members.map((row) => {
		const name = row.key.replace(/^model:/, '');
		const slash = name.indexOf('/');
		return { type: name.slice(0, slash) as BackendType, model: name.slice(slash + 1) };
	});
}

/** The line that sums a suggestion up: its members, cost per run and the acceptance they meet. */
export function suggestionSummary(suggestion: TeamSuggestion): string {
	return vscode.l10n.t(
		'{0}: {1} per run; each member’s changes were accepted at least {2}% of the time',
		suggestion.members.map((row) => row.label).join(', '),
		usd(suggestion.costPerRunUsd),
		Math.round(suggestion.targetAcceptanceRate * 100),
	);
}

/** The evidence under a separator: a row per member with its line (Enter does not take these). */
export function evidenceItems(suggestion: TeamSuggestion): vscode.QuickPickItem[] {
	return [
		{ label: vscode.l10n.t('Why these members'), kind: vscode.QuickPickItemKind.Separator },
		...suggestion.members.map((row, index) => ({
			label: `$(graph) ${row.label}`,
			description: row.costPerRunUsd === null ? '' : vscode.l10n.t('{0}/run', usd(row.costPerRunUsd)),
			detail: suggestion.evidence[index] ?? '',
		})),
	];
}
