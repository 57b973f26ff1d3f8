/**
 * The cost estimate on the command line (docs/cli.md): over the threshold it is printed and,
 * on a terminal, asked once; `--yes` skips the question. With no terminal the run starts (the
 * printed line says so) unless `--max-cost` is below the estimate: then it is not started.
 */
import { createInterface } from 'node:readline';
import type { BudgetCaps } from '../core/orchestrator/spendGuard.js';
import { defaultConfirmAboveUsd, formatUsd, type CostEstimate } from '../core/run/costEstimate.js';

export interface EstimatePromptOptions {
	readonly output: NodeJS.WritableStream;
	/** Where the answer is read; undefined: no terminal. */
	readonly input: NodeJS.ReadableStream | undefined;
	/** `--yes`. */
	readonly yes: boolean;
	readonly thresholdUsd?: number;
}

export async function confirmEstimate(
	estimate: CostEstimate,
	caps: BudgetCaps | null,
	options: EstimatePromptOptions,
): Promise<boolean> {
	if (estimate.usd < (options.thresholdUsd ?? defaultConfirmAboveUsd)) return true;
	const { output } = options;
	const cap = caps?.maxCostUsd;
	const over =
		cap && estimate.usd > cap.limit ? `, above the budget of ${formatUsd(cap.limit)} (${cap.source})` : '';
	output.write(`massgen: estimated cost ${formatUsd(estimate.usd)}${over}: ${estimate.basis}\n`);
	if (options.yes) {
		output.write('massgen: starting (--yes)\n');
		return true;
	}
	if (!options.input) {
		if (over) {
			output.write(
				'massgen: not started: raise --max-cost, or give --yes to start anyway (the budget still stops it)\n',
			);
			return false;
		}
		output.write('massgen: starting (no terminal to ask on; --max-cost sets a budget)\n');
		return true;
	}
	const readline = createInterface({ input: options.input, output, terminal: false });
	try {
		const answer = await new Promise<string>((resolve) => {
			readline.question('Start the run? [y/N] ', resolve);
			readline.once('close', () => resolve(''));
		});
		const yes = /^y(es)?$/i.test(answer.trim());
		if (!yes) output.write('massgen: not started\n');
		return yes;
	} finally {
		readline.close();
	}
}
