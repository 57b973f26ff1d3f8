// Shared between the in-host suite and its launchers. No `vscode` import.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The in-host suite prints one line `<prefix> <json InHostSummary>` when mocha finishes. */
export const summaryPrefix = 'massgen-in-host-summary';

export interface InHostTestResult {
	readonly title: string;
	readonly ok: boolean;
	readonly ms?: number;
	readonly error?: string;
}

export interface InHostSummary {
	readonly passes: number;
	readonly failures: number;
	readonly tests: readonly InHostTestResult[];
}

/** Set in code-server's environment by the Playwright launcher; absent under test-electron. */
export const signalDirEnv = 'MASSGEN_E2E_SIGNAL_DIR';
export const screenshotPrefix = 'massgen-screenshot';

/**
 * Asks the Playwright launcher for a screenshot of the live window and waits until it is taken.
 * A no-op when nothing is listening (e.g. under @vscode/test-electron).
 */
export async function requestScreenshot(name: string): Promise<void> {
	const dir = process.env[signalDirEnv];
	if (!dir) return;
	if (!/^[\w.-]+$/.test(name)) throw new Error(`bad screenshot name ${name}`);
	console.log(`${screenshotPrefix} ${name}`);
	const done = join(dir, `${name}.done`);
	const deadline = Date.now() + 15_000;
	while (!existsSync(done)) {
		if (Date.now() > deadline) throw new Error(`screenshot ${name} was not taken within 15 s`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}
