import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordOwnRun } from '../../../src/core/runStore/ownRuns.js';
import { markStep } from '../../../src/core/plans/markStep.js';
import { planFromRun } from '../../../src/core/plans/planRequests.js';
import {
	listPlans,
	planRelPath,
	resolvePlan,
	savePlan,
	writePlanText,
} from '../../../src/core/plans/planStore.js';
import { makeTree } from '../../support/tempTree.js';

/** The planning run's record, as runSession writes it into `result.json`. */
const planningRun = (root: string, id: string, planId = id) => {
	mkdirSync(join(root, '.massgen/runs', id), { recursive: true });
	writeFileSync(
		join(root, '.massgen/runs', id, 'result.json'),
		JSON.stringify({
			question: 'Plan the task',
			status: 'completed',
			winner: null,
			plan: { kind: 'planning', planId, depth: 'shallow', task: 'Task' },
		}),
	);
};

const planText = (id: string, created: string) =>
	planFromRun(
		{ winner: { agentId: 'a', label: 'l' }, answers: [], finalAnswer: '1. **Do it**\n   Verify: test\n' },
		{ id, task: 'Task', depth: 'shallow', run: id, created },
	);

describe('the plan store', () => {
	it('saves a plan once, resolves it by id, path and latest (made here only), and rewrites it', async () => {
		const root = await makeTree({ 'src/a.ts': 'a\n' });
		const env = { XDG_STATE_HOME: await makeTree() };
		const mine = '20261203-150000-aaaa';
		const planted = '20261203-160000-bbbb';
		await recordOwnRun(root, mine, env);
		planningRun(root, mine);
		const path = await savePlan(root, mine, planText(mine, '2026-12-03T15:00:00.000Z'));
		expect(planRelPath(root, path)).toBe(`.massgen/plans/${mine}.md`);
		await expect(savePlan(root, mine, 'again')).rejects.toThrow(/EEXIST/);
		// A newer plan the repository ships: listed, never `latest`.
		writeFileSync(
			join(root, '.massgen/plans', `${planted}.md`),
			planText(planted, '2026-12-03T16:00:00.000Z'),
		);
		const listed = await listPlans(root, env);
		// The user's own first, though the planted one says it is newer.
		expect(listed.map((p) => [p.doc?.meta.id, p.madeHere])).toEqual([
			[mine, true],
			[planted, false],
		]);
		expect((await resolvePlan(root, 'latest', env)).doc.meta.id).toBe(mine);
		expect((await resolvePlan(root, planted, env)).madeHere).toBe(false);
		expect((await resolvePlan(root, `.massgen/plans/${mine}.md`, env)).path).toBe(path);
		const marked = markStep(readFileSync(path, 'utf8'), 1, { done: true, runId: mine });
		await writePlanText(path, marked);
		expect((await resolvePlan(root, mine, env)).doc.steps[0]!.done).toBe(true);
	});

	it('refuses links, FIFOs, huge files and a linked plans folder, with the reason', async () => {
		const root = await makeTree();
		const env = { XDG_STATE_HOME: await makeTree() };
		const outside = await makeTree({ 'p.md': planText('20261203-150000-aaaa', 'x') });
		mkdirSync(join(root, '.massgen/plans'), { recursive: true });
		symlinkSync(join(outside, 'p.md'), join(root, '.massgen/plans/20261203-150000-cccc.md'));
		await expect(resolvePlan(root, '20261203-150000-cccc', env)).rejects.toThrow(/is a link/);
		execFileSync('mkfifo', [join(root, 'fifo.md')]);
		await expect(resolvePlan(root, 'fifo.md', env)).rejects.toThrow(/cannot read .*fifo/);
		writeFileSync(join(root, 'big.md'), 'x'.repeat(1024 * 1024 + 1));
		await expect(resolvePlan(root, 'big.md', env)).rejects.toThrow(/over 1 MiB/);
		await expect(resolvePlan(root, 'latest', env)).rejects.toThrow(/no plan made on this machine/);
		await expect(resolvePlan(root, 'nothing.md', env)).rejects.toThrow(/no plan at/);
		const linked = await makeTree();
		mkdirSync(join(linked, '.massgen'));
		symlinkSync(outside, join(linked, '.massgen/plans'));
		await expect(savePlan(linked, '20261203-150000-aaaa', 'x')).rejects.toThrow(
			/is a link .*plans are kept only inside/,
		);
		await expect(writePlanText(join(root, '.massgen/plans/20261203-150000-cccc.md'), 'x')).rejects.toThrow(
			/not a regular file/,
		);
		expect(readFileSync(join(outside, 'p.md'), 'utf8')).toContain('**Do it**');
	});

	it('takes a plan as made here only when it is the file a planning run of this machine saved', async () => {
		const root = await makeTree();
		const env = { XDG_STATE_HOME: await makeTree() };
		const plan = '20261203-150000-aaaa';
		const chat = '20261203-151000-cccc';
		await recordOwnRun(root, plan, env);
		await recordOwnRun(root, chat, env);
		planningRun(root, plan);
		// An ordinary run of the user's (a chat): no plan record.
		mkdirSync(join(root, '.massgen/runs', chat), { recursive: true });
		writeFileSync(
			join(root, '.massgen/runs', chat, 'result.json'),
			JSON.stringify({ question: 'hi', status: 'completed', winner: null }),
		);
		await savePlan(root, plan, planText(plan, '2026-12-03T15:00:00.000Z'));
		const planted = (name: string, id: string, run: string) =>
			writeFileSync(
				join(root, '.massgen/plans', name),
				planText(id, '2099-01-01T00:00:00.000Z').replace(`run: ${id}`, `run: ${run}`),
			);
		// Newer, each naming a run the user made: the planning run under another name, the chat run.
		planted('20991231-000000-ffff.md', '20991231-000000-ffff', plan);
		planted('copy.md', plan, plan);
		planted(`${chat}.md`, chat, chat);
		const listed = await listPlans(root, env);
		expect(listed.filter((p) => p.madeHere).map((p) => p.path)).toEqual([
			join(root, '.massgen/plans', `${plan}.md`),
		]);
		expect((await resolvePlan(root, 'latest', env)).path).toBe(join(root, '.massgen/plans', `${plan}.md`));
		expect((await resolvePlan(root, '.massgen/plans/copy.md', env)).madeHere).toBe(false);
	});

	it('reads a plan in the workspace only through real folders, and writes nothing through a link', async () => {
		const root = await makeTree();
		const env = { XDG_STATE_HOME: await makeTree() };
		const id = '20261203-150000-aaaa';
		const text = planText(id, 'x');
		const outside = await makeTree({ [`plans/${id}.md`]: text, 'docs/p.md': text });
		symlinkSync(outside, join(root, '.massgen'));
		symlinkSync(join(outside, 'docs'), join(root, 'docs'));
		await expect(resolvePlan(root, `.massgen/plans/${id}.md`, env)).rejects.toThrow(
			'.massgen is a link: a plan in the workspace is read only through real folders',
		);
		await expect(resolvePlan(root, `${root}/docs/p.md`, env)).rejects.toThrow('docs is a link');
		await expect(resolvePlan(root, id, env)).rejects.toThrow(/is a link/);
		// Outside the workspace, a path the user names is read.
		expect((await resolvePlan(root, join(outside, 'docs/p.md'), env)).doc.meta.id).toBe(id);
	});
});
