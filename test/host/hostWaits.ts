// Waiting helpers shared by the in-host suites (bundled into out/host).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RunEvent } from '../../src/core/events/runEvents';
import { commandIds } from '../../src/vscode/commandIds';
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

/** Asks the team through the palette command; the finished run and its `run_command` tool result, if any. */
export async function runTeam(
	api: MassGenApi,
	question: string,
): Promise<{ run: FinishedRun; result: RunEvent | undefined }> {
	const finished = nextFinish(api);
	await vscode.commands.executeCommand(commandIds.askTeam, question);
	const run = await finished;
	const events = readFileSync(join(run.runDir, 'events.jsonl'), 'utf8')
		.trim()
		.split('\n')
		.map((line) => JSON.parse(line) as RunEvent);
	return {
		run,
		result: events.find((event) => event.type === 'tool-result' && event.name === 'run_command'),
	};
}
