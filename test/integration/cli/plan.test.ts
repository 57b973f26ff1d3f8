/**
 * `massgen plan` through `dist/cli.js` with three loopback agents (OpenAI Responses, Anthropic,
 * Gemini; the real SDKs). Each agent answers the planning question with its own plan: two share
 * a step the third lacks, so the stored plan's agreement marks come from the agents' plans. Step
 * runs are told apart by the step their question names; the presenter writes that step's file.
 * Covered: the stored plan and its marks; `--execute latest` without `--apply` (requests carry the
 * step and the plan, nothing written, step 2 starts from step 1's proposal, one session);
 * `run --plan-and-execute --apply` end to end; an edited plan is what executes; a failing step
 * stops with its reason in the file and a second `--execute` continues from it.
 */
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PresentationWrite } from '../../servers/autoAgent.js';
import { startLoopbackTeam, type LoopbackTeam } from '../../servers/loopbackTeam.js';
import type { PromptView, Reply } from '../../servers/types.js';
import { hashTree, makeWorkspaceDir } from '../../support/tempTree.js';
import { runCli } from './cliProcess.js';

interface Step {
	readonly title: string;
	readonly file: string;
	readonly content: string;
	/** Its own words: steps match across plans by their words and files (`planAgreement`). */
	readonly details: string;
}

const greet: Step = {
	title: 'Create greet.ts with a greet function',
	file: 'greet.ts',
	content: 'export const greet = (name: string) => `Hello, ${name}`;\n',
	details: 'A function taking a name and returning the salutation.',
};
const exported: Step = {
	title: 'Export greet from index.ts',
	file: 'index.ts',
	content: "export { greet } from './greet';\n",
	details: 'Re-export it so callers import from the package root.',
};
const tested: Step = {
	title: 'Cover greet with a unit test',
	file: 'greet.test.ts',
	content: "test('greet', () => expect(greet('a')).toBe('Hello, a'));\n",
	details: 'One assertion on the returned string.',
};
const readme: Step = {
	title: 'Describe the module for readers in README.md',
	file: 'README.md',
	content: '# Greeting\n',
	details: 'Usage notes with an example call.',
};
/** What the edited-plan test rewords step 1 into. */
const hello: Step = {
	title: 'Create hello.ts with a hello function',
	file: 'hello.ts',
	content: 'export const hello = () => "hello";\n',
	details: 'A constant function.',
};

/** Each agent's plan, by model: the OpenAI agent's (voted the winner: `votePlanner`) has all three steps. */
const plans: Record<string, readonly Step[]> = {
	'gpt-5-mini': [greet, exported, tested],
	'claude-haiku-4-5': [greet, exported],
	'gemini-2.5-flash': [greet, readme],
};

const planText = (steps: readonly Step[]) =>
	[
		'# Plan: Add a greeting',
		'',
		...steps.flatMap((step, i) => [
			`${i + 1}. **${step.title}**`,
			`   Files: \`${step.file}\``,
			'   Risk: low — one small file',
			`   Verify: read ${step.file}`,
			`   ${step.details}`,
			'',
		]),
	].join('\n');

/** The question of the turn the prompt is for (the last ORIGINAL MESSAGE; history comes before it). */
const asked = (prompt: PromptView): string => {
	const all = [prompt.system, ...prompt.texts].join('\n');
	const blocks = [...all.matchAll(/<ORIGINAL MESSAGE>\n([\s\S]*?)\n<\/ORIGINAL MESSAGE>/g)];
	return blocks.at(-1)?.[1] ?? '';
};
const stepAsked = (prompt: PromptView) =>
	/^Carry out step (\d+) of (\d+) of the plan attached above \([^)]*\), and only that step: (.*)$/m.exec(
		asked(prompt),
	);

/**
 * In the planning run every agent votes for the plan with the test step (the OpenAI agent's), so the
 * winner does not depend on the run's shuffled anonymous order; other votes are the auto-agent's.
 */
