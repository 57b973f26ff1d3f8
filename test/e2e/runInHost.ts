// Launcher (a): runs the in-host mocha suite (out/host/index.js) inside code-server's
// extension host. The workbench reports the result through `window.codeAutomationExit`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { type InHostSummary, screenshotPrefix, summaryPrefix } from '../host/harness';
import type { CodeServer } from './codeServer';
import { lmVendorExtension, repoRoot, Workbench } from './workbench';

export interface InHostRun {
	readonly exitCode: number;
	/** Parsed from the suite's summary line; undefined if the suite never got that far. */
	readonly summary: InHostSummary | undefined;
	readonly blockedRequests: readonly string[];
	readonly log: readonly string[];
}

export interface InHostOptions {
	readonly folder: string;
	/** The directory code-server's MASSGEN_E2E_SIGNAL_DIR points at (screenshot handshake). */
	readonly signalDir: string;
	readonly timeoutMs?: number;
	readonly echo?: (line: string) => void;
}

export async function runInHost(
	browser: Browser,
	server: CodeServer,
	options: InHostOptions,
): Promise<InHostRun> {
	const log: string[] = [];
	let summary: InHostSummary | undefined;
	let workbench: Workbench | undefined;
	let exit!: (code: number) => void;
	const exited = new Promise<number>((resolve) => (exit = resolve));

	const onLog = (line: string) => {
		log.push(line);
		if (line.startsWith(summaryPrefix)) {
			summary = JSON.parse(line.slice(summaryPrefix.length + 1)) as InHostSummary;
			return;
		}
		const shot = line.match(new RegExp(`^${screenshotPrefix} ([\\w.-]+)$`));
		if (shot) {
			const name = shot[1]!;
			void (async () => {
				try {
					// The request may arrive while Workbench.open is still waiting for the page.
					while (!workbench) await new Promise((resolve) => setTimeout(resolve, 50));
					await workbench.screenshot(name);
				} catch (error) {
					log.push(`screenshot ${name} failed: ${String(error)}`);
				} finally {
					// Never let a failed handshake crash the launcher (and orphan code-server).
					try {
						mkdirSync(options.signalDir, { recursive: true });
						writeFileSync(join(options.signalDir, `${name}.done`), '');
					} catch (error) {
						log.push(`screenshot ${name}: cannot signal: ${String(error)}`);
					}
				}
			})();
			return;
		}
		options.echo?.(line);
	};

	// The whole suite (about 100 tests, ~4 min on a loaded 2-core machine): a bound for a hang, not a benchmark.
	const timeoutMs = options.timeoutMs ?? 600_000;
	let timer: NodeJS.Timeout | undefined;
	const timedOut = new Promise<never>((_, reject) => {
		timer = setTimeout(
			() =>
				reject(
					new Error(
						`in-host tests did not finish within ${timeoutMs / 1000} s; the last lines:\n${log.slice(-12).join('\n')}`,
					),
				),
			timeoutMs,
		);
	});
	try {
		workbench = await Promise.race([
			Workbench.open(browser, server, {
				folder: options.folder,
				extensionTestsPath: join(repoRoot, 'out', 'host', 'index.js'),
				testExtensions: [lmVendorExtension],
				// An unpacked .vsix's `extension/` instead of the checkout (the packaged files, no node_modules).
				...(process.env.MASSGEN_E2E_EXTENSION_PATH
					? { extensionDevelopmentPath: process.env.MASSGEN_E2E_EXTENSION_PATH }
					: {}),
				onLog,
				onExit: exit,
			}),
			timedOut,
		]);
		const exitCode = await Promise.race([exited, timedOut]);
		return { exitCode, summary, blockedRequests: [...workbench.blockedRequests], log };
	} finally {
		clearTimeout(timer);
		await workbench?.close();
	}
}
