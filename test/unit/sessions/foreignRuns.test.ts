import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordFile } from '../../../src/core/changes/acceptRecord.js';
import { appendChangeLog } from '../../../src/core/runStore/changeLog.js';
import { revertRunOnDisk } from '../../../src/core/changes/revertRun.js';
import { listRuns } from '../../../src/core/runStore/listRuns.js';
import {
	assertOwnRun,
	ForeignRunError,
	ownRunsFile,
	readOwnRuns,
	recordOwnRun,
} from '../../../src/core/runStore/ownRuns.js';
import { RunLogWriter } from '../../../src/core/runStore/runLog.js';
import type { RunResult } from '../../../src/contract/runResult.js';
import { continueTarget } from '../../../src/core/sessions/continueTarget.js';
import { followUpOf } from '../../../src/core/sessions/followUp.js';
import { historyOf, SessionError } from '../../../src/core/sessions/historyOf.js';
import { listingLimits, readSessions } from '../../../src/core/sessions/readSessions.js';

let ws: string;
let state: string;
const savedState = process.env['XDG_STATE_HOME'];
beforeEach(async () => {
	ws = await mkdtemp(join(tmpdir(), 'massgen-foreign-'));
	state = await mkdtemp(join(tmpdir(), 'massgen-state-'));
	// The record lives in the user's state folder: this file's own, so nothing leaks between tests.
	process.env['XDG_STATE_HOME'] = state;
});
afterEach(async () => {
	if (savedState === undefined) delete process.env['XDG_STATE_HOME'];
	else process.env['XDG_STATE_HOME'] = savedState;
	await rm(ws, { recursive: true, force: true });
	await rm(state, { recursive: true, force: true });
});

const runDir = (runId: string) => join(ws, '.massgen', 'runs', runId);

function resultOf(runId: string, question: string, extra: Partial<RunResult> = {}): RunResult {
	return {
		runId,
		question,
		status: 'completed',
		winner: { agentId: 'alice', label: 'agent1.1' },
		answers: [],
		votes: [],
		finalAnswer: `answer to ${question}`,
		changes: [],
		usage: [],
		durationMs: 1,
		...extra,
	};
}

/** A run made here: the real writer records it. */
async function ownRun(runId: string, question: string, extra: Partial<RunResult> = {}): Promise<void> {
	const log = await RunLogWriter.create(ws, runId);
	await log.finish({ result: resultOf(runId, question, extra), configYaml: '', patch: '' });
	await log.close();
}

/** A run that came with the folder: the same files, written by someone else. */
async function plantedRun(runId: string, question: string, extra: Partial<RunResult> = {}): Promise<void> {
	await mkdir(runDir(runId), { recursive: true });
	await writeFile(join(runDir(runId), 'result.json'), JSON.stringify(resultOf(runId, question, extra)));
}

const OWN = '20260101-090000-aaaa';
const OWN2 = '20260101-091000-aaab';
const PLANTED = '20991231-235959-zzzz';

describe('the record of runs made here', () => {
	it('records each run the writer creates, in the state folder, keyed by the workspace realpath', async () => {
		await ownRun(OWN, 'mine');
		const file = await ownRunsFile(ws);
		expect(file.startsWith(join(state, 'massgen', 'runs'))).toBe(true);
		expect(readFileSync(file, 'utf8')).toBe(`${OWN}\n`);
		expect(statSync(file).mode & 0o777).toBe(0o600);
		// A link to the workspace shares its record; another workspace has none.
		const link = join(state, 'link');
		await symlink(ws, link);
		expect(await readOwnRuns(link)).toEqual(new Set([OWN]));
		const other = await mkdtemp(join(tmpdir(), 'massgen-other-'));
		expect(await readOwnRuns(other)).toEqual(new Set());
		await rm(other, { recursive: true });
	});

	it('ignores lines that are not run ids and refuses to record an unsafe one', async () => {
		await recordOwnRun(ws, OWN);
		await writeFile(await ownRunsFile(ws), '../etc\n\n  \n', { flag: 'a' });
		expect(await readOwnRuns(ws)).toEqual(new Set([OWN]));
		await expect(recordOwnRun(ws, '../x')).rejects.toThrow('not a safe directory name');
	});

	it('assertOwnRun names the record file and how to adopt a run', async () => {
		await recordOwnRun(ws, OWN);
		await expect(assertOwnRun(ws, OWN, 'reverted')).resolves.toBeUndefined();
		const refusal = assertOwnRun(ws, PLANTED, 'reverted');
		await expect(refusal).rejects.toThrow(ForeignRunError);
		await expect(refusal).rejects.toThrow(`it is not in ${await ownRunsFile(ws)}`);
		await expect(refusal).rejects.toThrow(`add the line ${PLANTED} to that file`);
	});
});

