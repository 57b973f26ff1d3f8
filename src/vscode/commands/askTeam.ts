import * as vscode from 'vscode';
import type { RunController } from '../run/runController.js';
import type { FinishedRun } from '../run/runTypes.js';

/** The question passed to "MassGen: Ask Team": a string, or `{ question }` (e.g. from a keybinding's args). */
export function questionArgument(arg: unknown): string | undefined {
	const value =
		typeof arg === 'string'
			? arg
			: typeof arg === 'object' && arg !== null
				? (arg as { question?: unknown }).question
				: undefined;
	return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/**
 * "MassGen: Ask Team": asks for the question unless it is given, and starts a new conversation (the
 * panel shows the run without taking focus). Resolves when the run ends.
 */
export async function askTeam(
	deps: { runs: RunController },
	arg?: unknown,
): Promise<FinishedRun | undefined> {
	const question =
		questionArgument(arg) ??
		(
			await vscode.window.showInputBox({
				title: 'MassGen: Ask Team',
				prompt: 'The team works on the open workspace (read-only); proposed edits wait for your review.',
				placeHolder: 'Ask the team a question…',
				ignoreFocusOut: true,
				validateInput: (value) => (value.trim() ? undefined : 'Type a question for the team.'),
			})
		)?.trim();
	if (!question) return undefined;
	// The panel opens itself (without focus) when the run starts.
	return deps.runs.start({ question, kind: 'ask' });
}
