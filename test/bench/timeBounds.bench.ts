/**
 * `npm run bench` (time bounds): the wall-clock bounds the unit tests used to assert, measured here
 * where a loaded machine does not fail `npm test`. Each case is a path that once took seconds to
 * minutes (quadratic shell analysis, backtracking regexes, Myers diffs of rewrites, YAML alias
 * bombs, per-delta state copies); the unit tests keep what each returns, this keeps how fast.
 * Prints a Markdown table; exits 1 when a case is over its bound. BENCH_REPEATS=n: best of n.
 */
import { loadConfigText } from '../../src/core/config/loadConfig.js';
import { massGenConfigSchema } from '../../src/core/config/schema.js';
import { toRunToolSettings } from '../../src/core/config/toSettings.js';
import { maxCommandChars, PermissionEngine } from '../../src/core/permissions/permissionEngine.js';
import { createToolbox } from '../../src/core/tools/createToolbox.js';
import { boundedDiffLines, boundedStructuredPatch } from '../../src/core/util/boundedDiff.js';
import { createWorkspace } from '../../src/core/workspace/createWorkspace.js';
import type { RunEventBody } from '../../src/contract/runEvents.js';
import { reduceRun, reduceRunEvents } from '../../src/protocol/reduceRun.js';
import { initialRunState } from '../../src/protocol/runState.js';
import { makeTree, removeTrees } from '../support/tempTree.js';
import { stamp } from '../unit/protocol/eventFixtures.js';

interface Case {
	readonly name: string;
	/** Past this many milliseconds the case fails. */
	readonly boundMs: number;
	/** Prepares the inputs (not timed) and returns the timed work. */
	readonly prepare: () => Promise<() => unknown>;
}

const command = (target: string) => ({
	agentId: 'a1',
	tool: 'run_command',
	action: 'command',
	target,
	args: { command: target },
	cwd: '.',
});

const lines = (count: number, make: (i: number) => string) =>
	Array.from({ length: count }, (_, i) => `${make(i)}\n`).join('');
const base = lines(50_000, (i) => `line ${i} of a generated file`);
const rewrite = `${'line 0 of a generated file\n'}${lines(5_000, (i) => `new ${i}`)}line 49999 of a generated file`;
const agents = 'agents:\n  - backend: { type: scripted, script: { coordination: [{ answer: hi }] } }\n';

const cases: Case[] = [
	// test/unit/permissions/commandLength.test.ts: refused at once, unanalysed (1-2 s at 30 KB when analysed).
	...['a|', '.', 'a', ':'].map((unit): Case => ({
		name: `a 100 KB command of '${unit}' is refused`,
		boundMs: 300,
		prepare: async () => {
			const target = unit.repeat(Math.ceil(100_000 / unit.length));
			return () => new PermissionEngine().evaluate(command(target));
		},
	})),
	{
		name: 'a command at the length limit is analysed',
		boundMs: 10_000,
		prepare: async () => {
			const target = 'a|'.repeat(maxCommandChars / 2);
			return () => new PermissionEngine().evaluate(command(target));
		},
	},
	{
		name: 'a catastrophic command_line_blocked_commands regex (RE2)',
		boundMs: 10_000,
		prepare: async () => {
			const config = massGenConfigSchema.parse({
				agent: {
					id: 'a1',
					backend: {
						type: 'scripted',
						script: { coordination: [{ answer: 'x' }] },
						command_line_blocked_commands: ['(a+)+$'],
					},
				},
			});
			const filters = toRunToolSettings(config, { configFromWorkspace: false }).agents.get(
				'a1',
			)!.commandFilters!;
			const engine = new PermissionEngine({ commandFilters: new Map([['a1', filters]]) });
			return () => engine.evaluate(command(`${'a'.repeat(40)}!`));
		},
	},
	// test/unit/changes/boundedDiff.test.ts (18 s with plain diffLines).
	{
		name: 'boundedDiffLines of a 50,000-line rewrite',
		boundMs: 2_000,
		prepare: async () => () => boundedDiffLines(base, rewrite),
	},
	{
		name: 'boundedStructuredPatch of a 50,000-line rewrite',
		boundMs: 2_000,
		prepare: async () => () => boundedStructuredPatch('a/f.txt', 'b/f.txt', base, rewrite, 3),
	},
	// test/unit/tools/viewAnswerChangesTool.test.ts (~18 s with a plain Myers diff).
	{
		name: 'view_answer_changes on a 50,000-line rewrite',
		boundMs: 2_000,
		prepare: async () => {
			const workspace = await createWorkspace(await makeTree({ 'gen.txt': base }));
			const peer = workspace.createOverlay();
			await peer.write(
				'gen.txt',
				lines(5_000, (i) => `new ${i}`),
			);
			const toolbox = createToolbox({
				overlay: workspace.createOverlay(),
				writable: false,
				answers: new Map([['agent1', peer.snapshot()]]),
			});
			return () =>
				toolbox.execute('view_answer_changes', { agent_id: 'agent1' }, new AbortController().signal);
		},
	},
	// test/unit/config/brokenConfigs.test.ts: YAML alias bombs and deep nesting.
	...[300, 900].map((copies): Case => ({
		name: `a 1 MB config with ${copies} aliases of one big anchor`,
		boundMs: 5_000,
		prepare: async () => {
			const text = `x-big: &big "${'x'.repeat(900_000)}"\nx-copies: [${Array(copies).fill('*big').join(', ')}]\n${agents}`;
			return () => loadConfigText(text, 'big.yaml');
		},
	})),
	{
		name: '400,000 nested brackets in a config',
		boundMs: 500,
		prepare: async () => {
			const text = `x: ${'['.repeat(400_000)}${']'.repeat(400_000)}\n${agents}`;
			return () => loadConfigText(text, 'deep.yaml');
		},
	},
	// test/unit/protocol/reduceRun.test.ts: a per-delta copy of the state or text would take far longer.
	{
		name: 'reduceRun folds 100k text deltas',
		boundMs: 5_000,
		prepare: async () => {
			const start: RunEventBody = {
				type: 'run-start',
				question: 'q',
				workspace: '/ws',
				agents: [{ agentId: 'alice', anonId: 'agent1', provider: 'openai', model: 'gpt-4o' }],
			};
			const begun = reduceRunEvents(
				initialRunState(),
				stamp([start, { type: 'round-start', agentId: 'alice', round: 1, snapshot: [] }]),
			);
			return () => {
				let state = begun;
				for (let seq = 2; seq < 100_002; seq++) {
					state = reduceRun(state, {
						type: 'text-delta',
						agentId: 'alice',
						phase: 'coordination',
						text: 'token ',
						runId: begun.runId!,
						seq,
						t: seq,
					});
				}
				return state;
			};
		},
	},
];

async function main(): Promise<void> {
	const repeats = Math.max(1, Number(process.env.BENCH_REPEATS ?? 1));
	const rows: string[] = ['| case | best ms | bound ms | |', '|---|---:|---:|---|'];
	let over = 0;
	for (const { name, boundMs, prepare } of cases) {
		let best = Infinity;
		for (let i = 0; i < repeats; i++) {
			const work = await prepare();
			const started = performance.now();
			await work();
			best = Math.min(best, performance.now() - started);
		}
		const ok = best < boundMs;
		if (!ok) over++;
		rows.push(`| ${name} | ${best.toFixed(1)} | ${boundMs} | ${ok ? 'ok' : 'OVER'} |`);
	}
	await removeTrees();
	console.log(rows.join('\n'));
	if (over > 0) {
		console.error(`${over} case(s) over their bound`);
		process.exitCode = 1;
	}
}

void main();
