import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, truncate, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordFile } from '../../../src/core/changes/acceptRecord.js';
import { appendChangeLog } from '../../../src/core/runStore/changeLog.js';
import type { SessionRecord } from '../../../src/contract/runEvents.js';
import { RunLogWriter } from '../../../src/core/runStore/runLog.js';
import type { RunResult } from '../../../src/contract/runResult.js';
import { continueTarget } from '../../../src/core/sessions/continueTarget.js';
import { historyOf, SessionError } from '../../../src/core/sessions/historyOf.js';
import { readSessions } from '../../../src/core/sessions/readSessions.js';
import { writeRunningMarker } from '../../../src/core/runStore/runningMarker.js';
import { processMark } from '../../../src/core/util/processLiveness.js';
import { convergenceEvents } from '../protocol/scenarios.js';

let ws: string;
beforeEach(async () => {
	ws = await mkdtemp(join(tmpdir(), 'massgen-sessions-'));
});
afterEach(async () => {
	await rm(ws, { recursive: true, force: true });
});

const runDir = (runId: string) => join(ws, '.massgen', 'runs', runId);

/** A finished run written by the real writer; `session` undefined = a run from before sessions. */
async function turn(
	runId: string,
	question: string,
	session: SessionRecord | undefined,
	extra: Partial<RunResult> = {},
): Promise<void> {
	const result: RunResult = {
		runId,
		question,
		status: 'completed',
		winner: { agentId: 'alice', label: 'agent1.1' },
		answers: [],
		votes: [],
		finalAnswer: `answer to ${question}`,
		changes: [],
		usage: [
			{ agentId: 'alice', inputTokens: 10, outputTokens: 5, calls: 1, costUsd: 0.25 },
			{ agentId: 'bob', inputTokens: 10, outputTokens: 5, calls: 1, costUsd: 0.5 },
		],
		durationMs: 1,
		...(session ? { session } : {}),
		...extra,
	};
	const log = await RunLogWriter.create(ws, runId);
	await log.finish({ result, configYaml: '', patch: '' });
	await log.close();
}

const A1 = '20250101-090000-aaaa';
const A2 = '20250101-091000-aaab';
const A3 = '20250101-092000-aaac';
const F1 = '20250101-093000-ffff';
const OLD = '20241231-090000-oooo';

async function sessionWithFork(): Promise<void> {
	await turn(OLD, 'an old one-shot question', undefined);
	await turn(A1, 'q1', { id: A1, parentRunId: null });
	await turn(A2, 'q2', { id: A1, parentRunId: A1 });
	await turn(A3, 'q3', { id: A1, parentRunId: A2 });
	// A fork from the first turn: its own line, named by its run id.
	await turn(F1, 'q2 asked differently', { id: F1, parentRunId: A1 });
}

