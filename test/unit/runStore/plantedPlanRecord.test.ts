/**
 * A `result.json` a repository planted with a plan record (`contract/plan.ts`): the shells name the
 * run by it and look its plan up as `.massgen/plans/<planId>.md`, so a record that is not one a run
 * of ours could write reads as none.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResultSummary, readRunResult } from '../../../src/core/runStore/readResult.js';
import { makeTree } from '../../support/tempTree.js';

const runId = '20260101-000000-abcd';

async function planted(plan: unknown): Promise<string> {
	const root = await makeTree();
	const runDir = join(root, '.massgen/runs', runId);
	mkdirSync(runDir, { recursive: true });
	writeFileSync(
		join(runDir, 'result.json'),
		JSON.stringify({
			runId,
			question: 'q',
			status: 'completed',
			winner: null,
			answers: [],
			votes: [],
			finalAnswer: null,
			changes: [],
			usage: [],
			durationMs: 1,
			plan,
		}),
	);
	return runDir;
}

describe('a planted plan record', () => {
	it.each([
		['a plan id that is a path', { kind: 'all', planId: '../../../etc/passwd', of: 2 }],
		['a plan id with a slash', { kind: 'planning', planId: 'a/b', depth: 'medium', task: 't' }],
		['a step past the plan', { kind: 'step', planId: runId, step: 9, of: 2, title: 't' }],
		['a plan of a million steps', { kind: 'all', planId: runId, of: 1_000_000 }],
		['a step of a fraction', { kind: 'step', planId: runId, step: 1.5, of: 2, title: 't' }],
	])('reads as none: %s', async (_, plan) => {
		const runDir = await planted(plan);
		expect((await readResultSummary(runDir))?.plan).toBeUndefined();
		const read = await readRunResult(runDir, runId);
		expect(read.ok && read.result.plan).toBeUndefined();
	});

	it('one a run of ours writes is read', async () => {
		const plan = { kind: 'step', planId: runId, step: 2, of: 3, title: 'Print the lines' };
		const runDir = await planted(plan);
		expect((await readResultSummary(runDir))?.plan).toEqual(plan);
	});
});
