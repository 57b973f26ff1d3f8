/**
 * Post-evaluation end to end through the built CLI (`orchestrator.coordination.max_orchestration_restarts`,
 * a scripted team): the winner's evaluation restarts once, the second attempt's answer and change are
 * final, `result.json` records the restart, the terminal says so, and the workspace is untouched
 * without `--apply`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCli } from './cliProcess.js';

const made: string[] = [];
afterAll(() => {
	for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function scripted(answers: string[], presentation: string[], evaluation: object[]) {
	return {
		type: 'scripted',
		script: {
			coordination: answers.flatMap((text) => [{ answer: text }, { vote: 'first' }]),
			presentation: { text: presentation[0], edits: [{ path: 'plan.md', content: `${presentation[0]}\n` }] },
			evaluation,
		},
	};
}

const evaluation = [
	{ restart: { reason: 'the plan skips the tests', instructions: 'add a test step' } },
	{ submit: true },
];

describe('massgen run with max_orchestration_restarts', () => {
	it('restarts once on the evaluator’s verdict; the second attempt is final and nothing is written', async () => {
		const root = mkdtempSync(join(tmpdir(), 'massgen-posteval-ws-'));
		made.push(root);
		writeFileSync(join(root, 'README.md'), 'readme\n');
		const config = join(root, '..', `${root.split('/').pop()}-team.yaml`);
		made.push(config);
		writeFileSync(
			config,
			stringify({
				// Either agent may win (the anonymous order is shuffled): both evaluate alike.
				agents: ['lead', 'peer'].map((id) => ({
					id,
					backend: scripted([`${id} A`, `${id} B`], [`${id}'s plan`], evaluation),
				})),
				orchestrator: { coordination: { max_orchestration_restarts: 1 } },
			}),
		);
		const run = await runCli(['run', '--config', config, 'Plan the release'], { cwd: root });
		expect(run.code, run.stderr).toBe(0);
		expect(run.stderr).toContain('the answer is incomplete, restarting: the plan skips the tests');
		expect(run.stderr).toContain('attempt 2: coordination starts again (the plan skips the tests)');
		expect(readdirSync(root).sort()).toEqual(['.massgen', 'README.md']);

		const runs = join(root, '.massgen', 'runs');
		const dir = join(runs, readdirSync(runs)[0]!);
		const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as {
			restarts: { attempt: number; reason: string; instructions: string }[];
			changes: { path: string }[];
			status: string;
		};
		expect(result.status).toBe('completed');
		expect(result.restarts).toMatchObject([
			{ attempt: 1, reason: 'the plan skips the tests', instructions: 'add a test step' },
		]);
		expect(result.changes.map((change) => change.path)).toEqual(['plan.md']);
		const types = readFileSync(join(dir, 'events.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map((line) => (JSON.parse(line) as { type: string }).type);
		expect(types.filter((type) => type === 'evaluation-start')).toHaveLength(1);
		expect(types.filter((type) => type === 'attempt-start')).toHaveLength(1);
		expect(types.filter((type) => type === 'winner-selected')).toHaveLength(2);
	}, 60_000);
});
