/** `massgen review`'s options (docs/cli.md#massgen-review), parsed apart from the other commands'. */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { commitRange, type DiffSource } from '../../core/context/attachment.js';
import { severityOrder, type Severity } from '../../core/codeReview/findings.js';
import { positiveNumber } from '../argWords.js';
import { UsageError } from '../usageError.js';

export interface ReviewArgs {
	readonly kind: 'review';
	/** Absolute. */
	readonly workspace: string;
	/** Absolute; else the workspace's config, else the default team. */
	readonly config?: string;
	/** The working tree (default), `--staged`, or `--range A..B`. */
	readonly source: DiffSource;
	/** `--json`: the review as one JSON object on stdout. */
	readonly json: boolean;
	/** `--sarif FILE` (absolute): the review as SARIF 2.1.0. */
	readonly sarif?: string;
	/** `--fail-on`: exit 5 when an agreed finding is at least this severe. */
	readonly failOn?: Severity;
	readonly timeoutSeconds?: number;
	readonly maxCostUsd?: number;
	readonly maxTokens?: number;
	readonly noInstructions?: boolean;
}

export const reviewUsage = `  massgen review [--staged | --range A..B] [--json] [--sarif FILE] [--fail-on high|medium|low] [--config FILE]
                 [--workspace DIR] [--timeout SECONDS] [--max-cost USD] [--max-tokens N] [--no-instructions]`;

export const reviewHelp = `review    Every agent of the team reviews a git diff (default: the working tree's uncommitted changes);
          findings raised by two or more agents are printed by file and line, those one agent raised
          apart, each with every agent's reason. Nothing is written: fixes the team proposes stay
          pending in the run directory (named on stderr, with how to apply them). Headless: nobody is
          asked, approvals that need asking are denied, the folder's own servers need massgen trust
          --staged     review \`git diff --cached\`      --range A..B   review \`git diff A..B\`
          --json       the review as one JSON object on stdout
          --sarif      also write the findings as SARIF 2.1.0 to FILE (for code-scanning tools)
          --fail-on    exit 5 when a finding agreed by two or more agents (all, with one agent) is at
                       least this severe
          --timeout, --max-cost, --max-tokens, --no-instructions  as for run`;

/** Parses the words after `review`. Throws UsageError with a message for the user. */
export function parseReviewArgs(
	argv: readonly string[],
	cwd: string,
): ReviewArgs | { readonly kind: 'help' } {
	let parsed;
	try {
		parsed = parseArgs({
			args: [...argv],
			allowPositionals: true,
			strict: true,
			options: {
				staged: { type: 'boolean', default: false },
				range: { type: 'string' },
				json: { type: 'boolean', default: false },
				sarif: { type: 'string' },
				'fail-on': { type: 'string' },
				config: { type: 'string' },
				workspace: { type: 'string' },
				timeout: { type: 'string' },
				'max-cost': { type: 'string' },
				'max-tokens': { type: 'string' },
				'no-instructions': { type: 'boolean', default: false },
				help: { type: 'boolean', short: 'h', default: false },
			},
		});
	} catch (error) {
		throw new UsageError(`review: ${(error as Error).message}`);
	}
	const { values, positionals } = parsed;
	if (values.help) return { kind: 'help' };
	if (positionals.length > 0) {
		throw new UsageError(
			`review takes no arguments: what it reviews is --staged, --range A..B or the working tree`,
		);
	}
	if (values.staged && values.range !== undefined) {
		throw new UsageError('use either --staged or --range, not both');
	}
	let source: DiffSource = values.staged ? 'staged' : 'working-tree';
	if (values.range !== undefined) {
		const range = commitRange(values.range);
		if (range === undefined) {
			throw new UsageError(
				`--range must be two revisions A..B (branch names, tags or hashes), not '${values.range}'`,
			);
		}
		source = range;
	}
	const failOn = values['fail-on'];
	if (failOn !== undefined && !severityOrder.includes(failOn as Severity)) {
		throw new UsageError(`--fail-on must be high, medium or low, not '${failOn}'`);
	}
	if (values.sarif !== undefined && values.sarif.trim() === '') throw new UsageError('--sarif needs a FILE');
	const timeoutSeconds = positiveNumber(values.timeout, '--timeout', 'number of seconds');
	const maxCostUsd = positiveNumber(values['max-cost'], '--max-cost', 'USD amount');
	const maxTokens = positiveNumber(values['max-tokens'], '--max-tokens', 'whole number of tokens');
	if (maxTokens !== undefined && !Number.isInteger(maxTokens)) {
		throw new UsageError(`--max-tokens must be a whole number of tokens, not '${values['max-tokens']}'`);
	}
	return {
		kind: 'review',
		workspace: resolve(cwd, values.workspace ?? cwd),
		...(values.config !== undefined ? { config: resolve(cwd, values.config) } : {}),
		source,
		json: values.json ?? false,
		...(values.sarif !== undefined ? { sarif: resolve(cwd, values.sarif) } : {}),
		...(failOn !== undefined ? { failOn: failOn as Severity } : {}),
		...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
		...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
		...(maxTokens !== undefined ? { maxTokens } : {}),
		...(values['no-instructions'] ? { noInstructions: true } : {}),
	};
}
