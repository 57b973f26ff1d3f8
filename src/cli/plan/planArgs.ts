/**
 * `massgen plan`'s options (docs/cli.md#massgen-plan), and MassGen's plan flags on `massgen run`
 * (`--plan`, `--plan-depth`, `--plan-and-execute`, `--execute-plan`) mapped onto the same command.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { planDepths, type PlanDepth } from '../../contract/plan.js';
import { positiveNumber } from '../argWords.js';
import { UsageError } from '../usageError.js';

export interface PlanArgs {
	readonly kind: 'plan';
	/** Absolute. */
	readonly workspace: string;
	/** Absolute; else the workspace's config, else the default team. */
	readonly config?: string;
	/** `--json`: one JSON object on stdout (the plan's path, its steps, their agreement, the runs). */
	readonly json: boolean;
	readonly timeoutSeconds?: number;
	readonly maxCostUsd?: number;
	readonly maxTokens?: number;
	readonly approvals: 'ask' | 'yes' | 'deny-all';
	readonly noInstructions?: boolean;
	readonly trustWorkspace?: boolean;
	/** Plan this task first (`massgen plan "TASK"`, `run --plan`, `run --plan-and-execute`). */
	readonly task?: { readonly text: string; readonly depth: PlanDepth };
	/**
	 * Execute a plan: `ref` (`latest`, a plan id or a path), or null for the plan just made
	 * (`--plan-and-execute`). `apply`: write each step's changes before the next; `allInOne`: one run.
	 */
	readonly execute?: { readonly ref: string | null; readonly apply: boolean; readonly allInOne: boolean };
}

export const planUsage = `  massgen plan "TASK" [--depth shallow|medium|deep|dynamic] [OPTIONS]
  massgen plan --execute ID|PATH|latest [--apply] [--all-in-one] [OPTIONS]
               OPTIONS: [--config FILE] [--workspace DIR] [--json] [--timeout SECONDS] [--max-cost USD]
               [--max-tokens N] [--yes | --deny-all] [--no-instructions] [--trust-workspace]
  massgen run --plan [--plan-depth D] | --plan-and-execute [--plan-depth D] [--apply] | --execute-plan REF [--apply]
              [OPTIONS] ["TASK"]`;

export const planHelp = `plan      The team plans TASK without changing anything (read tools only): every agent proposes
          numbered steps, they read each other's plans and vote. The plan is stored as Markdown in
          .massgen/plans/<id>.md (printed on stdout, its path on stderr), each step marked with how
          many agents' plans had it. Edit it freely: reword, reorder or delete steps
          --depth      how detailed the plan is (default medium)
          --execute    carry out a plan (latest: the newest made here), one step per run, in the
                       plan's current order, from the first step not ticked; each run follows the last
                       one (one session). Without --apply nothing is written: each step starts from the
                       earlier steps' proposal, and the last step's run holds them all
          --apply      write each step's changes after it (as run --apply), then tick it
          --all-in-one all remaining steps as one run
          A step whose run fails, times out, is cancelled or gives no answer (or whose changes cannot
          be written) stops execution: the plan file says why under the step, and --execute again
          continues from it. Exit 0 done, 1 usage, config or plan file error, 2 a step failed,
          3 timed out, 4 cancelled
          run --plan, --plan-depth, --plan-and-execute, --execute-plan: MassGen's flags for the same
          --json, --timeout, --max-cost, --max-tokens, --yes, --deny-all, --no-instructions,
          --trust-workspace  as for run (budgets and the timeout hold per run)`;

const shared = {
	config: { type: 'string' },
	workspace: { type: 'string' },
	json: { type: 'boolean', default: false },
	timeout: { type: 'string' },
	'max-cost': { type: 'string' },
	'max-tokens': { type: 'string' },
	yes: { type: 'boolean', short: 'y', default: false },
	'deny-all': { type: 'boolean', default: false },
	'no-instructions': { type: 'boolean', default: false },
	'trust-workspace': { type: 'boolean', default: false },
	apply: { type: 'boolean', default: false },
	'all-in-one': { type: 'boolean', default: false },
	help: { type: 'boolean', short: 'h', default: false },
} as const;

/** Parses the words after `plan`. Throws UsageError with a message for the user. */
export function parsePlanArgs(argv: readonly string[], cwd: string): PlanArgs | { readonly kind: 'help' } {
	const options = { ...shared, depth: { type: 'string' }, execute: { type: 'string' } } as const;
	const { values, positionals } = parse('plan', () =>
		parseArgs({ args: [...argv], allowPositionals: true, options }),
	);
	if (values.help) return { kind: 'help' };
	const task = positionals.join(' ').trim();
	if (values.execute !== undefined) {
		if (task) throw new UsageError('give either a TASK to plan or --execute PLAN, not both');
		if (values.depth !== undefined) throw new UsageError('--depth is for planning a TASK, not --execute');
		return planArgs(values, cwd, undefined, executeOf(values.execute, values, '--execute'));
	}
	if (!task) throw new UsageError('plan needs a TASK (or --execute PLAN)');
	onlyWithExecute(values, '--execute');
	return planArgs(values, cwd, { text: task, depth: depthOf(values.depth, '--depth') }, undefined);
}