describe('runs that came with the folder', () => {
	it('are listed marked, not dated in the future, and never the latest session', async () => {
		await ownRun(OWN, 'mine');
		await plantedRun(PLANTED, 'INJECTED-QUESTION', { startedAt: '2099-12-31T23:59:59.000Z' });
		const { sessions } = await readSessions(ws);
		const planted = sessions.flatMap((s) => s.turns).find((t) => t.runId === PLANTED)!;
		expect(planted.madeHere).toBe(false);
		expect(Date.parse(planted.startedAt)).toBeLessThanOrEqual(Date.now());
		expect(continueTarget(sessions)).toEqual({ parentRunId: OWN, sessionId: OWN });
		// Control: without the planted run the same workspace continues the same way.
		expect(sessions.flatMap((s) => s.turns).find((t) => t.runId === OWN)!.madeHere).toBe(true);
	});

	it('are never continued: not as the latest, not by id, not as an ancestor of our turn', async () => {
		await plantedRun(PLANTED, 'INJECTED-QUESTION');
		await expect(followUpOf(ws)).rejects.toThrow('no earlier run made on this machine');
		await expect(followUpOf(ws, PLANTED)).rejects.toThrow(SessionError);
		await expect(historyOf(ws, PLANTED)).rejects.toThrow('was not made on this machine');
		// Our turn that names the planted run as its parent carries only our own turns.
		await ownRun(OWN, 'mine', { session: { id: PLANTED, parentRunId: PLANTED } });
		expect((await historyOf(ws, OWN)).map((turn) => turn.question)).toEqual(['mine']);
		const followUp = await followUpOf(ws);
		expect(followUp.history.map((turn) => turn.question)).toEqual(['mine']);
		expect(JSON.stringify(followUp)).not.toContain('INJECTED');
	});

	it('are not in the past-runs list (panel, Open Run Log, Revert Run pick)', async () => {
		await ownRun(OWN, 'mine');
		await plantedRun(PLANTED, 'INJECTED-QUESTION');
		expect((await listRuns(ws)).map((run) => run.runId)).toEqual([OWN]);
	});

	it('are not reverted: the planted before texts are not written', async () => {
		await writeFile(join(ws, 'tasks.json'), 'mine\n');
		await mkdir(runDir(PLANTED), { recursive: true });
		await appendChangeLog(runDir(PLANTED), {
			kind: 'accept',
			by: 'cli',
			partial: false,
			files: [recordFile('tasks.json', 'PLANTED TASK\n', 'mine\n')],
		});
		await expect(revertRunOnDisk(ws, runDir(PLANTED), { runId: PLANTED, by: 'cli' })).rejects.toThrow(
			ForeignRunError,
		);
		expect(await readFile(join(ws, 'tasks.json'), 'utf8')).toBe('mine\n');
	});
});

describe('the listing is bounded', () => {
	it('reads a foreign result.json only up to its cap, and only so many foreign runs', async () => {
		await ownRun(OWN, 'mine');
		await plantedRun('20990102-000000-big0', 'x');
		// Sparse: on paper over the foreign cap, nothing on disk; skipped by its size, never read.
		await truncate(join(runDir('20990102-000000-big0'), 'result.json'), listingLimits.foreignFileBytes + 1);
		for (let i = 0; i < 2; i++) await plantedRun(`20990101-00000${i}-bomb`, `planted ${i}`);
		const { sessions, skipped } = await readSessions(ws, { limits: { ...listingLimits, foreignRuns: 2 } });
		const listed = sessions.flatMap((s) => s.turns.map((t) => t.runId));
		expect(listed).toContain(OWN);
		expect(listed.filter((id) => id !== OWN)).toHaveLength(1);
		expect(skipped.map((s) => s.reason)).toEqual(
			expect.arrayContaining([
				expect.stringContaining('result.json is too large'),
				'not made on this machine; only 2 such runs are read',
			]),
		);
	});

	it('stops at the total budget with our newest runs read first, and cuts texts when read', async () => {
		await ownRun(OWN, 'q'.repeat(5000));
		await ownRun(OWN2, 'newer');
		const size = statSync(join(runDir(OWN2), 'result.json')).size;
		const { sessions, skipped } = await readSessions(ws, { limits: { ...listingLimits, totalBytes: size } });
		expect(sessions.flatMap((s) => s.turns.map((t) => t.runId))).toEqual([OWN2]);
		expect(skipped).toEqual([
			{ runId: OWN, reason: expect.stringContaining('the listing read its total budget') },
		]);
		const all = await readSessions(ws);
		const long = all.sessions.flatMap((s) => s.turns).find((t) => t.runId === OWN)!;
		expect(long.question).toHaveLength(listingLimits.textChars + 1);
		// The history reads the run again, whole.
		expect((await historyOf(ws, OWN))[0]!.question).toHaveLength(5000);
	});

	it('a run folder of its own does not make the record (control: nothing appears in the state folder)', async () => {
		await plantedRun(PLANTED, 'x');
		await readSessions(ws);
		expect(existsSync(await ownRunsFile(ws))).toBe(false);
	});
});
