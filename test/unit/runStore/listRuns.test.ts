import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listRuns } from '../../../src/core/runStore/listRuns.js';
import { RunLogWriter } from '../../../src/core/runStore/runLog.js';
import type { RunResult } from '../../../src/contract/runResult.js';
import type { ProcessTable } from '../../../src/core/util/processLiveness.js';
import { convergenceEvents } from '../protocol/scenarios.js';

let ws: string;
beforeEach(async () => {
	ws = await mkdtemp(join(tmpdir(), 'massgen-runs-'));
});
afterEach(async () => {
	await rm(ws, { recursive: true, force: true });
});

function resultOf(
	runId: string,
	question: string,
	status: RunResult['status'],
	startedAt?: string,
): RunResult {
	return {
		...(startedAt ? { startedAt } : {}),
		runId,
		question,
		status,
		winner: status === 'completed' ? { agentId: 'alice', label: 'agent1.1' } : null,
		answers: [],
		votes: [],
		finalAnswer: null,
		changes: [],
		usage: [],
		durationMs: 1,
	};
}

async function finishedRun(
	runId: string,
	question: string,
	status: RunResult['status'],
	startedAt?: string,
): Promise<void> {
	const log = await RunLogWriter.create(ws, runId);
	await log.finish({ result: resultOf(runId, question, status, startedAt), configYaml: '', patch: '' });
	await log.close();
}

describe('listRuns', () => {
	it('returns nothing when the workspace has no runs directory', async () => {
		expect(await listRuns(ws)).toEqual([]);
	});

	it('lists finished and crashed runs newest first and skips foreign directories', async () => {
		await finishedRun('20250101-090000-aaaa', 'first', 'completed');
		await finishedRun('20250103-090000-cccc', 'third', 'timeout');
		const crashed = await RunLogWriter.create(ws, '20250102-090000-bbbb');
		for (const event of convergenceEvents('20250102-090000-bbbb').slice(0, 5)) crashed.append(event);
		await crashed.close();
		const runs = join(ws, '.massgen', 'runs');
		await mkdir(join(runs, 'empty-dir'));
		await mkdir(join(runs, 'garbage'));
		await writeFile(join(runs, 'garbage', 'result.json'), '{"question": 3}');
		await writeFile(join(runs, 'stray-file.txt'), 'x');

		expect(await listRuns(ws)).toEqual([
			{
				runId: '20250103-090000-cccc',
				question: 'third',
				status: 'timeout',
				startedAt: '2025-01-03T09:00:00.000Z',
				winner: null,
			},
			{
				runId: '20250102-090000-bbbb',
				question: 'How should parse() work?',
				status: 'incomplete',
				startedAt: '2025-01-02T09:00:00.000Z',
				winner: null,
			},
			{
				runId: '20250101-090000-aaaa',
				question: 'first',
				status: 'completed',
				startedAt: '2025-01-01T09:00:00.000Z',
				winner: { agentId: 'alice', label: 'agent1.1' },
			},
		]);
	});

	it('a run without result.json is running while its marker names a live process, incomplete once that process is gone', async () => {
		const going = await RunLogWriter.create(ws, '20250104-090000-dddd');
		going.append(convergenceEvents('20250104-090000-dddd')[0]!);
		await going.flush();
		// This process wrote the marker and runs: the run goes on (another window's, another CLI's).
		expect((await listRuns(ws)).map((run) => [run.question, run.status])).toEqual([
			['How should parse() work?', 'running'],
		]);
		// The marker's process is gone (or its pid was reused by a later process): it died mid-run.
		const gone: ProcessTable = { alive: () => false, startOf: () => null };
		expect((await listRuns(ws, process.env, gone)).map((run) => run.status)).toEqual(['incomplete']);
		// Closed without a result (the log removes its marker): incomplete too.
		await going.close();
		expect((await listRuns(ws)).map((run) => run.status)).toEqual(['incomplete']);
	});

	it('orders runs started in the same second by their recorded start, not by their ids', async () => {
		await finishedRun('20250101-090000-zzzz', 'first', 'completed', '2025-01-01T09:00:00.100Z');
		await finishedRun('20250101-090000-aaaa', 'second', 'completed', '2025-01-01T09:00:00.900Z');
		expect((await listRuns(ws)).map((r) => [r.question, r.startedAt])).toEqual([
			['second', '2025-01-01T09:00:00.900Z'],
			['first', '2025-01-01T09:00:00.100Z'],
		]);
	});

	it('dates a run with a foreign id by its directory time', async () => {
		await finishedRun('my-run', 'custom', 'cancelled');
		const [run] = await listRuns(ws);
		expect(run).toMatchObject({ runId: 'my-run', status: 'cancelled' });
		expect(Math.abs(Date.parse(run!.startedAt) - Date.now())).toBeLessThan(60_000);
	});
});
