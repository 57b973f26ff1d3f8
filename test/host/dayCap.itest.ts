// In-host: massgen.maxCostUsdPerDay over the extension's run controller, the agents through the
// OpenAI SDK against a loopback server whose every call reports a priced usage.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { stringify } from 'yaml';
import type { RunEvent } from '../../src/contract/runEvents';
import { formatUsd } from '../../src/core/run/costEstimate';
import { spentOnDay } from '../../src/core/runStore/daySpend';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { RunEventBatch } from '../../src/vscode/run/liveRun';
import { startLoopbackProvider, type LoopbackProvider } from '../servers/loopbackProvider';
import { endRunAndConfig, until, useConfig } from './hostWaits';

async function setting(key: string, value: number | undefined): Promise<void> {
	await vscode.workspace.getConfiguration().update(key, value, vscode.ConfigurationTarget.Global);
}

/** What the window's folders' runs finished today spent, as the controller reads it. */
async function spentToday(): Promise<number> {
	let usd = 0;
	for (const folder of vscode.workspace.workspaceFolders ?? []) {
		usd += (await spentOnDay(folder.uri.fsPath, new Date())).usd;
	}
	return usd;
}

describe('massgen.maxCostUsdPerDay (in VS Code, loopback server)', function () {
	this.timeout(90_000);
	let api: MassGenApi;
	let server: LoopbackProvider;
	let dir: string;

	/** A two-agent team on `model` (gpt-5-mini: $0.045 a call; gpt-5 answers after 60 s). */
	function team(model: string): string {
		const backend = { type: 'openai', model, base_url: server.baseUrl, api_key: 'loopback' };
		const file = join(dir, `${model}.yaml`);
		writeFileSync(
			file,
			stringify({
				agents: [
					{ id: 'a', backend },
					{ id: 'b', backend },
				],
			}),
		);
		return file;
	}

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		api = await extension.activate();
		// gpt-5-mini: 100k input at $0.25/M + 10k output at $2/M = $0.045 a call.
		server = await startLoopbackProvider('responses', {
			auto: { name: 'daycap', usage: { input: 100_000, output: 10_000 } },
			latency: { 'gpt-5': { firstByteMs: 60_000, streamMs: 0 } },
		});
		dir = mkdtempSync(join(tmpdir(), 'massgen-daycap-'));
	});

	afterEach(async () => {
		await endRunAndConfig(api);
		await setting('massgen.maxCostUsdPerDay', undefined);
		await setting('massgen.maxCostUsd', undefined);
	});

	after(async () => {
		await server?.close();
		rmSync(dir, { recursive: true, force: true });
	});

	it('a run under the day cap gets what is left of the day as its budget, and stops there', async () => {
		await useConfig(team('gpt-5-mini'));
		const spent = await spentToday();
		await setting('massgen.maxCostUsdPerDay', spent + 0.06);
		await setting('massgen.maxCostUsd', 5);
		const events: RunEvent[] = [];
		const outcome = await api.runs.tryStart({ question: 'What is 2 + 2?', kind: 'ask' }, undefined, (batch) =>
			events.push(...batch.events),
		);
		assert.ok('run' in outcome, `started: ${JSON.stringify(outcome)}`);
		const start = events.find((e) => e.type === 'run-start');
		const cap = start?.type === 'run-start' ? start.budget?.maxCostUsd : undefined;
		assert.equal(cap?.source, 'massgen.maxCostUsdPerDay');
		assert.ok(Math.abs((cap?.limit ?? 0) - 0.06) < 1e-9, `limit ${cap?.limit}`);
		// Two calls of $0.045 pass $0.06: the day's cap ended the run, not massgen.maxCostUsd's $5.
		assert.match(
			outcome.run.result.budget?.reason ?? '',
			/^cost budget reached: .* \(massgen\.maxCostUsdPerDay\)$/,
		);
	});

	it('a run once the day cap is reached is refused before it asks anything, with the figures', async () => {
		await useConfig(team('gpt-5-mini'));
		const spent = await spentToday();
		assert.ok(spent > 0, 'the runs of this window spent something today');
		await setting('massgen.maxCostUsdPerDay', spent);
		const before = server.requests.length;
		const outcome = await api.runs.tryStart({ question: 'What is 3 + 3?', kind: 'ask' });
		assert.deepEqual(outcome, {
			refused: 'budget',
			reason: `today's spend reached ${formatUsd(spent)} (massgen.maxCostUsdPerDay): ${formatUsd(spent)} by today's finished runs, $0.0000 held by the runs going now`,
		});
		assert.equal(server.requests.length, before);
		assert.equal(api.runs.isRunning, false);
	});

	it('a run going now holds its whole cap: a second run is refused until it ends', async () => {
		await useConfig(team('gpt-5'));
		const spent = await spentToday();
		await setting('massgen.maxCostUsdPerDay', spent + 1);
		await setting('massgen.maxCostUsd', 1);
		const batches: RunEventBatch[] = [];
		const first = api.runs.tryStart({ question: 'Slow question?', kind: 'ask' }, undefined, (batch) =>
			batches.push(batch),
		);
		await until('the first run started', () =>
			batches.some((b) => b.events.some((e) => e.type === 'run-start')),
		);
		const before = server.requests.length;
		const second = await api.runs.tryStart({ question: 'Second question?', kind: 'ask' });
		assert.deepEqual(second, {
			refused: 'budget',
			reason: `today's spend reached ${formatUsd(spent + 1)} (massgen.maxCostUsdPerDay): ${formatUsd(spent)} by today's finished runs, $1.00 held by the runs going now`,
		});
		assert.ok(
			server.requests.slice(before).every((r) => !r.prompt.texts.join('\n').includes('Second question?')),
		);
		const going = api.runs.active();
		assert.equal(going.length, 1);
		api.runs.cancel(going[0]!.ticket);
		assert.ok('run' in (await first));
	});
});
