/**
 * Synchronous readers of the run folders a CLI or team run left in a workspace, named by the run
 * store's layout (src/contract/runLayout.ts). Tests that want the store's checked reading call
 * readRunResult / readRunEvents themselves.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runFile, runsDir } from '../../src/contract/runLayout.js';

/** An `events.jsonl` line: its type plus whatever that event carries. */
export type LoggedEvent = { readonly type: string } & Readonly<Record<string, unknown>>;

/** Every run folder under `root`, in name order; none when no run wrote one. */
export function runDirs(root: string): string[] {
	const runs = runsDir(root);
	return existsSync(runs)
		? readdirSync(runs)
				.sort()
				.map((name) => join(runs, name))
		: [];
}

/** The first run folder (the only one, in a workspace that saw one run). */
export function runDir(root: string): string {
	const dir = runDirs(root)[0];
	if (!dir) throw new Error(`no run folder under ${runsDir(root)}`);
	return dir;
}

export function readResult<T = Record<string, unknown>>(dir: string): T {
	return JSON.parse(readFileSync(runFile(dir, 'result'), 'utf8')) as T;
}

export function readEvents<T extends { readonly type: string } = LoggedEvent>(dir: string): T[] {
	return readFileSync(runFile(dir, 'events'), 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((line) => JSON.parse(line) as T);
}
