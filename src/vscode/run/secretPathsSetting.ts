import * as vscode from 'vscode';
import { secretPatternProblem } from '../../core/workspace/secretPaths.js';
import { levelValues, union } from '../common/settingPolicies.js';
import { settingLevels, settings } from '../common/settings.js';

const secretPathsKey = settings.secretPaths.key;

/**
 * `massgen.secretPaths` of every scope, added up (patterns only ever add to the secret list, so a
 * workspace value cannot weaken a user one). Patterns that cannot be honoured are left out, each
 * with a note for the log.
 */
export function readSecretPathsSetting(folder: vscode.Uri | undefined): {
	patterns: string[];
	notes: string[];
} {
	const notes: string[] = [];
	const patterns = union(levelValues(settingLevels(secretPathsKey, folder)), {
		notAList: () =>
			notes.push(vscode.l10n.t('{0} must be a list of glob patterns; this value is ignored', secretPathsKey)),
		accept: (pattern) => {
			const problem =
				typeof pattern === 'string'
					? secretPatternProblem(pattern)
					: vscode.l10n.t('{0} is not a string', JSON.stringify(pattern));
			if (problem === null) return pattern as string;
			notes.push(vscode.l10n.t('{0}: {1}; this pattern is ignored', secretPathsKey, problem));
			return undefined;
		},
	});
	return { patterns: [...new Set(patterns.map(({ item }) => item))], notes };
}
