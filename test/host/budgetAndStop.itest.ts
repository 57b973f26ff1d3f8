import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { stringify } from 'yaml';
import type { RunEvent } from '../../src/contract/runEvents';
import type { HostMessage } from '../../src/protocol/messages';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import { budgetOptions } from '../../src/vscode/run/budgetSettings';
import type { RunController } from '../../src/vscode/run/runController';
import type { FinishedRun } from '../../src/vscode/run/runTypes';
import type { SurfaceHost } from '../../src/vscode/panel/surfaceHost';
import { startLoopbackProvider, type LoopbackProvider } from '../servers/loopbackProvider';
import { until, useConfig, workspaceRoot } from './hostWaits';
import { openOwnPanel } from './ownPanel';

/** `massgen.maxCostUsd` at user level (undefined: back to no cap). */
async function maxCost(value: number | undefined): Promise<void> {
	await vscode.workspace
		.getConfiguration()
		.update('massgen.maxCostUsd', value, vscode.ConfigurationTarget.Global);
}

/**
 * Stop agent and the run budget through the panel's messages (`PanelHost.receive`, as the webview
 * posts them) in real VS Code, the agents through the OpenAI SDK against a loopback server.
 */
describe('Budget and Stop agent (in VS Code, loopback server)', function () {
	this.timeout(90_000);
	let server: LoopbackProvider;
	let configDir: string;
	let panel: SurfaceHost;
	let runs: RunController;
	let posted: HostMessage[] = [];
	const disposables: vscode.Disposable[] = [];

	/** A two-agent team on the server; `b` uses `bModel`. */
	function team(name: string, bModel: string): string {
		const backend = (model: string) => ({
			type: 'openai',
			model,
			base_url: server.baseUrl,
			api_key: 'loopback',
		});
		const file = join(configDir, `${name}.yaml`);
		writeFileSync(
			file,
			stringify({
				agents: [
					{ id: 'a', backend: backend('gpt-5-mini') },
					{ id: 'b', backend: backend(bModel) },
				],
			}),
		);
		return file;
	}

	const finishOf = () =>
		new Promise<FinishedRun>((resolve) => {
			const listener = runs.onDidFinishRun((run) => {
				listener.dispose();
				resolve(run);
			});
		});
	const eventsOf = (run: FinishedRun): RunEvent[] =>
		readFileSync(join(run.runDir, 'events.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as RunEvent);
	const postedEvents = () => posted.flatMap((m) => (m.type === 'events' ? m.events : []));

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		await extension.activate();
		// gpt-5-mini: 100k input at $0.25/M + 10k output at $2/M = $0.045 a call. gpt-5 answers after 60 s.
		server = await startLoopbackProvider('responses', {
			auto: { name: 'budget', usage: { input: 100_000, output: 10_000 } },
			latency: { 'gpt-5': { firstByteMs: 60_000, streamMs: 0 } },
		});
		configDir = mkdtempSync(join(tmpdir(), 'massgen-budget-'));
		const own = await openOwnPanel(extension, 'MassGen budget test');
		disposables.push(own);
		({ runs, panel, posted } = own);
	});

	after(async () => {
		for (const d of disposables.reverse()) d.dispose();
		await useConfig(undefined);
		await maxCost(undefined);
		await server?.close();
		rmSync(configDir, { recursive: true, force: true });
	});

	it('Stop agent from the panel: its call is aborted, the other answers, votes and presents; the header has spent / cap', async () => {
		await useConfig(team('stop', 'gpt-5'));
		await maxCost(5);
		const before = server.requests.length;
		const finished = finishOf();
		void panel.receive({ type: 'ask', question: 'What is 2 + 2?' });
		// b's call is at the server (it answers in 60 s); a has answered and waits for b's answer.
		await until('b at the server and a answered', () => {
			const state = runs.state;
			return state?.agents['b']?.round === 1 && (state.agents['a']?.answers.length ?? 0) > 0;
		});
		await until('b at the server', () => server.requests.slice(before).some((r) => r.model === 'gpt-5'));
		await panel.receive({ type: 'stop-agent', runId: runs.state!.runId!, agentId: 'b' });
		const run = await finished;
		assert.equal(run.result.status, 'completed');
		assert.equal(run.result.winner?.agentId, 'a');
		assert.ok(run.result.finalAnswer);
		const events = eventsOf(run);
		assert.deepEqual(
			events
				.filter((e) => e.type === 'agent-stopped')
				.map((e) => [e.agentId, e.type === 'agent-stopped' && e.reason]),
			[['b', 'user']],
		);
		assert.ok(events.some((e) => e.type === 'call-aborted' && e.agentId === 'b' && e.reason === 'stopped'));
		assert.ok(events.some((e) => e.type === 'presentation-start' && e.agentId === 'a'));
		// b made one call (stopped); it never voted.
		assert.equal(server.requests.slice(before).filter((r) => r.model === 'gpt-5').length, 1);
		assert.deepEqual(
			run.result.votes.map((v) => v.voter),
			['a'],
		);
		// What the panel was sent and shows: the lane stopped, the header's cap (the setting's).
		assert.equal(run.state.agents['b']?.stopped, true);
		assert.deepEqual(run.state.budget, { maxCostUsd: 5, maxTokens: null, reason: null });
		const start = postedEvents().find((e) => e.type === 'run-start' && e.runId === run.result.runId);
		assert.deepEqual(start?.type === 'run-start' && start.budget?.maxCostUsd, {
			limit: 5,
			source: 'massgen.maxCostUsd',
		});
		// A stop after the run (or for an agent that is not in it) does nothing.
		assert.equal(runs.stopAgent(run.result.runId, 'a'), false);
	});

	it('massgen.maxCostUsd reached mid-run: the run ends cleanly, the stored answers stand, the panel says why', async () => {
		await useConfig(team('budget', 'gpt-5-mini'));
		await maxCost(0.05);
		const before = server.requests.length;
		const finished = finishOf();
		void panel.receive({ type: 'ask', question: 'What is 2 + 2?' });
		const run = await finished;
		const reason = 'cost budget reached: $0.0900 of $0.0500 (massgen.maxCostUsd)';
		assert.equal(run.result.status, 'completed');
		assert.equal(run.result.budget?.reason, reason);
		assert.equal(server.requests.length - before, 2);
		assert.equal(run.result.answers.length, 2);
		const stored = run.result.answers.find((a) => a.agentId === run.result.winner?.agentId);
		assert.equal(run.result.finalAnswer, stored?.content);
		assert.ok(!eventsOf(run).some((e) => e.type === 'presentation-start'));
		assert.equal(run.state.budget?.reason, reason);
		assert.ok(postedEvents().some((e) => e.type === 'budget-reached' && e.reason === reason));
	});

	it('the settings: the lowest of user and workspace values applies, 0 is no cap, a small estimate asks nothing', async () => {
		const settings = vscode.workspace.getConfiguration();
		const folder = vscode.Uri.file(workspaceRoot());
		try {
			await settings.update('massgen.maxCostUsd', 2, vscode.ConfigurationTarget.Global);
			await settings.update('massgen.maxCostUsd', 5, vscode.ConfigurationTarget.Workspace);
			await settings.update('massgen.maxTokens', 0, vscode.ConfigurationTarget.Global);
			// A workspace (a cloned repository's settings) cannot loosen the user's cap...
			assert.deepEqual(budgetOptions(folder).budget, {
				maxCostUsd: { limit: 2, source: 'massgen.maxCostUsd' },
			});
			// ...but may tighten it.
			await settings.update('massgen.maxCostUsd', 1, vscode.ConfigurationTarget.Workspace);
			assert.deepEqual(budgetOptions(folder).budget.maxCostUsd, { limit: 1, source: 'massgen.maxCostUsd' });
			const estimate = { usd: 0.1, inputTokens: 10, callsPerAgent: 3, perAgent: [], unpriced: [], basis: '' };
			assert.equal(await budgetOptions(folder).confirmEstimate(estimate, null), true);
		} finally {
			await settings.update('massgen.maxCostUsd', undefined, vscode.ConfigurationTarget.Workspace);
			await settings.update('massgen.maxCostUsd', undefined, vscode.ConfigurationTarget.Global);
			await settings.update('massgen.maxTokens', undefined, vscode.ConfigurationTarget.Global);
		}
	});
});
