// Waiting and workspace helpers shared by the in-host suites (bundled into out/host).
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as vscode from 'vscode';
import type { RunEvent } from '../../src/contract/runEvents';
import { commandIds } from '../../src/vscode/common/commandIds';
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

/** The test window's workspace folder. */
export function workspaceRoot(): string {
	const folder = vscode.workspace.workspaceFolders?.[0];
	assert.ok(folder, 'the test window has a workspace folder');
	return folder.uri.fsPath;
}

/** Every file of the workspace outside .massgen/ with a hash of its content. */
export function snapshotFiles(root: string): Record<string, string> {
	const files: Record<string, string> = {};
	const walk = (dir: string) => {
		for (const name of readdirSync(dir)) {
			const full = join(dir, name);
			const rel = relative(root, full).replace(/\\/g, '/');
			if (rel === '.massgen') continue;
			if (statSync(full).isDirectory()) walk(full);
			else files[rel] = createHash('sha256').update(readFileSync(full)).digest('hex');
		}
	};
	walk(root);
	return files;
}

/** Rejects every change set still pending (earlier suites' runs): a suite that counts pending sets starts from none. */
export async function rejectPendingChanges(api: MassGenApi): Promise<void> {
	for (const runId of api.changes.pendingRunIds()) await api.changes.reject(runId);
}

/** Between tests: cancel the runs still going, wait for their end, and go back to the default team config. */
export async function endRunAndConfig(api: MassGenApi): Promise<void> {
	if (api.runs.isRunning) {
		for (const run of api.runs.active()) api.runs.cancel(run.ticket);
		await until('the runs to end', () => !api.runs.isRunning);
	}
	await useConfig(undefined);
}
