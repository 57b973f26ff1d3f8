import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { evalCases } from './cases.js';
import { evalTable } from './evalTable.js';
import { cliPath, runCase, type CaseOutcome } from './runCase.js';

/**
 * `npm run eval` (builds the CLI first): runs every case of the eval set through dist/cli.js on
 * the loopback servers, prints a table and each failure, exits 1 when any case failed.
 * `npm run eval -- NAME…` runs the cases whose name contains one of the words;
 * `npm run eval -- --config team.yaml` runs them on a team of real models (docs/testing.md).
 */
async function main(): Promise<void> {
	if (!existsSync(cliPath)) {
		process.stderr.write(`${cliPath} is missing: run npm run build:cli first.\n`);
		process.exit(2);
	}
	const args = process.argv.slice(2);
	const at = args.indexOf('--config');
	const realConfig = at === -1 ? undefined : args.splice(at, 2)[1];
	if (at !== -1 && !realConfig) {
		process.stderr.write('--config needs a team config file.\n');
		process.exit(2);
	}
	const only = args;
	const cases = evalCases.filter((c) => only.length === 0 || only.some((word) => c.name.includes(word)));
	const outcomes: CaseOutcome[] = [];
	const options = realConfig ? { realConfig: resolve(realConfig), timeoutMs: 600_000 } : {};
	for (const evalCase of cases) outcomes.push(await runCase(evalCase, options));
	process.stdout.write(`${evalTable(outcomes)}\n`);
	const failed = outcomes.filter((o) => o.failures.length > 0);
	process.stdout.write(`\n${outcomes.length - failed.length} of ${outcomes.length} cases passed.\n`);
	process.exit(failed.length ? 1 : 0);
}

void main();