const votePlanner = (prompt: PromptView): Reply | undefined => {
	if (!prompt.tools.some((tool) => tool.name === 'vote')) return undefined;
	const all = [prompt.system, ...prompt.texts].join('\n');
	for (const answer of all.matchAll(/<answer id="(agent\d+)">([\s\S]*?)<\/answer>/g)) {
		if (answer[2]!.includes(tested.title)) {
			const reason = 'It plans a test.';
			return { turn: { toolCalls: [{ name: 'vote', arguments: { agent_id: answer[1], reason } }] } };
		}
	}
	return undefined;
};

/** The plan a step's run was given: its text attachment. */
const planAttached = (prompt: PromptView): string =>
	/<attachment kind="text" source="plan [^"]*">\n([\s\S]*?)<\/attachment>/.exec(
		[prompt.system, ...prompt.texts].join('\n'),
	)?.[1] ?? '';

/** The step a run's presenter carries out: the file of the step whose title the question names. */
const writes = (prompt: PromptView): PresentationWrite[] => {
	// All steps as one run: every step's file.
	if (/^Carry out the plan attached above/m.test(asked(prompt))) {
		return [greet, exported, tested].map((s) => ({ path: s.file, content: s.content }));
	}
	const step = stepAsked(prompt);
	if (!step) return [];
	const known = [greet, exported, tested, readme, hello].find((s) => s.title === step[3]!.trim());
	return known ? [{ path: known.file, content: known.content }] : [];
};

interface Stored {
	runId: string;
	startedAt: string;
	status: string;
	plan?: Record<string, unknown>;
	session?: { id: string; parentRunId: string | null };
	changes: { path: string; base: string | null; content: string | null }[];
}

/** The workspace's runs in the order they started (two ids of one second sort by their random part). */
const runsOf = (root: string): Stored[] =>
	readdirSync(join(root, '.massgen', 'runs'))
		.map(
			(id) => JSON.parse(readFileSync(join(root, '.massgen', 'runs', id, 'result.json'), 'utf8')) as Stored,
		)
		.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
const planFile = (root: string, id: string) =>
	readFileSync(join(root, '.massgen', 'plans', `${id}.md`), 'utf8');
const outsideMassgen = (rel: string) => rel.startsWith('.massgen');