describe('readSessions', () => {
	it('rebuilds session lines from the run directories alone: turns, forks and runs from before sessions', async () => {
		await sessionWithFork();
		const { sessions, skipped } = await readSessions(ws);
		expect(skipped).toEqual([]);
		expect(sessions.map((s) => [s.id, s.forkedFrom, s.turns.map((t) => t.runId)])).toEqual([
			[F1, A1, [F1]],
			[A1, null, [A1, A2, A3]],
			[OLD, null, [OLD]],
		]);
		expect(sessions[1]!.turns[1]).toEqual({
			runId: A2,
			sessionId: A1,
			parentRunId: A1,
			question: 'q2',
			status: 'completed',
			winner: { agentId: 'alice', label: 'agent1.1' },
			costUsd: 0.75,
			startedAt: '2025-01-01T09:10:00.000Z',
			finalAnswer: 'answer to q2',
			changes: 'none',
			files: 0,
			madeHere: true,
		});
	});

	it('reports no price as a null cost and a change set as pending', async () => {
		await turn(
			A1,
			'q1',
			{ id: A1, parentRunId: null },
			{
				usage: [{ agentId: 'alice', inputTokens: 1, outputTokens: 1, calls: 1, costUsd: null }],
				changes: [{ path: 'a.ts', kind: 'modify', baseHash: 'x', base: 'a', content: 'b' }],
			},
		);
		const [line] = (await readSessions(ws)).sessions;
		expect(line!.turns[0]).toMatchObject({ costUsd: null, changes: 'pending' });
	});

	it('says of a run without a result whether it goes on now or its process died (its running marker)', async () => {
		const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
		await once(child, 'spawn');
		const dead = processMark(undefined, child.pid!);
		child.kill('SIGKILL');
		await once(child, 'exit');
		const live = await RunLogWriter.create(ws, A2);
		await mkdir(runDir(A3), { recursive: true });
		await writeRunningMarker(runDir(A3), null, dead);
		const { skipped } = await readSessions(ws);
		const host = processMark().host;
		expect(Object.fromEntries(skipped.map((s) => [s.runId, s.reason]))).toMatchObject({
			[A2]: `running now (pid ${process.pid} on ${host})`,
			[A3]: expect.stringContaining(
				`no result.json: its process (pid ${child.pid} on ${host}) ended mid-run`,
			),
		});
		await live.close();
	});

	it('skips corrupted and half-written runs with a reason, never throwing', async () => {
		await turn(A1, 'q1', { id: A1, parentRunId: null });
		const runs = join(ws, '.massgen', 'runs');
		// Killed mid-run: a truncated events.jsonl and no result.json.
		const killed = await RunLogWriter.create(ws, A2);
		for (const event of convergenceEvents(A2).slice(0, 4)) killed.append(event);
		await killed.close();
		await writeFile(join(runDir(A2), 'events.jsonl'), '{"type":"text-del', { flag: 'a' });
		// A half-written result.json, one naming another run, one without a status, a bad session record.
		await mkdir(join(runs, A3));
		await writeFile(join(runs, A3, 'result.json'), '{"runId": "2025');
		await turn(F1, 'copied', { id: F1, parentRunId: null }, { runId: 'someone-else' });
		await turn(OLD, 'no status', undefined, { status: 'exploded' as RunResult['status'] });
		await turn('20250102-000000-bad0', 'bad session', { id: '', parentRunId: null });
		// A truncated events.jsonl does not matter when the result is whole.
		await writeFile(join(runDir(A1), 'events.jsonl'), '{"type":"run-sta', { flag: 'a' });

		const { sessions, skipped } = await readSessions(ws);
		expect(sessions.map((s) => s.id)).toEqual([A1]);
		expect(Object.fromEntries(skipped.map((s) => [s.runId, s.reason]))).toEqual({
			[A2]: 'no result.json (still running, or ended mid-run)',
			// Made by hand, not by a run: read within the small cap for runs of unknown origin.
			[A3]: 'result.json is not valid JSON (half-written?) (not made on this machine)',
			[F1]: 'result.json names run "someone-else"',
			[OLD]: 'result.json has no valid status',
			'20250102-000000-bad0': 'result.json has a bad session record',
		});
	});

	it('orders runs started in the same second by when they ran, not by their ids', async () => {
		const early = '20250101-090000-zzzz';
		const late = '20250101-090000-aaaa';
		await turn(early, 'early', undefined, { durationMs: 100 });
		await turn(late, 'late', undefined, { durationMs: 100 });
		// Written at 09:00:00.300 and 09:00:00.700: started at .200 and .600.
		await utimes(
			join(runDir(early), 'result.json'),
			new Date('2025-01-01T09:00:00.300Z'),
			new Date('2025-01-01T09:00:00.300Z'),
		);
		await utimes(
			join(runDir(late), 'result.json'),
			new Date('2025-01-01T09:00:00.700Z'),
			new Date('2025-01-01T09:00:00.700Z'),
		);
		const { sessions } = await readSessions(ws);
		expect(sessions.map((s) => [s.id, s.turns[0]!.startedAt])).toEqual([
			[late, '2025-01-01T09:00:00.600Z'],
			[early, '2025-01-01T09:00:00.200Z'],
		]);
	});

	it("orders same-second runs by their recorded start, which wins over the write time's estimate", async () => {
		const first = '20250101-090000-zzzz';
		const second = '20250101-090000-aaaa';
		await turn(first, 'first', undefined, { startedAt: '2025-01-01T09:00:00.100Z' });
		await turn(second, 'second', undefined, { startedAt: '2025-01-01T09:00:00.900Z' });
		// The second run's start-up spilled into the next second: the estimate would say 09:00:00.000.
		const next = new Date('2025-01-01T09:00:01.200Z');
		await utimes(join(runDir(second), 'result.json'), next, next);
		const { sessions } = await readSessions(ws);
		expect(sessions.map((s) => [s.id, s.turns[0]!.startedAt])).toEqual([
			[second, '2025-01-01T09:00:00.900Z'],
			[first, '2025-01-01T09:00:00.100Z'],
		]);
	});

	it('skips a result.json over the size bound without reading it', async () => {
		await turn(A1, 'q1', { id: A1, parentRunId: null });
		// Sparse: 33 MiB on paper, nothing on disk.
		await truncate(join(runDir(A1), 'result.json'), 33 * 1024 * 1024);
		const { skipped } = await readSessions(ws);
		expect(skipped).toEqual([{ runId: A1, reason: `result.json is too large (${33 * 1024 * 1024} bytes)` }]);
	});

	it('returns nothing for a workspace without runs', async () => {
		expect(await readSessions(ws)).toEqual({ sessions: [], skipped: [] });
	});
});

