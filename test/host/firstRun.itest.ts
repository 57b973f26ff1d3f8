// In-host: the first run with nothing set up (no key, no VS Code model, no local server, no team
// config): one "No model yet" offer that keeps the question, and its "Try the Demo Team" runs it.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { HostMessage } from '../../src/protocol/messages';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { FinishedRun } from '../../src/vscode/run/runTypes';
import { until, useConfig, workspaceRoot } from './hostWaits';
import { type OwnPanel, openOwnPanel } from './ownPanel';

const question = 'Where should a new contributor start?';

describe('First run with no model (in VS Code, the default team with nothing available)', function () {
	this.timeout(60_000);
	let own: OwnPanel;

	const runDirs = () => {
		const dir = join(workspaceRoot(), '.massgen', 'runs');
		return existsSync(dir) ? readdirSync(dir) : [];
	};
	const nextFinish = () =>
		new Promise<FinishedRun>((resolve) => {
			const listener = own.runs.onDidFinishRun((run) => {
				listener.dispose();
				resolve(run);
			});
		});
	const refusals = () =>
		own.posted.filter((m): m is Extract<HostMessage, { type: 'ask-refused' }> => m.type === 'ask-refused');

	before(async () => {
		const extension = vscode.extensions.getExtension('massgen.massgen-vscode');
		assert.ok(extension);
		await extension.activate();
		await useConfig(undefined);
		assert.equal(
			existsSync(join(workspaceRoot(), '.massgen', 'config.yaml')),
			false,
			'no workspace team: the default team is chosen',
		);
		// No key from the environment; the graph's key store is empty (ownPanel.ts).
		own = await openOwnPanel(extension, 'MassGen first run test', { env: {} });
	});

	beforeEach(async () => {
		await vscode.commands.executeCommand('notifications.clearAll');
	});

	after(async () => {
		if (own?.runs.isRunning) own.runs.cancel();
		own?.dispose();
		await vscode.commands.executeCommand('notifications.clearAll');
	});

	it('asks once with no model: the question comes back to the box, nothing runs; Try the Demo Team runs that question', async () => {
		const offers = own.questions.of('noModel').length;
		const refused = refusals().length;
		const dirs = runDirs().length;
		await own.panel.receive({ type: 'ask', question });
		const offer = await until('the no-model offer', () => own.questions.of('noModel')[offers]);
		assert.match(offer, /No model yet/);
		// One short line, not every provider's missing key.
		assert.ok(offer.length < 80 && !/API_KEY/.test(offer), offer);
		const back = await until('the question back in the ask box', () => refusals()[refused]);
		assert.equal(back.question, question);
		assert.match(back.reason, /no model yet/i);
		assert.equal(own.runs.isRunning, false);
		assert.equal(runDirs().length, dirs, 'no run directory: the run did not start');

		// "Try the Demo Team" is the offer's first button (the workbench's primary action).
		const finished = nextFinish();
		await vscode.commands.executeCommand('notification.acceptPrimaryAction');
		const run = await finished;
		assert.equal(run.request.question, question, 'the question the user typed runs');
		assert.equal(run.request.preset, 'demo');
		assert.equal(run.result.status, 'completed', run.result.error);
		assert.equal(run.state.question, question);
		assert.deepEqual([...run.state.agentOrder].sort(), ['planner', 'reviewer', 'skeptic']);
		assert.deepEqual(
			run.result.changes.map((change) => change.path),
			['CONTRIBUTING.md'],
		);
		assert.equal(runDirs().length, dirs + 1);
		// The user's settings are left as they were: the demo was for this question only.
		assert.equal(vscode.workspace.getConfiguration().get('massgen.config'), '');
	});

	it('the Team view shows the default team with no error row for the extension’s own configs/default.yaml', async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode')!;
		const { teamView } = extension.exports;
		teamView.provider.refresh();
		const nodes = await teamView.provider.getChildren();
		const source = nodes.find((node) => node.kind === 'source');
		assert.ok(source && source.kind === 'source');
		assert.equal(source.snapshot.kind, 'default');
		assert.equal(source.snapshot.problem, undefined);
		assert.deepEqual(
			nodes.filter((node) => node.kind === 'problem'),
			[],
		);
		const items = nodes.map((node) => teamView.provider.getTreeItem(node));
		for (const item of items) assert.doesNotMatch(String(item.label), /default\.yaml:\d+:\d+/);
		// Nothing is available here (no key in the host's environment or storage): the demo is offered.
		if (!source.snapshot.agents.some((row) => row.available)) {
			assert.ok(nodes.some((node) => node.kind === 'demo'));
		}
	});

	it('a follow-up from the panel stays on the demo team without asking again', async () => {
		const offers = own.questions.of('noModel').length;
		const finished = nextFinish();
		await own.panel.receive({ type: 'ask', question: 'And a changelog?' });
		const run = await finished;
		assert.equal(run.request.preset, 'demo');
		assert.equal(run.result.status, 'completed', run.result.error);
		assert.equal(own.questions.of('noModel').length, offers, 'no second offer');
	});
});
