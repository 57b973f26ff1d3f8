/**
 * `npm run bench:runs`: two 8-agent runs streaming at once against one alone, as the editor runs
 * them. This process stands in for the extension host: each run is the core's orchestrator on
 * scripted agents that stream `BENCH_TOKENS_PER_SECOND` (default 200) words a second each, followed
 * by the controller's own `LiveRun` (`reduceRun` into the run's state, `EventBatcher` every 30 ms);
 * each batch goes through the panel's filter (only the shown run's batches are posted, as
 * `ShownRun.showsLive` decides) and the posted ones are serialised as `postMessage` would.
 *
 * Two phases, each with one run alone and then two at once:
 * - host: no browser; this process's CPU time (`process.cpuUsage`) over the runs, and per run;
 * - panel: the shown run's batches are posted into the production panel (`dist/webview.js`) in
 *   Debian's Chromium under the real CSP; frame times and dropped frames (rAF), long tasks and the
 *   longest main-thread task from a Chromium trace (wall and thread CPU), as `panel.bench.ts`.
 *
 * BENCH_CALL_SECONDS (default 6: each model call streams this long; a run is answer, vote and
 * presentation), BENCH_AGENTS (8), BENCH_TOKENS_PER_SECOND (200), BENCH_REPEATS (3, host phase;
 * the median). Prints JSON on stdout.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunEvent } from '../../src/contract/runEvents.js';
import { Orchestrator } from '../../src/core/orchestrator/orchestrator.js';
import type { ChatRequest } from '../../src/core/providers/spec/model.js';
import { ScriptedModel } from '../../src/core/providers/vendors/scriptedModel.js';
import { notRunning } from '../../src/core/run/runControl.js';
import type { RunHandle } from '../../src/core/run/startRun.js';
import type { RunSessionOutcome } from '../../src/core/run/runSession.js';
import { answerIdsShown } from '../../src/core/workflow/markers.js';
import { createWorkspace } from '../../src/core/workspace/createWorkspace.js';
import { LiveRun, type RunEventBatch } from '../../src/vscode/run/liveRun.js';
import {
	buildTestBundle,
	launchBrowser,
	makeBundleDir,
	newPanelContext,
	openPanel,
	startPanelServer,
} from '../integration/webview/harness.js';
import { percentile, traceTasks } from './panel.bench.js';

const callSeconds = Number(process.env['BENCH_CALL_SECONDS'] ?? 6);
const agents = Number(process.env['BENCH_AGENTS'] ?? 8);
const tokensPerSecond = Number(process.env['BENCH_TOKENS_PER_SECOND'] ?? 200);
const repeats = Number(process.env['BENCH_REPEATS'] ?? 3);
const frameMs = 1000 / 60;
const round = (n: number) => Math.round(n * 10) / 10;

/** Answers once (a long streamed text), then votes for the first answer shown; presents plain text. */
function agentScript(index: number, text: string) {
	let answered = false;
	return (request: ChatRequest) => {
		if (!request.tools.some((tool) => tool.name === 'new_answer')) return { text };
		const options = request.tools.some((tool) => tool.name === 'vote')
			? answerIdsShown(request.messages.map((message) => message.content))
			: [];
		if (!answered || options.length === 0) {
			answered = true;
			return { text, toolCalls: [{ name: 'new_answer', arguments: { content: `Answer ${index}.` } }] };
		}
		return {
			text: 'Voting.',
			toolCalls: [{ name: 'vote', arguments: { agent_id: options[0], reason: 'best' } }],
		};
	};
}

const words = ['the', 'config', 'loader', 'validates', 'every', 'field', 'and', 'returns', 'issues'];

