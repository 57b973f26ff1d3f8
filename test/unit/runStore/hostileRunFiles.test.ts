/**
 * The run store's readers on files a cloned repository planted: each malformed `result.json` or
 * `events.jsonl` is a reason in words (or "none"), never a throw, a hang or a crash further on.
 * Controls: the same readers on files the writer made read them whole.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src/contract/runResult.js';
import {
	readProposedChanges,
	readResultSummary,
	readRunResult,
} from '../../../src/core/runStore/readResult.js';
import { readRunEvents, readRunStart } from '../../../src/core/runStore/readRunEvents.js';
import { runFile, runFileNames } from '../../../src/contract/runLayout.js';
import { RunLogWriter } from '../../../src/core/runStore/runLog.js';
import { checkedRunDir, RunsDirError } from '../../../src/core/runStore/runsDirGuard.js';
import { convergenceEvents } from '../protocol/scenarios.js';

const runId = '20260101-000000-abcd';

function result(extra: Record<string, unknown> = {}): RunResult & Record<string, unknown> {
	return {
		runId,
		question: 'q',
		status: 'completed',
		winner: { agentId: 'alice', label: 'agent1.1' },
		answers: [{ agentId: 'alice', label: 'agent1.1', content: 'a' }],
		votes: [{ voter: 'bob', votedFor: 'alice', votedForLabel: 'agent1.1', reason: 'r' }],
		finalAnswer: 'a',
		changes: [{ path: 'a.ts', kind: 'modify', baseHash: 'h', base: 'x', content: 'y' }],
		usage: [{ agentId: 'alice', calls: 1, inputTokens: 1, outputTokens: 1, costUsd: null }],
		durationMs: 5,
		...extra,
	};
}

/** A run directory holding `result.json` with this text (as a repository would ship it). */
function withResult(text: string): string {
	const dir = mkdtempSync(join(tmpdir(), 'massgen-hostile-'));
	writeFileSync(join(dir, runFileNames.result), text);
	return dir;
}

const reasonFor = async (text: string) => {
	const read = await readRunResult(withResult(text), runId);
	return read.ok ? 'ok' : read.reason;
};

