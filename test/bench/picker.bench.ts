/**
 * `npm run bench:host`: the model picker's overhead in the real extension host. Starts one
 * code-server (MASSGEN_E2E_CODE_SERVER, default the newest installed: `bash test/e2e/setupCodeServer.sh`)
 * and headless Chromium as the e2e harness does, and runs test/host/pickerBench.ts (built to
 * out/host-bench/) as the window's extension tests: the 4-agent loopback team (auto-agents, no model
 * latency, so the figures are all overhead) asked BENCH_PICKER_RUNS times (default 9, after one
 * warm-up round) through `vscode.lm` `sendRequest` (vendor `massgen`), through `tryStart` and
 * through the Ask Team command, interleaved. Prints medians of time to the first streamed fragment
 * and to the end; `--json` prints the samples.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { codeServerVersion, startCodeServer } from '../e2e/codeServer';
import { launchBrowser, repoRoot, Workbench } from '../e2e/workbench';
import { type PickerBenchResult, pickerBenchPrefix, type PickerSample } from '../host/pickerBenchResult';

const median = (values: readonly number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function summary(samples: readonly PickerSample[]): { firstMs?: number; totalMs: number } {
	const firsts = samples.flatMap((s) => (s.firstMs === undefined ? [] : [s.firstMs]));
	return {
		...(firsts.length === samples.length ? { firstMs: median(firsts) } : {}),
		totalMs: median(samples.map((s) => s.totalMs)),
	};
}

async function measure(): Promise<PickerBenchResult> {
	const root = mkdtempSync(join(tmpdir(), 'massgen-bench-host-'));
	const folder = join(root, 'workspace');
	mkdirSync(folder);
	writeFileSync(join(folder, 'README.md'), '# bench workspace\n');
	const server = await startCodeServer({
		version: codeServerVersion(),
		logFile: join(root, 'code-server.log'),
	});
	let browser: Browser | undefined;
	let workbench: Workbench | undefined;
	const log: string[] = [];
	let result: PickerBenchResult | undefined;
	try {
		browser = await launchBrowser(server.home);
		let exit!: (code: number) => void;
		const exited = new Promise<number>((resolve) => (exit = resolve));
		workbench = await Workbench.open(browser, server, {
			folder,
			extensionTestsPath: join(repoRoot, 'out', 'host-bench', 'pickerBench.js'),
			onLog: (line) => {
				if (line.startsWith(pickerBenchPrefix)) {
					result = JSON.parse(line.slice(pickerBenchPrefix.length + 1)) as PickerBenchResult;
				} else log.push(line);
			},
			onExit: exit,
		});
		const code = await exited;
		if (code !== 0 || !result) {
			throw new Error(`the in-host bench exited ${code}; its last lines:\n${log.slice(-15).join('\n')}`);
		}
		return result;
	} finally {
		await workbench?.close().catch(() => undefined);
		await browser?.close().catch(() => undefined);
		await server.stop();
		rmSync(root, { recursive: true, force: true });
	}
}

async function main() {
	const loadBefore = loadavg()[0]!;
	const result = await measure();
	const conditions = {
		vscode: result.vscodeVersion,
		extensionHostNode: result.node,
		cores: availableParallelism(),
		runs: result.runs,
		loadBefore: Number(loadBefore.toFixed(2)),
		loadAfter: Number(loadavg()[0]!.toFixed(2)),
	};
	if (process.argv.includes('--json')) {
		process.stdout.write(
			`${JSON.stringify({ conditions, activation: result.activation, samples: result.samples }, null, 2)}\n`,
		);
		return;
	}
	const picker = summary(result.samples.picker);
	const tryStart = summary(result.samples.tryStart);
	const command = summary(result.samples.command);
	const ms = (value: number | undefined) => (value === undefined ? '—' : `${value.toFixed(0)} ms`);
	const over = (value: number | undefined, base: number | undefined) =>
		value === undefined || base === undefined
			? ''
			: ` (${value >= base ? '+' : ''}${(value - base).toFixed(0)})`;
	process.stdout.write(
		[
			`the model picker's path over Ask Team's in the extension host, 4-agent loopback team, no model latency` +
				` (VS Code ${conditions.vscode} (code-server), extension host node ${conditions.extensionHostNode},` +
				` ${conditions.cores} cores, median of ${conditions.runs}; load average ${conditions.loadBefore} → ${conditions.loadAfter})`,
			'',
			'| path | first fragment (vs tryStart) | total (vs tryStart) |',
			'| --- | --- | --- |',
			`| \`tryStart\` (Ask Team's run path): request → first event batch, → run end | ${ms(tryStart.firstMs)} | ${ms(tryStart.totalMs)} |`,
			`| Ask Team command (\`massgen.askTeam\`, opens the panel): → resolves | — | ${ms(command.totalMs)}${over(command.totalMs, tryStart.totalMs)} |`,
			`| picker: \`sendRequest\` (vendor \`massgen\`) → first text part, → stream end | ${ms(picker.firstMs)}${over(picker.firstMs, tryStart.firstMs)} | ${ms(picker.totalMs)}${over(picker.totalMs, tryStart.totalMs)} |`,
			'',
			`Activation (one sample, a fresh extension host): \`activate()\` ${result.activation.activateMs.toFixed(1)} ms;` +
				` with loading dist/extension.js ${result.activation.withLoadMs.toFixed(1)} ms.`,
			'',
		].join('\n'),
	);
}

void main().catch((error: unknown) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
