// The real-VS-Code test run: one code-server, one Chromium; the in-host mocha suite, then the
// Playwright scenarios. Prints `e2e: N passed, M failed` and exits non-zero on any failure.
// Usage (after setupCodeServer.sh and the builds; `npm run test:e2e` does all of it):
//   tsx test/e2e/run.ts [--only in-host|ui|smoke] [--vsix FILE]
// --only smoke: the smoke leg, a few in-host tests (activation, Show Panel, Ask Team, a change set
// accepted) on the code-server of the oldest VS Code `engines.vscode` allows (MASSGEN_E2E_CODE_SERVER
// picks another; it also picks the code-server of the other legs).
// --vsix installs FILE into code-server and runs the UI scenarios against it instead of the
// development path (the in-host suite needs a development path, so it is skipped).
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { signalDirEnv } from '../host/harness';
import { type CodeServer, codeServerVersion, codeServerVersions, startCodeServer } from './codeServer';
import { runInHost } from './runInHost';
import { scenarios } from './scenarios/index';
import { launchBrowser, resultsDir, Workbench } from './workbench';

interface Result {
	readonly name: string;
	readonly ok: boolean;
	readonly error?: string;
}

/**
 * The smoke leg's in-host tests, by title (mocha's grep): activation, the view, a run, an accept,
 * and a model picker request stopped by Cancel Run (1.106 never forwards the caller's cancel).
 */
const smokeGrep =
	'activates without loading the engine bundle|Show Panel reveals the side bar view|runs the team on a question argument|a run with changes: pending change set|deselect one hunk, accept|Cancel Run stops a picker request';

