// In-host: a model's catastrophic regex or a long search never freezes the extension host (which
// every extension shares). Before RE2 and the walk's yields, `^(a+)+$` blocked it for minutes.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { commandIds } from '../../src/vscode/common/commandIds';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { ToolCallView } from '../../src/protocol/runState';
import { endRunAndConfig, nextFinish, until, useConfig } from './hostWaits';

const extensionId = 'massgen.massgen-vscode';

describe('A hostile or busy tool call never freezes the extension host', function () {
	this.timeout(60_000);
	let api: MassGenApi;
	let fixtures: string;
	let folder: string;

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>(extensionId);
		assert.ok(extension);
		api = await extension.activate();
		fixtures = join(extension.extensionPath, 'test', 'fixtures', 'vscode');
		const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
		assert.ok(root, 'the test window has a workspace folder');
		folder = join(root, 'freeze');
		rmSync(folder, { recursive: true, force: true });
		mkdirSync(folder, { recursive: true });
		writeFileSync(join(folder, 'evil.txt'), `${'a'.repeat(41)}!\n`.repeat(2000));
		mkdirSync(join(folder, 'data'));
		const lines = 'a\n'.repeat(500_000);
		for (let file = 0; file < 40; file++) writeFileSync(join(folder, 'data', `f${file}.txt`), lines);
	});

	after(async () => {
		await endRunAndConfig(api);
		rmSync(folder, { recursive: true, force: true });
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	it('a catastrophic regex answers within 1 s; during a long search a command answers within 1 s; cancel ends it', async () => {
		await useConfig(join(fixtures, 'freeze-team.yaml'));
		const finished = nextFinish(api);
		void vscode.commands.executeCommand(commandIds.askTeam, 'Search the freeze folder');

		const calls = await until('the long search to be running', () => {
			const seen: readonly ToolCallView[] = api.lastState()?.agents['searcher']?.toolCalls ?? [];
			return seen.length === 2 && seen[1]!.result === null ? seen : undefined;
		});
		const catastrophic = calls[0]!;
		assert.equal(catastrophic.result?.isError, false);
		assert.match(catastrophic.result!.text, /^no matches for \/\^\(a\+\)\+\$\/ in 'freeze\/evil\.txt'/);
		assert.ok(
			catastrophic.result!.t - catastrophic.t < 1000,
			`the regex search took ${catastrophic.result!.t - catastrophic.t} ms`,
		);

		const latencies: number[] = [];
		for (let probe = 0; probe < 5; probe++) {
			const started = performance.now();
			await vscode.commands.executeCommand('setContext', 'massgen.freezeProbe', probe);
			latencies.push(performance.now() - started);
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
		console.log(
			`freeze: command round trips during the search: ${latencies.map((ms) => ms.toFixed(0)).join(', ')} ms`,
		);
		for (const ms of latencies) assert.ok(ms < 1000, `a command took ${ms} ms while the search ran`);
		// The probes ran while the search was still going (it needs far longer than a second).
		assert.equal(api.lastState()?.agents['searcher']?.toolCalls[1]?.result, null);

		const cancelledAt = Date.now();
		api.runs.cancel();
		const run = await finished;
		console.log(`freeze: run ended ${Date.now() - cancelledAt} ms after cancel`);
		assert.ok(Date.now() - cancelledAt < 2000, 'cancel ends the run while the search is busy');
		assert.equal(run.result.status, 'cancelled');
	});
});
