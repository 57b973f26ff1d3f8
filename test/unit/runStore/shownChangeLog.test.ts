/**
 * The panel's outcome marks of a viewed run read its `changes-log.jsonl` through
 * `readShownChangeLog`: a run that came with the folder only within `foreignChangeLogBytes`
 * (whole lines), so a planted record of hundreds of MB is not loaded into the extension host; a
 * run this machine made is read whole.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runDirOf, runFile } from '../../../src/contract/runLayout.js';
import { recordFile } from '../../../src/core/changes/acceptRecord.js';
import {
	appendChangeLog,
	foreignChangeLogBytes,
	readShownChangeLog,
} from '../../../src/core/runStore/changeLog.js';
import { recordOwnRun } from '../../../src/core/runStore/ownRuns.js';
import { makeTree, makeWorkspaceDir } from '../../support/tempTree.js';

const runId = '20261201-100000-logs';

/** A record of `count` accept entries (one written by the writer, repeated). */
async function record(ws: string, count: number): Promise<number> {
	const dir = runDirOf(ws, runId);
	mkdirSync(dir, { recursive: true });
	await appendChangeLog(dir, {
		kind: 'accept',
		by: 'editor',
		partial: false,
		files: [recordFile('a.ts', 'old\n', 'new\n')],
	});
	const line = readFileSync(runFile(dir, 'changeLog'), 'utf8');
	const text = line.repeat(count);
	writeFileSync(runFile(dir, 'changeLog'), text);
	return Buffer.byteLength(text);
}

describe('the change record a viewed run shows', () => {
	it('a foreign run’s record is read only to the cap, in whole lines', async () => {
		const ws = makeWorkspaceDir();
		const env = { XDG_STATE_HOME: await makeTree() };
		const size = await record(ws, 20_000);
		expect(size).toBeGreaterThan(8 * foreignChangeLogBytes);
		const entries = await readShownChangeLog(ws, runId, env);
		const lineBytes = size / 20_000;
		expect(entries.length).toBe(Math.floor(foreignChangeLogBytes / lineBytes));
		expect(entries.every((entry) => entry.kind === 'accept')).toBe(true);
	});

	it('control: the same record of a run this machine made is read whole', async () => {
		const ws = makeWorkspaceDir();
		const env = { XDG_STATE_HOME: await makeTree() };
		await recordOwnRun(ws, runId, env);
		await record(ws, 20_000);
		expect(await readShownChangeLog(ws, runId, env)).toHaveLength(20_000);
	});
});