/** Whether `run`'s words hold one of MassGen's plan flags: then `parseRunPlanArgs` reads them. */
export function hasRunPlanFlag(argv: readonly string[]): boolean {
	const end = argv.indexOf('--');
	return (end < 0 ? argv : argv.slice(0, end)).some((word) =>
		/^--(plan|plan-depth|plan-and-execute|execute-plan)(=|$)/.test(word),
	);
}

/**
 * `massgen run` with MassGen's plan flags: `--plan` is `massgen plan`, `--plan-and-execute` plans
 * then executes what was planned, `--execute-plan REF` is `massgen plan --execute REF`.
 */
export function parseRunPlanArgs(argv: readonly string[], cwd: string): PlanArgs {
	const options = {
		...shared,
		plan: { type: 'boolean', default: false },
		'plan-depth': { type: 'string' },
		'plan-and-execute': { type: 'boolean', default: false },
		'execute-plan': { type: 'string' },
	} as const;
	const { values, positionals } = parse('run', () =>
		parseArgs({ args: [...argv], allowPositionals: true, options }),
	);
	const modes = [values.plan, values['plan-and-execute'], values['execute-plan'] !== undefined];
	if (modes.filter(Boolean).length !== 1) {
		throw new UsageError('give one of --plan, --plan-and-execute or --execute-plan');
	}
	const task = positionals.join(' ').trim();
	if (values['execute-plan'] !== undefined) {
		if (task) throw new UsageError('--execute-plan takes no QUESTION: the plan says what to do');
		if (values['plan-depth'] !== undefined) {
			throw new UsageError('--plan-depth is for --plan and --plan-and-execute');
		}
		return planArgs(values, cwd, undefined, executeOf(values['execute-plan'], values, '--execute-plan'));
	}
	if (!task) throw new UsageError(`run ${values.plan ? '--plan' : '--plan-and-execute'} needs a TASK`);
	const planned = { text: task, depth: depthOf(values['plan-depth'], '--plan-depth') };
	if (values.plan) {
		onlyWithExecute(values, '--plan-and-execute or --execute-plan');
		return planArgs(values, cwd, planned, undefined);
	}
	return planArgs(values, cwd, planned, {
		ref: null,
		apply: values.apply ?? false,
		allInOne: values['all-in-one'] ?? false,
	});
}

type SharedValues = {
	-readonly [K in keyof typeof shared]?: (typeof shared)[K]['type'] extends 'string' ? string : boolean;
};

/** `parseArgs` (strict), its complaint prefixed with the command. */
function parse<T>(command: string, parsed: () => T): T {
	try {
		return parsed();
	} catch (error) {
		throw new UsageError(`${command}: ${(error as Error).message}`);
	}
}

function executeOf(ref: string, values: SharedValues, flag: string): NonNullable<PlanArgs['execute']> {
	if (ref.trim() === '') throw new UsageError(`${flag} needs a plan: its id, its path or latest`);
	return { ref, apply: values.apply ?? false, allInOne: values['all-in-one'] ?? false };
}

function onlyWithExecute(values: SharedValues, flags: string): void {
	const wrong = values.apply ? '--apply' : values['all-in-one'] ? '--all-in-one' : undefined;
	if (wrong) throw new UsageError(`${wrong} is for executing a plan (${flags}): planning writes nothing`);
}

function depthOf(text: string | undefined, flag: string): PlanDepth {
	if (text === undefined) return 'medium';
	if (!planDepths.includes(text as PlanDepth)) {
		throw new UsageError(`${flag} must be ${planDepths.join(', ')}, not '${text}'`);
	}
	return text as PlanDepth;
}

function planArgs(
	values: SharedValues,
	cwd: string,
	task: PlanArgs['task'],
	execute: PlanArgs['execute'],
): PlanArgs {
	const timeoutSeconds = positiveNumber(values.timeout, '--timeout', 'number of seconds');
	const maxCostUsd = positiveNumber(values['max-cost'], '--max-cost', 'USD amount');
	const maxTokens = positiveNumber(values['max-tokens'], '--max-tokens', 'whole number of tokens');
	if (maxTokens !== undefined && !Number.isInteger(maxTokens)) {
		throw new UsageError(`--max-tokens must be a whole number of tokens, not '${values['max-tokens']}'`);
	}
	if (values.yes && values['deny-all']) throw new UsageError('use either --yes or --deny-all, not both');
	if (values.config !== undefined && values.config.trim() === '') {
		throw new UsageError('--config needs a FILE');
	}
	return {
		kind: 'plan',
		workspace: resolve(cwd, values.workspace ?? cwd),
		...(values.config !== undefined ? { config: resolve(cwd, values.config) } : {}),
		json: values.json ?? false,
		approvals: values.yes ? 'yes' : values['deny-all'] ? 'deny-all' : 'ask',
		...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
		...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
		...(maxTokens !== undefined ? { maxTokens } : {}),
		...(values['no-instructions'] ? { noInstructions: true } : {}),
		...(values['trust-workspace'] ? { trustWorkspace: true } : {}),
		...(task ? { task } : {}),
		...(execute ? { execute } : {}),
	};
}
