import { existsSync } from 'node:fs';
import { evalCases } from './cases.js';
import { evalTable } from './evalTable.js';
import { cliPath, runCase, type CaseOutcome } from './runCase.js';

/**
 * `npm run eval` (builds the CLI first): runs every case of the eval set through dist/cli.js on
 * the loopback servers, prints a table and each failure, exits 1 when any case failed.
 * `npm run eval -- NAME…` runs the cases whose name contains one of the words.
 */
async function main(): Promise<void> {
	if (!existsSync(cliPath)) {
		process.stderr.write(`${cliPath} is missing: run npm run build:cli first.\n`);
		process.exit(2);
	}
	const only = process.argv.slice(2);
	const cases = evalCases.filter((c) => only.length === 0 || only.some((word) => c.name.includes(word)));
	const outcomes: CaseOutcome[] = [];
	for (const evalCase of cases) outcomes.push(await runCase(evalCase));
	process.stdout.write(`${evalTable(outcomes)}\n`);
	const failed = outcomes.filter((o) => o.failures.length > 0);
	process.stdout.write(`\n${outcomes.length - failed.length} of ${outcomes.length} cases passed.\n`);
	process.exit(failed.length ? 1 : 0);
}

void main();
