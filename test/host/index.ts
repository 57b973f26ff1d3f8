// Entry point loaded by the extension host (code-server payload `extensionTestsPath`, or
// @vscode/test-electron). Runs every compiled *.itest.js next to this file with mocha.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';
import { type InHostTestResult, summaryPrefix } from './harness';

export function run(): Promise<void> {
	const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30_000, reporter: 'spec' });
	if (process.env.MASSGEN_E2E_GREP) mocha.grep(process.env.MASSGEN_E2E_GREP);
	for (const name of readdirSync(__dirname)
		.filter((n) => n.endsWith('.itest.js'))
		.sort()) {
		mocha.addFile(join(__dirname, name));
	}
	const tests: InHostTestResult[] = [];
	return new Promise((resolve, reject) => {
		const runner = mocha.run((failures) => {
			const passes = tests.filter((t) => t.ok).length;
			console.log(`${summaryPrefix} ${JSON.stringify({ passes, failures, tests })}`);
			if (failures > 0) reject(new Error(`${failures} in-host test(s) failed`));
			else resolve();
		});
		runner.on('pass', (test) => tests.push({ title: test.fullTitle(), ok: true, ms: test.duration }));
		runner.on('fail', (test, error: unknown) =>
			tests.push({
				title: test.fullTitle(),
				ok: false,
				error: error instanceof Error ? (error.stack ?? error.message) : String(error),
			}),
		);
	});
}
