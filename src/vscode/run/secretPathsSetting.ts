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
			notes.push(`${secretPathsKey} must be a list of glob patterns; this value is ignored`);
			continue;
		}
		for (const pattern of value) {
			const problem =
				typeof pattern === 'string'
					? secretPatternProblem(pattern)
					: `${JSON.stringify(pattern)} is not a string`;
			if (problem === null) patterns.push(pattern as string);
			else notes.push(`${secretPathsKey}: ${problem}; this pattern is ignored`);
		}
	}
	return { patterns: [...new Set(patterns)], notes };
}
