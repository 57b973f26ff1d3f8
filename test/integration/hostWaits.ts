// Waiting helpers shared by the in-host suites (bundled into out/integration).
import * as vscode from 'vscode';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { FinishedRun } from '../../src/vscode/run/runTypes';

/** Polls `probe` every 25 ms until it returns a value; fails naming `what` after `timeoutMs`. */
export async function until<T>(
	what: string,
	probe: () => T | undefined | false,
	timeoutMs = 20_000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = probe();
		if (value !== undefined && value !== false) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
}

/** The next run's end. */
export function nextFinish(api: MassGenApi): Promise<FinishedRun> {
	return new Promise((resolve) => {
		const listener = api.runs.onDidFinishRun((run) => {
			listener.dispose();
			resolve(run);
		});
	});
}

/** Points the user-level `massgen.config` setting at a team config (undefined: back to the default). */
export async function useConfig(path: string | undefined): Promise<void> {
	await vscode.workspace.getConfiguration().update('massgen.config', path, vscode.ConfigurationTarget.Global);
}