describe('historyOf', () => {
	it('follows parentRunId back to the root, across a fork', async () => {
		await sessionWithFork();
		expect(await historyOf(ws, A3)).toEqual([
			{ question: 'q1', answer: 'answer to q1' },
			{ question: 'q2', answer: 'answer to q2' },
			{ question: 'q3', answer: 'answer to q3' },
		]);
		expect((await historyOf(ws, F1)).map((t) => t.question)).toEqual(['q1', 'q2 asked differently']);
	});

	it("carries what became of a turn's changes (from the change record) and says when a turn had no answer", async () => {
		const change = { path: 'a.ts', kind: 'add' as const, baseHash: null, base: null, content: 'x' };
		await turn(A1, 'q1', { id: A1, parentRunId: null }, { changes: [change] });
		await turn(A2, 'q2', { id: A1, parentRunId: A1 }, { changes: [change] });
		await turn(A3, 'q3', { id: A1, parentRunId: A2 }, { status: 'timeout', finalAnswer: null });
		await appendChangeLog(runDir(A1), {
			kind: 'accept',
			by: 'cli',
			partial: false,
			files: [recordFile('a.ts', null, 'x')],
		});
		await appendChangeLog(runDir(A2), { kind: 'reject', by: 'editor', paths: ['a.ts'] });
		expect(await historyOf(ws, A3)).toEqual([
			{ question: 'q1', answer: 'answer to q1', changes: 'accepted' },
			{ question: 'q2', answer: 'answer to q2', changes: 'rejected' },
			{ question: 'q3', answer: '(no final answer: the run timed out)' },
		]);
	});

	it("gives a plan run's turn as the task it planned, and reads each turn's part in the plan back", async () => {
		const planning = { kind: 'planning', planId: A1, depth: 'medium', task: 'Add a flag' } as const;
		const step = { kind: 'step', planId: A1, step: 1, of: 2, title: 'Parse it' } as const;
		await turn(
			A1,
			'Plan the task below; do not carry it out. <TASK>…',
			{ id: A1, parentRunId: null },
			{ plan: planning },
		);
		await turn(A2, 'Carry out step 1 of 2', { id: A1, parentRunId: A1 }, { plan: step });
		expect((await historyOf(ws, A2)).map((t) => t.question)).toEqual([
			'Make a plan for this task (read only, no changes): Add a flag',
			'Carry out step 1 of 2',
		]);
		const [line] = (await readSessions(ws)).sessions;
		expect(line!.turns.map((t) => t.plan)).toEqual([planning, step]);
	});

	it('keeps the newest turns whole within the budget and marks the older ones left out', async () => {
		await sessionWithFork();
		// q3 + its answer = 2 + 12 characters; q2 would make 28.
		const history = await historyOf(ws, A3, 20);
		expect(history).toEqual([
			{ question: 'q1', answer: '', leftOut: true },
			{ question: 'q2', answer: '', leftOut: true },
			{ question: 'q3', answer: 'answer to q3' },
		]);
	});

	it("carries the user's messages to the team into the follow-up's history; a malformed list reads as none", async () => {
		const steering = [
			{ id: 1, text: 'Use tabs.', noteOnly: false, t: 5 },
			{ id: 2, text: 'CI is slow.', targetAgentId: 'bob', noteOnly: true, t: 9 },
		];
		await turn(A1, 'q1', { id: A1, parentRunId: null }, { steering });
		await turn(A2, 'q2', { id: A1, parentRunId: A1 }, { steering: 'planted' as never });
		expect(await historyOf(ws, A2)).toEqual([
			{ question: 'q1', steering: ['Use tabs.', 'CI is slow.'], answer: 'answer to q1' },
			{ question: 'q2', answer: 'answer to q2' },
		]);
		// The messages count against the history's budget: with them, q1 no longer fits whole.
		expect((await historyOf(ws, A2, 40))[0]).toEqual({ question: 'q1', answer: '', leftOut: true });
	});

	it('stops at a missing ancestor and refuses a run that is not a turn', async () => {
		await sessionWithFork();
		await rm(runDir(A1), { recursive: true });
		expect((await historyOf(ws, A3)).map((t) => t.question)).toEqual(['q2', 'q3']);
		await expect(historyOf(ws, A1)).rejects.toThrow(SessionError);
		await expect(historyOf(ws, '../etc')).rejects.toThrow('not a run id');
	});
});

describe('continueTarget', () => {
	it('continues the latest line, a named session, the last turn of a line, and forks from an earlier turn', async () => {
		await sessionWithFork();
		const { sessions } = await readSessions(ws);
		expect(continueTarget(sessions)).toEqual({ parentRunId: F1, sessionId: F1 });
		// A session is named by its first run: the session wins.
		expect(continueTarget(sessions, A1)).toEqual({ parentRunId: A3, sessionId: A1 });
		expect(continueTarget(sessions, A3)).toEqual({ parentRunId: A3, sessionId: A1 });
		expect(continueTarget(sessions, A2)).toEqual({ parentRunId: A2, sessionId: undefined });
		expect(() => continueTarget(sessions, 'nope')).toThrow("no run or session 'nope' to continue");
		expect(() => continueTarget([])).toThrow('there is no earlier run to continue');
	});
});
