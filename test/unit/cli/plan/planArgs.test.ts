import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../../src/cli/args.js';
import { usage } from '../../../../src/cli/cliUsage.js';
import { UsageError } from '../../../../src/cli/usageError.js';

const cwd = '/work/project';
const parse = (...argv: string[]) => parseCliArgs(argv, cwd);
const refusal = (...argv: string[]) => {
	try {
		parse(...argv);
	} catch (error) {
		if (UsageError.is(error)) return error.message;
		throw error;
	}
	return undefined;
};

describe('massgen plan arguments', () => {
	it('plans a TASK at medium depth in the current folder by default; --depth, the run flags', () => {
		expect(parse('plan', 'Add', 'a --verbose flag')).toEqual({
			kind: 'plan',
			workspace: cwd,
			json: false,
			approvals: 'ask',
			task: { text: 'Add a --verbose flag', depth: 'medium' },
		});
		expect(
			parse(
				'plan',
				'--depth',
				'deep',
				'--workspace',
				'sub',
				'--config',
				'team.yaml',
				'--json',
				'--timeout',
				'90',
				'--max-cost',
				'0.5',
				'--max-tokens',
				'20000',
				'--yes',
				'--no-instructions',
				'--trust-workspace',
				'Tidy up',
			),
		).toEqual({
			kind: 'plan',
			workspace: '/work/project/sub',
			config: '/work/project/team.yaml',
			json: true,
			timeoutSeconds: 90,
			maxCostUsd: 0.5,
			maxTokens: 20000,
			approvals: 'yes',
			noInstructions: true,
			trustWorkspace: true,
			task: { text: 'Tidy up', depth: 'deep' },
		});
		expect(parse('plan', '--help')).toEqual({ kind: 'help' });
	});

	it('executes a plan by id, path or latest, with --apply and --all-in-one', () => {
		expect(parse('plan', '--execute', 'latest')).toMatchObject({
			kind: 'plan',
			execute: { ref: 'latest', apply: false, allInOne: false },
		});
		const parsed = parse('plan', '--execute', '.massgen/plans/x.md', '--apply', '--all-in-one', '--deny-all');
		expect(parsed).toMatchObject({
			execute: { ref: '.massgen/plans/x.md', apply: true, allInOne: true },
			approvals: 'deny-all',
		});
		expect(parsed).not.toHaveProperty('task');
	});

	it('refuses what planning or executing does not take', () => {
		expect(refusal('plan')).toBe('plan needs a TASK (or --execute PLAN)');
		expect(refusal('plan', 'Do it', '--execute', 'latest')).toBe(
			'give either a TASK to plan or --execute PLAN, not both',
		);
		expect(refusal('plan', '--execute', 'latest', '--depth', 'deep')).toMatch(/--depth is for planning/);
		expect(refusal('plan', '--execute', ' ')).toMatch(/--execute needs a plan/);
		expect(refusal('plan', 'Do it', '--apply')).toMatch(/^--apply is for executing a plan/);
		expect(refusal('plan', 'Do it', '--all-in-one')).toMatch(/^--all-in-one is for executing a plan/);
		expect(refusal('plan', '--depth', 'huge', 'Do it')).toBe(
			"--depth must be shallow, medium, deep, dynamic, not 'huge'",
		);
		expect(refusal('plan', '--yes', '--deny-all', 'Do it')).toBe('use either --yes or --deny-all, not both');
		expect(refusal('plan', '--attach', 'a.ts', 'Do it')).toMatch(/^plan: Unknown option '--attach'/);
		expect(refusal('plan', '--max-tokens', '1.5', 'Do it')).toMatch(/whole number/);
	});
});

describe("MassGen's plan flags on massgen run", () => {
	it('--plan plans, --plan-and-execute plans then executes what it planned, --execute-plan executes', () => {
		expect(parse('run', '--plan', '--plan-depth', 'shallow', 'Add tests')).toEqual({
			kind: 'plan',
			workspace: cwd,
			json: false,
			approvals: 'ask',
			task: { text: 'Add tests', depth: 'shallow' },
		});
		expect(parse('run', '--plan-and-execute', '--apply', 'Add tests')).toMatchObject({
			task: { text: 'Add tests', depth: 'medium' },
			execute: { ref: null, apply: true, allInOne: false },
		});
		expect(parse('run', '--execute-plan', 'latest', '--apply')).toMatchObject({
			execute: { ref: 'latest', apply: true },
		});
		// A QUESTION that only mentions the flag is not the flag.
		expect(parse('run', '--', '--plan is a word here')).toMatchObject({ kind: 'run' });
	});

	it('refuses mixed or incomplete plan flags, and run options a plan does not take', () => {
		expect(refusal('run', '--plan', '--execute-plan', 'latest')).toBe(
			'give one of --plan, --plan-and-execute or --execute-plan',
		);
		expect(refusal('run', '--plan-depth', 'deep', 'Add tests')).toBe(
			'give one of --plan, --plan-and-execute or --execute-plan',
		);
		expect(refusal('run', '--plan')).toBe('run --plan needs a TASK');
		expect(refusal('run', '--plan', '--apply', 'Add tests')).toMatch(/^--apply is for executing a plan/);
		expect(refusal('run', '--execute-plan', 'latest', 'more words')).toMatch(/takes no QUESTION/);
		expect(refusal('run', '--execute-plan', 'latest', '--plan-depth', 'deep')).toMatch(/--plan-depth is for/);
		expect(refusal('run', '--plan', '--inbox', 'dir', 'Add tests')).toMatch(/^run: Unknown option '--inbox'/);
	});

	it('is in the usage text', () => {
		expect(usage).toContain('massgen plan "TASK" [--depth shallow|medium|deep|dynamic]');
		expect(usage).toContain('massgen run --plan [--plan-depth D]');
		expect(usage).toMatch(/^plan {6}The team plans TASK/m);
	});
});