const results: Result[] = [];
const started = Date.now();
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)}s`;

function record(result: Result, ms?: number): void {
	results.push(result);
	const time = ms === undefined ? '' : ` (${(ms / 1000).toFixed(1)}s)`;
	console.log(`  ${result.ok ? 'ok  ' : 'FAIL'} ${result.name}${time}`);
	if (result.error) console.log(result.error.replace(/^/gm, '       '));
}

let workspaceCount = 0;
/** A fresh copy of the test workspace for each window. */
function createWorkspace(server: CodeServer): string {
	const dir = join(server.root, `workspace-${++workspaceCount}`);
	mkdirSync(join(dir, 'src'), { recursive: true });
	writeFileSync(join(dir, 'README.md'), '# e2e workspace\n');
	writeFileSync(join(dir, 'src', 'hello.ts'), 'export const hello = (name: string) => `Hello, ${name}!`;\n');
	// Mirrors src so the explorer shows a known file at the top level.
	writeFileSync(join(dir, 'hello.ts'), 'export const hello = (name: string) => `Hello, ${name}!`;\n');
	return dir;
}

function noNetwork(blocked: readonly string[]): string | undefined {
	return blocked.length
		? `${blocked.length} non-loopback request(s) blocked:\n${blocked.join('\n')}`
		: undefined;
}

async function inHostSuite(browser: Browser, server: CodeServer, signalDir: string): Promise<void> {
	const t = Date.now();
	console.log('in-host suite (mocha inside the extension host):');
	try {
		const run = await runInHost(browser, server, { folder: createWorkspace(server), signalDir });
		writeFileSync(join(resultsDir, 'in-host.log'), run.log.join('\n') + '\n');
		for (const test of run.summary?.tests ?? []) {
			record({ name: `in-host: ${test.title}`, ok: test.ok, error: test.error }, test.ms);
		}
		if (!run.summary) {
			record({
				name: 'in-host: suite',
				ok: false,
				error: `no summary (exit code ${run.exitCode}); see test-results/e2e/in-host.log`,
			});
		} else if (run.exitCode !== 0 && run.summary.failures === 0) {
			record({ name: 'in-host: suite exit code', ok: false, error: `exit code ${run.exitCode}` });
		}
		const network = noNetwork(run.blockedRequests);
		record({ name: 'in-host: no non-loopback requests', ok: !network, error: network });
	} catch (error) {
		record({
			name: 'in-host: suite',
			ok: false,
			error: String(error instanceof Error ? error.stack : error),
		});
	}
	console.log(`  in-host suite took ${seconds(t)}`);
}

async function uiScenarios(browser: Browser, server: CodeServer, vsix: string | undefined): Promise<void> {
	console.log(`Playwright scenarios (extension from ${vsix ?? 'the repo, as development path'}):`);
	// MASSGEN_E2E_SCENARIO: run only the scenarios whose name contains it.
	const only = process.env.MASSGEN_E2E_SCENARIO;
	for (const scenario of scenarios.filter((candidate) => !only || candidate.name.includes(only))) {
		const t = Date.now();
		let workbench: Workbench | undefined;
		try {
			// Each scenario starts from the harness's settings, whatever a failed suite or scenario left.
			server.resetUserSettings();
			const folder = createWorkspace(server);
			const prepared = scenario.prepareWorkspace?.(folder);
			workbench = await Workbench.open(browser, server, {
				folder,
				...(prepared ? { workspaceFile: prepared.workspaceFile } : {}),
				extensionDevelopmentPath: vsix ? null : undefined,
			});
			await scenario.run(workbench, folder);
			const network = noNetwork(workbench.blockedRequests);
			record({ name: `ui: ${scenario.name}`, ok: !network, error: network }, Date.now() - t);
		} catch (error) {
			const failure = `failure-${results.length}`;
			await workbench?.screenshot(failure).catch(() => undefined);
			const message = String(error instanceof Error ? error.stack : error);
			record(
				{ name: `ui: ${scenario.name}`, ok: false, error: `${message}\n(screenshot: ${failure}.png)` },
				Date.now() - t,
			);
		} finally {
			await workbench?.close().catch(() => undefined);
		}
	}
}

async function main(): Promise<number> {
	const option = (name: string) => {
		const at = process.argv.indexOf(name);
		return at > 0 ? process.argv[at + 1] : undefined;
	};
	const vsix = option('--vsix') && resolve(option('--vsix')!);
	const only = vsix ? 'ui' : option('--only');
	if (only && !['in-host', 'ui', 'smoke'].includes(only)) {
		throw new Error('--only takes in-host, ui or smoke');
	}
	const smoke = only === 'smoke';
	const version = smoke
		? process.env.MASSGEN_E2E_CODE_SERVER || codeServerVersions.oldest
		: codeServerVersion();

	mkdirSync(resultsDir, { recursive: true });
	for (const name of readdirSync(resultsDir)) {
		rmSync(join(resultsDir, name), { recursive: true, force: true });
	}
	// Outside the results folder, so another run wiping its artifacts cannot break this one's handshake.
	const signalDir = mkdtempSync(join(tmpdir(), 'massgen-e2e-signals-'));

	let t = Date.now();
	const server = await startCodeServer({
		version,
		logFile: join(resultsDir, 'code-server.log'),
		env: { [signalDirEnv]: signalDir, ...(smoke ? { MASSGEN_E2E_GREP: smokeGrep } : {}) },
		vsix,
	});
	console.log(
		`code-server ${server.version}${smoke ? ' (smoke leg)' : ''} ${server.url} ready in ${seconds(t)}`,
	);
	// code-server runs in its own process group, so Ctrl-C does not reach it: stop it ourselves.
	for (const sig of ['SIGINT', 'SIGTERM'] as const) {
		process.once(sig, () => {
			console.log(`${sig}: stopping code-server`);
			void server.stop().finally(() => process.exit(130));
		});
	}
	// A bug in a handler must not leave code-server running either.
	for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
		process.once(event, (error: unknown) => {
			console.error(
				`${event}: ${error instanceof Error ? error.stack : String(error)}; stopping code-server`,
			);
			console.log('e2e: 0 passed, 1 failed');
			void server.stop().finally(() => process.exit(1));
		});
	}
	let browser: Browser | undefined;
	try {
		t = Date.now();
		browser = await launchBrowser(server.home);
		console.log(`chromium launched in ${seconds(t)}`);
		if (only !== 'ui') await inHostSuite(browser, server, signalDir);
		if (only !== 'in-host' && !smoke) await uiScenarios(browser, server, vsix);
	} catch (error) {
		record({ name: 'harness', ok: false, error: String(error instanceof Error ? error.stack : error) });
	} finally {
		await browser?.close().catch(() => undefined);
		await server.stop();
		rmSync(signalDir, { recursive: true, force: true });
	}
	const failed = results.filter((r) => !r.ok).length;
	console.log(`artifacts: ${resultsDir} (total ${seconds(started)})`);
	console.log(`e2e: ${results.length - failed} passed, ${failed} failed`);
	return failed || !results.length ? 1 : 0;
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(error instanceof Error ? error.stack : error);
		console.log('e2e: 0 passed, 1 failed');
		process.exit(1);
	},
);