describe('result.json as a turn: each malformed file is a reason naming what is wrong', () => {
	it('control: a well-formed result reads whole, with fields no reader checks kept as written', async () => {
		const read = await readRunResult(withResult(JSON.stringify(result({ extra: { kept: 1 } }))), runId);
		expect(read).toMatchObject({ ok: true, session: { id: runId, parentRunId: null } });
		expect(read.ok && (read.result as unknown as { extra: unknown }).extra).toEqual({ kept: 1 });
	});

	it.each([
		['not JSON', '{"runId": "2026', 'result.json is not valid JSON (half-written?)'],
		['an array', '[1, 2]', 'result.json is not an object'],
		['null', 'null', 'result.json is not an object'],
		['a string', '"result"', 'result.json is not an object'],
		['another run', JSON.stringify(result({ runId: '../other' })), 'result.json names run "../other"'],
		['no question', JSON.stringify(result({ question: 42 })), 'result.json has no question'],
		['an unknown status', JSON.stringify(result({ status: 'exploded' })), 'result.json has no valid status'],
		[
			'a finalAnswer object',
			JSON.stringify(result({ finalAnswer: {} })),
			'result.json has a bad finalAnswer',
		],
		['no answers list', JSON.stringify(result({ answers: 'all' })), 'result.json has no answers list'],
		['no changes list', JSON.stringify(result({ changes: undefined })), 'result.json has no changes list'],
		[
			'a bad session',
			JSON.stringify(result({ session: { id: '', parentRunId: null } })),
			'result.json has a bad session record',
		],
	])('%s', async (_, text, reason) => {
		expect(await reasonFor(text)).toBe(reason);
	});

	it('a missing or non-number durationMs reads as 0 (a report never says "NaN min NaN s")', async () => {
		for (const durationMs of [undefined, 'long', null]) {
			const read = await readRunResult(withResult(JSON.stringify(result({ durationMs }))), runId);
			expect(read.ok && read.result.durationMs).toBe(0);
		}
	});

	it('a bad entry of a list names it by its path, in zod’s words', async () => {
		const answers = [{ agentId: 'alice', label: 'agent1.1', content: 7 }];
		expect(await reasonFor(JSON.stringify(result({ answers })))).toBe(
			'result.json has a bad answers entry (answers.0.content: Invalid input: expected string, received number)',
		);
		const changes = [{ path: 'a.ts', kind: 'chmod', base: null, content: null }];
		expect(await reasonFor(JSON.stringify(result({ changes })))).toMatch(
			/^result\.json has a bad changes entry \(changes\.0\.kind: /,
		);
		expect(await reasonFor(JSON.stringify(result({ winner: 'alice' })))).toMatch(
			/^result\.json has a bad winner \(/,
		);
		expect(await reasonFor(JSON.stringify(result({ usage: [null] })))).toMatch(
			/^result\.json has a bad usage entry \(usage\.0: /,
		);
	});

	it('a __proto__ key pollutes nothing and is not a field', async () => {
		const text = JSON.stringify(result()).replace(
			'{',
			'{"__proto__": {"status": "completed", "polluted": true},',
		);
		const read = await readRunResult(withResult(text), runId);
		expect(read.ok).toBe(true);
		expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
		expect(await reasonFor(text.replace('"status":"completed"', '"status":7'))).toBe(
			'result.json has no valid status',
		);
	});

	it('over the cap: not read, and said so; a FIFO: never opened for a blocking read', async () => {
		const dir = withResult('');
		await truncate(runFile(dir, 'result'), 2048);
		expect(await readRunResult(dir, runId, 1024)).toEqual({
			ok: false,
			reason: 'result.json is too large (2048 bytes)',
			tooLarge: true,
		});
		const fifoDir = mkdtempSync(join(tmpdir(), 'massgen-hostile-'));
		execFileSync('mkfifo', [runFile(fifoDir, 'result')]);
		expect(await readRunResult(fifoDir, runId)).toEqual({
			ok: false,
			reason: 'result.json cannot be read (ENOTREGULAR)',
		});
		expect(await readResultSummary(fifoDir)).toBeNull();
		expect(await readProposedChanges(fifoDir)).toEqual({ count: 0, paths: [] });
	});
});

describe('result.json for the list and the change count: lenient where it always was', () => {
	it('a malformed winner lists as none; a malformed question or status is not a summary', async () => {
		expect(await readResultSummary(withResult(JSON.stringify(result({ winner: [1] }))))).toMatchObject({
			question: 'q',
			status: 'completed',
			winner: null,
			started: null,
		});
		expect(await readResultSummary(withResult(JSON.stringify(result({ question: null }))))).toBeNull();
		expect(await readResultSummary(withResult(JSON.stringify(result({ status: 'done' }))))).toBeNull();
		expect(await readResultSummary(withResult('{'))).toBeNull();
	});

	it('counts every recorded change, lists only string paths, and no list is no changes', async () => {
		const changes = [{ path: 'a.ts' }, { path: 3 }, null, 'b.ts'];
		expect(await readProposedChanges(withResult(JSON.stringify({ changes })))).toEqual({
			count: 4,
			paths: ['a.ts'],
		});
		expect(await readProposedChanges(withResult(JSON.stringify({ changes: { length: 9 } })))).toEqual({
			count: 0,
			paths: [],
		});
	});
});

describe('events.jsonl: lines without the envelope are skipped; the first line is a run-start or nothing', () => {
	function withEvents(text: string): string {
		const dir = mkdtempSync(join(tmpdir(), 'massgen-hostile-'));
		writeFileSync(join(dir, runFileNames.events), text);
		return dir;
	}

	it('control: the writer’s log reads back, its run-start first', async () => {
		const ws = mkdtempSync(join(tmpdir(), 'massgen-hostile-ws-'));
		const log = await RunLogWriter.create(ws, runId);
		const events = convergenceEvents(runId);
		for (const event of events) log.append(event);
		await log.close();
		expect(await readRunEvents(log.runDir)).toEqual(events);
		expect(await readRunStart(log.runDir)).toEqual(events[0]);
	});

	it('skips arrays, scalars and lines missing or mistyping the envelope', async () => {
		const good = { type: 'text-delta', seq: 1, runId, t: 0, agentId: 'a', phase: 'coordination', text: 'x' };
		const dir = withEvents(
			[
				'[1,2]',
				'7',
				'null',
				JSON.stringify({ ...good, seq: '1' }),
				JSON.stringify({ ...good, t: undefined }),
				JSON.stringify(good),
			].join('\n'),
		);
		expect(await readRunEvents(dir)).toEqual([good]);
	});

	it('drops lines whose body does not match their type, and strips keys no event has', async () => {
		const good = { type: 'text-delta', seq: 1, runId, t: 0, agentId: 'a', phase: 'coordination', text: 'x' };
		const vote = {
			type: 'vote',
			seq: 2,
			runId,
			t: 1,
			agentId: 'b',
			voter: 'b',
			votedFor: 'agent1.1',
			votedForAgent: 'a',
			reason: 'r',
		};
		const dir = withEvents(
			[
				{ ...good, text: { toString: 'x' } },
				{ ...good, phase: 'elsewhere' },
				{ ...good, type: 'no-such-event' },
				{ ...vote, reason: 7 },
				{
					type: 'winner-selected',
					seq: 3,
					runId,
					t: 2,
					agentId: 'a',
					label: 'l',
					tally: { a: 'many' },
					reason: 'votes',
				},
				{
					type: 'usage',
					seq: 4,
					runId,
					t: 3,
					agentId: 'a',
					usage: { inputTokens: -1, outputTokens: 1 },
					costUsd: 0,
				},
				{ ...good, innerHTML: '<img src=x onerror=alert(1)>' },
				vote,
			]
				.map((line) => JSON.stringify(line))
				.join('\n'),
		);
		expect(await readRunEvents(dir)).toEqual([good, vote]);
	});

	it.each([
		['another event first', { type: 'run-end', seq: 0, runId, t: 0 }],
		['a question that is not text', { type: 'run-start', seq: 0, runId, t: 0, question: 1, agents: [] }],
		['agents that are not a list', { type: 'run-start', seq: 0, runId, t: 0, question: 'q', agents: {} }],
		[
			'an attachment of an unknown kind',
			{
				type: 'run-start',
				seq: 0,
				runId,
				t: 0,
				question: 'q',
				agents: [],
				attachments: [{ kind: 'x', source: 'a' }],
			},
		],
	])('no run-start: %s', async (_, first) => {
		expect(await readRunStart(withEvents(`${JSON.stringify(first)}\n`))).toBeNull();
	});

	it('an endless first line is read only up to the cap; a FIFO is never opened for a blocking read', async () => {
		const dir = withEvents('');
		// Sparse: 40 MiB of NULs without a newline.
		await truncate(runFile(dir, 'events'), 40 * 1024 * 1024);
		expect(await readRunStart(dir)).toBeNull();
		const fifoDir = mkdtempSync(join(tmpdir(), 'massgen-hostile-'));
		execFileSync('mkfifo', [runFile(fifoDir, 'events')]);
		expect(await readRunStart(fifoDir)).toBeNull();
		await expect(readRunEvents(fifoDir)).rejects.toMatchObject({ code: 'ENOTREGULAR' });
	});
});

describe('checkedRunDir', () => {
	it('refuses an id that is not one folder name, and returns the folder of one that is', async () => {
		const ws = mkdtempSync(join(tmpdir(), 'massgen-hostile-ws-'));
		await expect(checkedRunDir(ws, '../outside')).rejects.toBeInstanceOf(RunsDirError);
		await expect(checkedRunDir(ws, '..')).rejects.toBeInstanceOf(RunsDirError);
		expect(await checkedRunDir(ws, runId)).toBe(join(ws, '.massgen', 'runs', runId));
	});
});
