/**
 * A plan's runs as both shells start them (`runSession` on the loopback team): a plan run reads
 * only and proposes no change, whatever its presenter tries; a plan step starts from the earlier
 * steps' unwritten proposal; each keeps its part in the plan in `result.json`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';
import { ApprovalBroker } from '../../../src/core/permissions/approvalBroker.js';
import { runSession, type RunSessionOptions } from '../../../src/core/run/runSession.js';
import { listRuns } from '../../../src/core/runStore/listRuns.js';
import { readRunResult } from '../../../src/core/runStore/readResult.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { startLoopbackTeam, type LoopbackTeam } from '../../servers/loopbackTeam.js';
import { hashTree } from '../../support/tempTree.js';

const shippedConfigsDir = join(__dirname, '..', '..', '..', 'configs');
const teams: LoopbackTeam[] = [];
afterEach(async () => {
	await Promise.all(teams.splice(0).map((team) => team.close()));
});

async function start(team: LoopbackTeam, root: string, overrides: Partial<RunSessionOptions>) {
	const file = join(root, '..', `${Math.random().toString(36).slice(2)}-team.yaml`);
	writeFileSync(file, team.configYaml());
	const loaded = loadConfigText(team.configYaml(), file);
	return runSession({
		team: { config: loaded.config!, file },
		keys: { env: {} },
		workspaceRoot: root,
		question: 'Plan it.',
		signal: new AbortController().signal,
		shippedConfigsDir,
		tools: { broker: new ApprovalBroker({ policy: () => ({ decision: 'deny' }) }), trusted: true },
		onEvent: () => {},
		...overrides,
	});
}

describe('a plan run and a plan step (runSession, loopback team)', () => {
	it('a plan run: every agent read-only (no write tool offered to any server), no change set, its record kept', async () => {
		const team = await startLoopbackTeam({
			auto: { presentationWrites: [{ path: 'a.ts', content: 'export const a = 2;\n' }] },
		});
		teams.push(team);
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const before = hashTree(root);
		// The shell cannot know the run's id: the record is named by it whatever planId says.
		const record = { kind: 'planning', planId: '', depth: 'deep', task: 'Plan it.' } as const;
		const { result, runDir } = await start(team, root, { readOnly: true, plan: record });
		expect(result.status).toBe('completed');
		const offered = Object.values(team.servers).flatMap((server) =>
			server.requests.filter((r) => r.method === 'POST').flatMap((r) => r.prompt.tools.map((t) => t.name)),
		);
		expect(offered).toContain('read_file');
		expect(offered.filter((name) => /write|edit|delete|run_command/.test(name))).toEqual([]);
		expect(result.changes).toEqual([]);
		expect(result.plan).toEqual({ ...record, planId: result.runId });
		const read = await readRunResult(runDir, result.runId);
		expect(read.ok && read.result.plan).toEqual({ ...record, planId: result.runId });
		expect(hashTree(root, (rel) => rel.startsWith('.massgen'))).toEqual(before);
		expect(JSON.parse(readFileSync(join(runDir, 'result.json'), 'utf8')).changes).toEqual([]);
	});

	it('a plan run of a task longer than the run store reads back keeps its record, the task cut', async () => {
		const team = await startLoopbackTeam({});
		teams.push(team);
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const task = 'x'.repeat(30_000);
		const record = { kind: 'planning', planId: '', depth: 'medium', task } as const;
		const { result, runDir } = await start(team, root, { readOnly: true, plan: record });
		const read = await readRunResult(runDir, result.runId);
		expect(read.ok && read.result.plan).toEqual({
			...record,
			planId: result.runId,
			task: task.slice(0, 20_000),
		});
		expect((await listRuns(root)).find((run) => run.runId === result.runId)?.plan?.kind).toBe('planning');
	});

	it("a plan step starts from the earlier steps' proposal (not written), and lists with its record", async () => {
		const team = await startLoopbackTeam({
			auto: { presentationWrites: [{ path: 'b.ts', content: 'export const b = 1;\n' }] },
		});
		teams.push(team);
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const before = hashTree(root);
		const record = { kind: 'step', planId: 'p', step: 2, of: 3, title: 'Add b' } as const;
		const { result } = await start(team, root, {
			question: 'Carry out step 2.',
			startFrom: {
				fromRunId: '20261203-150000-aaaa',
				files: [{ path: 'a.ts', content: 'export const a = 2;\n' }],
			},
			plan: record,
		});
		expect(result.status).toBe('completed');
		// Against the disk: step 1's unwritten change is in the set with step 2's own.
		expect(result.changes.map((c) => [c.path, c.content])).toEqual([
			['a.ts', 'export const a = 2;\n'],
			['b.ts', 'export const b = 1;\n'],
		]);
		expect(result.revision).toBeUndefined();
		expect(hashTree(root, (rel) => rel.startsWith('.massgen'))).toEqual(before);
		const env = process.env;
		const listed = await listRuns(root, env);
		expect(listed.find((run) => run.runId === result.runId)?.plan).toEqual(record);
	});

	it('a step whose earlier proposal names a path the tools may not write is refused before any run', async () => {
		const team = await startLoopbackTeam();
		teams.push(team);
		const root = makeWorkspaceDir({ 'a.ts': 'x\n' });
		await expect(
			start(team, root, { startFrom: { fromRunId: 'r', files: [{ path: '../outside.ts', content: 'x' }] } }),
		).rejects.toThrow(/cannot send the earlier plan steps' changes to the team/);
		expect(Object.values(team.servers).every((server) => server.requests.length === 0)).toBe(true);
	});
});
