import * as vscode from 'vscode';
import { secretPatternProblem } from '../../core/workspace/secretPaths.js';

export const secretPathsKey = 'massgen.secretPaths';

/**
 * `massgen.secretPaths` of every scope, added up (patterns only ever add to the secret list, so a
 * workspace value cannot weaken a user one). Patterns that cannot be honoured are left out, each
 * with a note for the log.
 */
export function readSecretPathsSetting(folder: vscode.Uri | undefined): {
	patterns: string[];
	notes: string[];
} {
	const inspected = vscode.workspace.getConfiguration(undefined, folder).inspect<unknown>(secretPathsKey);
	const values = [inspected?.globalValue, inspected?.workspaceValue, inspected?.workspaceFolderValue];
	const patterns: string[] = [];
	const notes: string[] = [];
	for (const value of values) {
		if (value === undefined) continue;
		if (!Array.isArray(value)) {
			notes.push(vscode.l10n.t('{0} must be a list of glob patterns; this value is ignored', secretPathsKey));
			continue;
		}
		for (const pattern of value) {
			const problem =
				typeof pattern === 'string'
					? secretPatternProblem(pattern)
					: vscode.l10n.t('{0} is not a string', JSON.stringify(pattern));
			if (problem === null) patterns.push(pattern as string);
			else notes.push(vscode.l10n.t('{0}: {1}; this pattern is ignored', secretPathsKey, problem));
		}
	}
	return { patterns: [...new Set(patterns)], notes };
}