describe('massgen plan', () => {
	let team: LoopbackTeam;
	/** Step runs whose question names this step fail (every agent's key is rejected). */
	let failStep: number | null = null;
	beforeAll(async () => {
		team = await startLoopbackTeam({
			auto: {
				answer: (prompt) =>
					stepAsked(prompt) ? `Done: ${stepAsked(prompt)![3]}` : planText(plans[prompt.model] ?? []),
				presentation: (prompt) =>
					stepAsked(prompt) ? `Carried out: ${stepAsked(prompt)![3]}` : planText(plans[prompt.model] ?? []),
				presentationWrites: writes,
			},
			script: (request) => {
				if (request.method !== 'POST') return undefined;
				if (failStep !== null && stepAsked(request.prompt)?.[1] === String(failStep)) {
					return { status: 401, message: 'loopback: key rejected' };
				}
				return votePlanner(request.prompt);
			},
		});
	});
	afterAll(() => team.close());

	const workspace = () => {
		const root = makeWorkspaceDir({ 'notes.md': 'A small project.\n' });
		const config = join(root, '..', `${root.split('/').pop()}-team.yaml`);
		writeFileSync(config, stringify({ agents: team.agents.slice(0, 3) }));
		return { root, config };
	};
	const requestsSince = () => {
		const seen = Object.fromEntries(Object.entries(team.servers).map(([n, s]) => [n, s.requests.length]));
		return () =>
			Object.entries(team.servers).flatMap(([n, s]) =>
				s.requests.slice(seen[n]).filter((r) => r.method === 'POST'),
			);
	};

	it('stores the voted plan, each step marked with how many agents planned it', async () => {
		const { root, config } = workspace();
		const before = hashTree(root, outsideMassgen);
		const planned = await runCli(['plan', '--config', config, '--json', 'Add a greeting'], { cwd: root });
		expect(planned.code, planned.stderr).toBe(0);
		// Planning wrote nothing but the run log and the plan.
		expect(hashTree(root, outsideMassgen)).toEqual(before);
		const [run] = runsOf(root);
		expect(run!.plan).toEqual({
			kind: 'planning',
			planId: run!.runId,
			depth: 'medium',
			task: 'Add a greeting',
		});
		expect(run!.changes).toEqual([]);
		const json = JSON.parse(planned.stdout) as {
			plan: {
				id: string;
				path: string;
				agents: number;
				steps: { index: number; title: string; agreement: string }[];
			};
		};
		const path = join(root, '.massgen', 'plans', `${run!.runId}.md`);
		expect(planned.stderr).toContain(`plan: ${path}`);
		expect(json.plan).toMatchObject({ id: run!.runId, path, agents: 3 });
		expect(json.plan.steps.map((s) => [s.index, s.title, s.agreement])).toEqual([
			[1, greet.title, '3 of 3'],
			[2, exported.title, '2 of 3'],
			[3, tested.title, 'only the winner'],
		]);
		const text = planFile(root, run!.runId);
		expect(text).toContain(`- [ ] **${greet.title}** · 3 of 3`);
		expect(text).toContain(`- [ ] **${exported.title}** · 2 of 3`);
		expect(text).toContain(`- [ ] **${tested.title}** · only the winner`);
		// The runner-up's own step is not in the plan.
		expect(text).not.toContain(readme.title);
		// `massgen runs` names the run by its part in the plan.
		const runs = await runCli(['runs'], { cwd: root });
		expect(runs.stdout).toContain('Plan: Add a greeting');
		const shown = await runCli(['show', run!.runId], { cwd: root });
		expect(shown.stdout).toContain(`plan      Plan: Add a greeting (plan ${run!.runId})`);
	});

	it('--execute latest runs one step per run, writes nothing, and starts each step from the proposal so far', async () => {
		const { root, config } = workspace();
		const planned = await runCli(['plan', '--config', config, 'Add a greeting'], { cwd: root });
		expect(planned.code, planned.stderr).toBe(0);
		// stdout is the plan document.
		const [planning] = runsOf(root);
		expect(planned.stdout.trimEnd()).toBe(planFile(root, planning!.runId).trimEnd());
		const before = hashTree(root, outsideMassgen);
		const requests = requestsSince();

		const executed = await runCli(['plan', '--config', config, '--execute', 'latest'], { cwd: root });
		expect(executed.code, executed.stderr).toBe(0);
		expect(hashTree(root, outsideMassgen)).toEqual(before);

		// Every model call of step 1's run names step 1 and carries the plan as it is on disk.
		const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
		const step1 = requests().filter((r) => stepAsked(r.prompt)?.[1] === '1');
		expect(step1.length).toBeGreaterThanOrEqual(3);
		const relPath = `.massgen/plans/${planning!.runId}.md`;
		for (const request of step1) {
			expect(request.rawBody).toContain(
				escaped(
					`Carry out step 1 of 3 of the plan attached above (${relPath}), and only that step: ${greet.title}`,
				),
			);
			expect(request.rawBody).toContain(escaped(`**${exported.title}** · 2 of 3`));
		}
		const [, run1, run2, run3] = runsOf(root);
		expect([run1, run2, run3].map((r) => r!.plan)).toEqual([
			{ kind: 'step', planId: planning!.runId, step: 1, of: 3, title: greet.title },
			{ kind: 'step', planId: planning!.runId, step: 2, of: 3, title: exported.title },
			{ kind: 'step', planId: planning!.runId, step: 3, of: 3, title: tested.title },
		]);
		// One session: the planning run, then each step after the one before.
		expect([run1, run2, run3].map((r) => r!.session)).toEqual([
			{ id: planning!.runId, parentRunId: planning!.runId },
			{ id: planning!.runId, parentRunId: run1!.runId },
			{ id: planning!.runId, parentRunId: run2!.runId },
		]);
		// Step 2's copy held step 1's proposal: its change set has greet.ts against the disk (no file there).
		const files = (run: Stored) => Object.fromEntries(run.changes.map((c) => [c.path, [c.base, c.content]]));
		expect(files(run1!)).toEqual({ 'greet.ts': [null, greet.content] });
		expect(files(run2!)).toEqual({ 'greet.ts': [null, greet.content], 'index.ts': [null, exported.content] });
		expect(files(run3!)).toEqual({
			'greet.ts': [null, greet.content],
			'index.ts': [null, exported.content],
			'greet.test.ts': [null, tested.content],
		});
		// Proposed, not ticked; the last run's change set is the one to apply.
		const text = planFile(root, planning!.runId);
		for (const [run, step] of [
			[run1, greet],
			[run2, exported],
			[run3, tested],
		] as const) {
			expect(text).toContain(`- [ ] **${step.title}**`);
			expect(text).toMatch(
				new RegExp(`\\*\\*${step.title}\\*\\*[^\\n]*\\n(?:  [^\\n]*\\n|\\n)*?  - Run: ${run!.runId}\\n`),
			);
		}
		expect(executed.stderr).toContain(
			`3 proposed change(s), nothing written: ${join(root, '.massgen', 'runs', run3!.runId, 'changes.patch')}`,
		);
		expect(executed.stdout).toContain(`## Step 2 of 3: ${exported.title}\n\nCarried out: ${exported.title}`);

		const listed = await runCli(['runs'], { cwd: root });
		expect(listed.stdout).toContain(`Plan step 2 of 3: ${exported.title}`);

		// Run again, nothing is left: the proposed steps are carried, not repeated.
		const again = await runCli(['plan', '--config', config, '--execute', planning!.runId], { cwd: root });
		expect(again.code, again.stderr).toBe(0);
		expect(again.stderr).toContain('is done or proposed');
		expect(runsOf(root)).toHaveLength(4);
	});

	it('run --plan-and-execute --apply plans, then carries out and ticks every step, writing each', async () => {
		const { root, config } = workspace();
		const done = await runCli(
			['run', '--plan-and-execute', '--apply', '--config', config, 'Add a greeting'],
			{
				cwd: root,
			},
		);
		expect(done.code, done.stderr).toBe(0);
		expect(readFileSync(join(root, 'greet.ts'), 'utf8')).toBe(greet.content);
		expect(readFileSync(join(root, 'index.ts'), 'utf8')).toBe(exported.content);
		expect(readFileSync(join(root, 'greet.test.ts'), 'utf8')).toBe(tested.content);
		const [planning, ...steps] = runsOf(root);
		expect(steps).toHaveLength(3);
		const text = planFile(root, planning!.runId);
		for (const [run, step] of steps.map((run, i) => [run, [greet, exported, tested][i]!] as const)) {
			expect(text).toContain(`- [x] **${step.title}**`);
			expect(text).toContain(`  - Run: ${run.runId}\n`);
			// Each step's run was applied (and can be reverted): its change record says so.
			expect(readFileSync(join(root, '.massgen', 'runs', run.runId, 'changes-log.jsonl'), 'utf8')).toContain(
				'"by":"cli"',
			);
		}
		// With --apply a step starts from the disk, where the earlier steps are: each run has its own file only.
		expect(steps.map((run) => run.changes.map((c) => c.path))).toEqual([
			['greet.ts'],
			['index.ts'],
			['greet.test.ts'],
		]);
	});

	it('executes the plan as the user edited it: a step reworded, one deleted, the order changed', async () => {
		const { root, config } = workspace();
		const planned = await runCli(['plan', '--config', config, 'Add a greeting'], { cwd: root });
		expect(planned.code, planned.stderr).toBe(0);
		const [planning] = runsOf(root);
		const path = join(root, '.massgen', 'plans', `${planning!.runId}.md`);
		const original = planFile(root, planning!.runId);
		const item = (title: string) => {
			const start = original.indexOf(`- [ ] **${title}**`);
			const next = original.indexOf('\n- [ ] ', start + 1);
			return original.slice(start, next < 0 ? undefined : next + 1);
		};
		const head = original.slice(0, original.indexOf('- [ ] '));
		const reworded = item(greet.title).replace(greet.title, hello.title).replaceAll('greet.ts', 'hello.ts');
		// Step 2 first, then the reworded step 1; step 3 deleted; a note of the user's.
		writeFileSync(path, `${head}- [ ] **${exported.title}**\n  Keep the export list sorted.\n\n${reworded}`);
		const requests = requestsSince();

		const executed = await runCli(['plan', '--config', config, '--execute', path, '--apply'], { cwd: root });
		expect(executed.code, executed.stderr).toBe(0);
		const questions = requests()
			.map((r) => stepAsked(r.prompt))
			.filter((m) => m !== null)
			.map((m) => `${m[1]}/${m[2]}: ${m[3]}`);
		expect([...new Set(questions)]).toEqual([`1/2: ${exported.title}`, `2/2: ${hello.title}`]);
		// The plan every agent was given is the edited one (the history still has the team's own plan).
		const given = requests()
			.filter((r) => stepAsked(r.prompt))
			.map((r) => planAttached(r.prompt));
		expect(given.length).toBeGreaterThanOrEqual(6);
		for (const plan of given) {
			expect(plan).toMatch(
				/\*\*Export greet from index\.ts\*\*\n(?: {2}- Run: \S+\n)? {2}Keep the export list sorted\.\n/,
			);
			expect(plan).toContain(`**${hello.title}**`);
			expect(plan).not.toContain(tested.title);
		}
		expect(readFileSync(join(root, 'index.ts'), 'utf8')).toBe(exported.content);
		expect(readFileSync(join(root, 'hello.ts'), 'utf8')).toBe(hello.content);
		expect(readdirSync(root).sort()).toEqual(['.massgen', 'hello.ts', 'index.ts', 'notes.md']);
		const text = readFileSync(path, 'utf8');
		expect(text).toMatch(
			/- \[x\] \*\*Export greet from index\.ts\*\*\n {2}- Run: \S+\n {2}Keep the export list sorted\.\n/,
		);
		expect(text).toContain(`- [x] **${hello.title}**`);
	});

	it('a failing step stops execution with its reason in the plan; --execute again continues from it', async () => {
		const { root, config } = workspace();
		const planned = await runCli(['plan', '--config', config, 'Add a greeting'], { cwd: root });
		expect(planned.code, planned.stderr).toBe(0);
		const [planning] = runsOf(root);
		failStep = 2;
		let stopped;
		try {
			stopped = await runCli(['plan', '--config', config, '--execute', 'latest', '--apply'], { cwd: root });
		} finally {
			failStep = null;
		}
		expect(stopped.code, stopped.stderr).toBe(2);
		expect(stopped.stderr).toContain('step 2 stopped: the run failed');
		const [, run1, run2] = runsOf(root);
		expect(run2!.status).toBe('failed');
		expect(readFileSync(join(root, 'greet.ts'), 'utf8')).toBe(greet.content);
		expect(readdirSync(root).sort()).toEqual(['.massgen', 'greet.ts', 'notes.md']);
		let text = planFile(root, planning!.runId);
		expect(text).toContain(`- [x] **${greet.title}**`);
		expect(text).toMatch(
			new RegExp(
				`- \\[ \\] \\*\\*${exported.title}\\*\\*[^\\n]*\\n(?:  [^\\n]*\\n|\\n)*?  - Run: ${run2!.runId}\\n  > Stopped: the run failed`,
			),
		);
		expect(text).not.toContain(`Run: ${run1!.runId}\n  > Stopped`);

		const requests = requestsSince();
		const resumed = await runCli(['plan', '--config', config, '--execute', 'latest', '--apply'], {
			cwd: root,
		});
		expect(resumed.code, resumed.stderr).toBe(0);
		const steps = new Set(requests().map((r) => stepAsked(r.prompt)?.[1]));
		expect([...steps].sort()).toEqual(['2', '3']);
		text = planFile(root, planning!.runId);
		expect(text).not.toContain('Stopped:');
		expect(text).toContain(`- [x] **${exported.title}**`);
		expect(text).toContain(`- [x] **${tested.title}**`);
		expect(readFileSync(join(root, 'index.ts'), 'utf8')).toBe(exported.content);
		// The resumed step follows the failed run: the plan is still one session.
		const [, , , run4] = runsOf(root);
		expect(run4!.session).toEqual({ id: planning!.runId, parentRunId: run2!.runId });
	});

	it('--all-in-one carries out every step left in one run, marks each with it, and --json reports it', async () => {
		const { root, config } = workspace();
		const planned = await runCli(['plan', '--config', config, 'Add a greeting'], { cwd: root });
		expect(planned.code, planned.stderr).toBe(0);
		const [planning] = runsOf(root);
		const requests = requestsSince();
		const all = await runCli(
			['plan', '--config', config, '--execute', 'latest', '--all-in-one', '--apply', '--json'],
			{
				cwd: root,
			},
		);
		expect(all.code, all.stderr).toBe(0);
		const [, run] = runsOf(root);
		expect(runsOf(root)).toHaveLength(2);
		expect(run!.plan).toEqual({ kind: 'all', planId: planning!.runId, of: 3 });
		const question = requests().map((r) => asked(r.prompt))[0]!;
		expect(question).toContain(`1. ${greet.title}\n2. ${exported.title}\n3. ${tested.title}`);
		const json = JSON.parse(all.stdout) as {
			plan: { steps: { done: boolean; runId: string }[] };
			planning: null;
			execution: {
				exitCode: number;
				runs: { steps: number[]; runId: string; outcome: string }[];
				pending: null;
			};
		};
		expect(run!.changes.map((c) => c.path).sort()).toEqual(['greet.test.ts', 'greet.ts', 'index.ts']);
		expect(readFileSync(join(root, 'index.ts'), 'utf8')).toBe(exported.content);
		expect(json.planning).toBeNull();
		expect(json.execution).toMatchObject({
			exitCode: 0,
			runs: [{ steps: [1, 2, 3], runId: run!.runId, outcome: 'done' }],
			pending: null,
		});
		expect(json.plan.steps.map((step) => [step.done, step.runId])).toEqual([
			[true, run!.runId],
			[true, run!.runId],
			[true, run!.runId],
		]);
	});

	it('never writes through a linked plans folder, never reads a linked plan, and latest skips plans that came with the folder', async () => {
		const { root, config } = workspace();
		const elsewhere = makeWorkspaceDir();
		mkdirSync(join(root, '.massgen'));
		symlinkSync(elsewhere, join(root, '.massgen', 'plans'));
		const planned = await runCli(['plan', '--config', config, 'Add a greeting'], { cwd: root });
		expect(planned.code, planned.stderr).toBe(1);
		expect(planned.stderr).toContain('the plan was not saved');
		expect(readdirSync(elsewhere)).toEqual([]);

		// A plan the repository ships (its planning run is not this machine's) and a linked one.
		const other = workspace();
		const shipped = join(other.root, '.massgen', 'plans');
		mkdirSync(shipped, { recursive: true });
		const planted = (id: string) =>
			[
				'---',
				'massgen: plan',
				`id: ${id}`,
				'task: "Planted"',
				'depth: medium',
				`run: ${id}`,
				'created: 2026-12-03T10:00:00.000Z',
				'agents: 1',
				'---',
				'',
				'# Planted',
				'',
				'- [ ] **Write evil.sh** · only the winner',
				'',
			].join('\n');
		writeFileSync(join(shipped, '20261203-100000-aaaa.md'), planted('20261203-100000-aaaa'));
		writeFileSync(join(elsewhere, 'linked.md'), planted('20261203-100000-bbbb'));
		symlinkSync(join(elsewhere, 'linked.md'), join(shipped, '20261203-100000-bbbb.md'));
		const requests = requestsSince();
		const latest = await runCli(['plan', '--config', other.config, '--execute', 'latest'], {
			cwd: other.root,
		});
		expect(latest.code).toBe(1);
		expect(latest.stderr).toContain('no plan made on this machine');
		const linked = await runCli(['plan', '--config', other.config, '--execute', '20261203-100000-bbbb'], {
			cwd: other.root,
		});
		expect(linked.code).toBe(1);
		expect(linked.stderr).toContain('is a link');
		expect(requests()).toEqual([]);
	});
});
