/**
 * massgen.maxCostUsdPerDay in a window of several folders, one of them a hostile repository whose
 * `.massgen` is a link out of it: the day's spend of the other folders is still read and the cap
 * still decides for runs there (before, the refused link threw out of `DayCap.check`, and every run
 * of every folder failed while a day cap was set). Real run folders, `spentOnDay` of the core.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as vscode from 'vscode';
import { newRunId } from '../../../src/contract/runId.js';
import { runDirOf } from '../../../src/contract/runLayout.js';
import { spentOnDay } from '../../../src/core/runStore/daySpend.js';
import { recordOwnRun } from '../../../src/core/runStore/ownRuns.js';
import { DayCap } from '../../../src/vscode/run/dayCap.js';
import { hashTree, makeTree } from '../../support/tempTree.js';

const now = new Date(2026, 11, 3, 15, 0, 0);
const fake = vscode as unknown as {
	workspace: {
		workspaceFolders: { uri: vscode.Uri; name: string; index: number }[] | undefined;
		getConfiguration?: unknown;
	};
	window: { outputLines: string[] };
};

/** `massgen.maxCostUsdPerDay` set in the user's settings. */
function perDay(usd: number): void {
	fake.workspace.getConfiguration = () => ({
		inspect: (key: string) => (key === 'massgen.maxCostUsdPerDay' ? { key, globalValue: usd } : { key }),
		get: () => undefined,
	});
}

afterEach(() => {
	delete fake.workspace.getConfiguration;
	fake.workspace.workspaceFolders = undefined;
});

/** One of our runs in `root`, started today, whose result says it spent `usd`. */
async function spent(root: string, usd: number): Promise<void> {
	const id = newRunId(new Date(2026, 11, 3, 9, 0, 0), () => 0.5);
	await recordOwnRun(root, id);
	await mkdir(runDirOf(root, id), { recursive: true });
	const usage = [{ agentId: 'a', costUsd: usd }];
	await writeFile(join(runDirOf(root, id), 'result.json'), JSON.stringify({ runId: id, usage, changes: [] }));
}

async function window(): Promise<{ ours: string; hostile: string; outside: string }> {
	const ours = await makeTree({ 'src/app.ts': 'x\n' });
	const outside = await makeTree({ 'runs/20261203-090000-zzzz/result.json': '{}' });
	const hostile = await makeTree({ 'README.md': 'hi\n' });
	await symlink(outside, join(hostile, '.massgen'));
	fake.workspace.workspaceFolders = [ours, hostile].map((root, index) => ({
		uri: vscode.Uri.file(root),
		name: `f${index}`,
		index,
	}));
	return { ours, hostile, outside };
}

function dayCap(): DayCap {
	const log = vscode.window.createOutputChannel('test', { log: true }) as vscode.LogOutputChannel;
	return new DayCap(() => now.getTime(), log);
}

const engine = { spentOnDay };

describe('the day cap beside a folder whose .massgen is a link', () => {
	it("still refuses a run in our folder once our folder's runs spent the day", async () => {
		const { ours, outside } = await window();
		const before = hashTree(outside);
		await spent(ours, 2);
		perDay(1);
		const refusal = await dayCap().check(vscode.Uri.file(ours), engine);
		expect(refusal).toMatchObject({ refused: 'budget' });
		expect(hashTree(outside)).toEqual(before);
	});

	it('lets a run in our folder start under the cap (the linked folder counts nothing, and is named in the log)', async () => {
		const { ours } = await window();
		await spent(ours, 0.25);
		perDay(1);
		await expect(dayCap().check(vscode.Uri.file(ours), engine)).resolves.toBeUndefined();
		expect(fake.window.outputLines.some((line) => /warn: .*\.massgen is a link/.test(line))).toBe(true);
	});
});