/** One run as the controller follows it; `post` gets each of its batches. */
async function oneRun(runId: string, post: (batch: RunEventBatch) => void): Promise<number> {
	const dir = mkdtempSync(join(tmpdir(), 'massgen-bench-runs-'));
	try {
		const workspace = await createWorkspace(dir);
		const count = tokensPerSecond * callSeconds;
		const text = Array.from({ length: count }, (_, i) => words[i % words.length]).join(' ');
		const orchestrator = new Orchestrator({
			runId,
			question: 'Benchmark: which loader validates the config?',
			workspace,
			agents: Array.from({ length: agents }, (_, i) => ({
				id: `a${i + 1}`,
				model: new ScriptedModel(agentScript(i + 1, text), { latencyMs: callSeconds * 1000, chunks: count }),
			})),
			settings: { retryBaseDelayMs: 1 },
		});
		let events = 0;
		const stream = async function* (): AsyncGenerator<RunEvent> {
			for await (const event of orchestrator.run()) {
				events++;
				yield event;
			}
		};
		const handle: RunHandle = {
			events: stream(),
			// LiveRun awaits it after the last event; the bench reads nothing of it.
			result: Promise.resolve({} as RunSessionOutcome),
			started: { runDir: dir, runId },
			...notRunning,
		};
		await new LiveRun(post).follow(handle, () => undefined);
		return events;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/**
 * `runs` runs at once; the first is the shown one. `send` gets the serialised message of each
 * batch the panel is sent. CPU of this process over the runs.
 */
async function runTogether(runs: number, send: (json: string) => void) {
	const shown = 'run-1';
	let posted = 0;
	let filtered = 0;
	const post = (batch: RunEventBatch) => {
		// The panel's filter (`surfaceHost.ts` with `ShownRun.showsLive`): another run's batch is dropped.
		if (batch.runId !== shown) {
			filtered++;
			return;
		}
		posted++;
		send(JSON.stringify({ type: 'events', events: batch.events }));
	};
	const cpuBefore = process.cpuUsage();
	const started = performance.now();
	const events = await Promise.all(Array.from({ length: runs }, (_, i) => oneRun(`run-${i + 1}`, post)));
	const cpu = process.cpuUsage(cpuBefore);
	const cpuMs = (cpu.user + cpu.system) / 1000;
	return {
		runs,
		wallMs: Math.round(performance.now() - started),
		cpuMs: Math.round(cpuMs),
		cpuMsPerRun: Math.round(cpuMs / runs),
		eventsPerRun: Math.round(events.reduce((a, b) => a + b, 0) / runs),
		cpuMsPer1000Events: round((cpuMs / events.reduce((a, b) => a + b, 0)) * 1000),
		batchesPosted: posted,
		batchesFiltered: filtered,
	};
}

function median<T>(values: T[], by: (value: T) => number): T {
	return [...values].sort((a, b) => by(a) - by(b))[Math.floor(values.length / 2)]!;
}

/** Frame and long-task meters in the page (plain JavaScript over CDP, not subject to the CSP). */
const meterScript = `(() => {
	const m = (window.__bench = { frames: [], longTasks: [], stop: false, startedAt: performance.now(), endedAt: 0 });
	try { new PerformanceObserver((l) => { for (const e of l.getEntries()) m.longTasks.push(e.duration); }).observe({ type: 'longtask' }); } catch {}
	let last = performance.now();
	const frame = (now) => { m.frames.push(now - last); last = now; if (!m.stop) requestAnimationFrame(frame); else m.endedAt = now; };
	requestAnimationFrame((now) => { last = now; m.startedAt = now; requestAnimationFrame(frame); });
})()`;

interface Meters {
	frames: number[];
	longTasks: number[];
	startedAt: number;
	endedAt: number;
}

async function panelPhase() {
	const bundle = makeBundleDir();
	await buildTestBundle(bundle.dir);
	const server = await startPanelServer(bundle.dir);
	const browser = await launchBrowser();
	const rows = [];
	try {
		for (const runs of [1, 2]) {
			const context = await newPanelContext(browser, { width: 1280, height: 900 });
			const panel = await openPanel(context, server, 'prod');
			await panel.send({ type: 'snapshot', state: null, runs: [] });
			await browser.startTracing(panel.page, {
				categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'],
			});
			await panel.page.evaluate(meterScript);
			// Posted in order, none awaited by the run: the host does not wait for the webview either.
			let queue = Promise.resolve();
			const send = (json: string) => {
				queue = queue
					.then(() => panel.page.evaluate(`window.postMessage(${json}, '*')`))
					.then(() => undefined);
			};
			const host = await runTogether(runs, send);
			await queue;
			const meters = (await panel.page.evaluate(
				'(window.__bench.stop = true, new Promise((r) => setTimeout(() => r(window.__bench), 100)))',
			)) as Meters;
			const trace = await browser.stopTracing();
			const violations = await panel.violations();
			const seconds = (meters.endedAt - meters.startedAt) / 1000;
			const frames = meters.frames;
			const dropped = frames.reduce((sum, delta) => sum + Math.max(0, Math.round(delta / frameMs) - 1), 0);
			const expected = Math.round((seconds * 1000) / frameMs);
			const tasks = traceTasks(trace, seconds);
			rows.push({
				runs,
				host,
				frames: {
					count: frames.length,
					dropped,
					droppedPercent: round((dropped / Math.max(1, expected)) * 100),
					p95Ms: round(percentile(frames, 95)),
					maxMs: round(Math.max(0, ...frames)),
				},
				longTasks: {
					observerCount: meters.longTasks.length,
					traceLongestTaskWallMs: tasks.longestMs,
					traceLongestTaskCpuMs: tasks.longestCpuMs,
					traceTasksOver50MsCpu: tasks.over50Cpu,
					mainThreadCpuMsPerSecond: tasks.mainThreadCpuMsPerSecond,
				},
				cspViolations: violations.length,
			});
			await context.close();
		}
	} finally {
		await browser.close();
		await server.close();
		bundle.remove();
	}
	return rows;
}

async function main(): Promise<void> {
	const load1 = round(loadavg()[0] ?? 0);
	await runTogether(1, () => undefined); // warm up the JIT and module loading
	const host = [];
	for (const runs of [1, 2]) {
		const tries = [];
		for (let i = 0; i < repeats; i++) tries.push(await runTogether(runs, () => undefined));
		host.push({ ...median(tries, (row) => row.cpuMs), repeats });
	}
	const panel = await panelPhase();
	const report = {
		load: { agents, tokensPerSecondPerAgent: tokensPerSecond, callSeconds, callsPerAgent: 3 },
		host,
		panel,
		machine: {
			node: process.version,
			cpus: cpus().length,
			loadAverage1mAtStart: load1,
			loadAverage1mAtEnd: round(loadavg()[0] ?? 0),
		},
	};
	process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
	process.exitCode = 1;
});
