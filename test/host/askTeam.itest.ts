// In-host: "MassGen: Ask Team" end to end in the real extension host, against scripted teams.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { commandIds, viewTypes } from '../../src/vscode/common/commandIds';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { FinishedRun } from '../../src/vscode/run/runTypes';
import { requestScreenshot } from './harness';
import { endRunAndConfig, nextFinish, snapshotFiles, until, useConfig, workspaceRoot } from './hostWaits';

const extensionId = 'massgen.massgen-vscode';

function runDirs(root: string): string[] {
	const dir = join(root, '.massgen', 'runs');
	return existsSync(dir) ? readdirSync(dir).sort() : [];
}

function panelTabs(): vscode.Tab[] {
	return vscode.window.tabGroups.all
		.flatMap((group) => group.tabs)
		.filter(
			(tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(viewTypes.panel),
		);
}

describe('Ask Team (in VS Code, scripted teams)', function () {
	this.timeout(60_000);
	let api: MassGenApi;
	let fixtures: string;

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>(extensionId);
		assert.ok(extension);
		// This suite runs first (files run in name order), so this is the extension's first activation.
		const wasActive = extension.isActive;
		const t = performance.now();
		api = await extension.activate();
		console.log(
			`activation: ${(performance.now() - t).toFixed(1)} ms including loading dist/extension.js (activate() itself: ${api.activationMs.toFixed(1)} ms)${wasActive ? ' [was already active]' : ''}`,
		);
		fixtures = join(extension.extensionPath, 'test', 'fixtures', 'vscode');
	});

	afterEach(async () => {
		await endRunAndConfig(api);
	});

	after(async () => {
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	it('runs the team on a question argument: winner, final answer, run log; nothing written to the workspace', async () => {
		const root = workspaceRoot();
		await useConfig(join(fixtures, 'team.yaml'));
		const before = snapshotFiles(root);
		const runsBefore = runDirs(root);
		const finished = nextFinish(api);
		const t = Date.now();
		const command = vscode.commands.executeCommand<FinishedRun | undefined>(
			commandIds.askTeam,
			'How should we document this project?',
		);

		// While it runs: the context key, the status bar, and the side bar view (shown without focus).
		await until('the run to start', () => api.runs.isRunning);
		await until('the status bar', () => api.ui().statusBar);
		assert.equal(api.ui().runActive, true);
		assert.match(api.ui().statusBar!, /MassGen: /);
		await until('the panel', () => api.ui().panelOpen);
		assert.equal(api.panelSurfaces().view.visible, true);
		assert.equal(api.panelSurfaces().view.focused, false, 'the run did not take the keyboard');

		const returned = await command;
		const run = await finished;
		console.log(`ask-team run: ${Date.now() - t} ms (scripted, 3 agents)`);
		assert.ok(returned, 'the command resolves with the finished run');
		assert.equal(returned.result.runId, run.result.runId);
		const { result, state } = run;
		assert.equal(result.status, 'completed', result.error);
		assert.ok(result.winner, 'a winner');
		assert.ok(['planner', 'reviewer', 'skeptic'].includes(result.winner.agentId));
		assert.deepEqual(state.winner?.agentId, result.winner.agentId);
		assert.equal(result.votes.length, 3);
		for (const vote of result.votes) assert.equal(vote.votedFor, result.winner.agentId);
		assert.match(result.finalAnswer ?? '', new RegExp(`${result.winner.agentId}'s presentation`));
		assert.equal(state.status, 'completed');
		assert.equal(api.lastState()?.runId, result.runId);
		assert.deepEqual(result.changes.map((c) => `${c.kind} ${c.path}`).sort(), [
			'add docs/NOTES.md',
			'modify README.md',
		]);

		// The run log.
		assert.deepEqual(runDirs(root), [...runsBefore, result.runId].sort());
		assert.equal(run.runDir, join(root, '.massgen', 'runs', result.runId));
		for (const file of ['events.jsonl', 'result.json', 'final-answer.md', 'changes.patch', 'config.yaml']) {
			assert.ok(existsSync(join(run.runDir, file)), `${file} in the run directory`);
		}
		const onDisk = JSON.parse(readFileSync(join(run.runDir, 'result.json'), 'utf8')) as {
			status: string;
			winner: { agentId: string };
		};
		assert.equal(onDisk.status, 'completed');
		assert.equal(onDisk.winner.agentId, result.winner.agentId);
		const lines = readFileSync(join(run.runDir, 'events.jsonl'), 'utf8').trim().split('\n');
		assert.equal(JSON.parse(lines[0]!).type, 'run-start');
		assert.equal(JSON.parse(lines.at(-1)!).type, 'run-end');

		// Nothing reached the workspace: edits are proposals until accepted.
		assert.deepEqual(snapshotFiles(root), before);
		assert.equal(existsSync(join(root, 'docs', 'NOTES.md')), false);

		// Afterwards the UI is back to idle, and the side bar view shows the run (no editor tab).
		assert.deepEqual(api.ui(), {
			runActive: false,
			statusBar: undefined,
			statusTooltip: undefined,
			panelOpen: true,
		});
		assert.equal(api.panelSurfaces().view.runId, result.runId);
		assert.equal(panelTabs().length, 0);
		await new Promise((resolve) => setTimeout(resolve, 500));
		await requestScreenshot('in-host-ask-team-finished');
	});

	it('Cancel Run during a run: status cancelled, partial log kept, nothing written', async () => {
		const root = workspaceRoot();
		await useConfig(join(fixtures, 'slow-team.yaml'));
		const before = snapshotFiles(root);
		const finished = nextFinish(api);
		const command = vscode.commands.executeCommand(commandIds.askTeam, 'A question to cancel');
		await until(
			'the run to start streaming',
			() => api.lastState()?.status === 'running' && api.lastState()!.agentOrder.length === 2,
		);
		const t = Date.now();
		await vscode.commands.executeCommand(commandIds.cancelRun);
		const run = await finished;
		await command;
		console.log(`cancel: run ended ${Date.now() - t} ms after Cancel Run`);
		assert.ok(Date.now() - t < 5_000, 'cancelling does not wait for the 30 s model calls');
		assert.equal(run.result.status, 'cancelled');
		assert.equal(run.state.status, 'cancelled');
		const onDisk = JSON.parse(readFileSync(join(run.runDir, 'result.json'), 'utf8')) as { status: string };
		assert.equal(onDisk.status, 'cancelled');
		assert.ok(existsSync(join(run.runDir, 'events.jsonl')));
		assert.deepEqual(snapshotFiles(root), before);
		assert.deepEqual(api.ui(), {
			runActive: false,
			statusBar: undefined,
			statusTooltip: undefined,
			panelOpen: true,
		});
	});

	it('Open in Editor during a run shows the same run in a tab; closing the tab leaves the run going in the side bar, Cancel Run ends it', async () => {
		const root = workspaceRoot();
		await useConfig(join(fixtures, 'slow-team.yaml'));
		const before = snapshotFiles(root);
		const finished = nextFinish(api);
		const command = vscode.commands.executeCommand(commandIds.askTeam, 'A question shown in a tab');
		await until(
			'the run to start streaming',
			() => api.lastState()?.status === 'running' && api.lastState()!.agentOrder.length === 2,
		);
		const runId = api.lastState()!.runId!;
		await vscode.commands.executeCommand(commandIds.openInEditor);
		const [tab] = await until('the editor tab', () => (panelTabs().length === 1 ? panelTabs() : undefined));
		assert.equal(tab!.label, 'MassGen');
		await until('the tab to show the run', () => api.panelSurfaces().editor.runId === runId);
		// The tab's page took the keyboard (its ask box), not the view's.
		await until('the tab with the keyboard', () => api.panelSurfaces().editor.focused);
		assert.equal(api.panelSurfaces().view.focused, false);
		await requestScreenshot('in-host-open-in-editor');

		assert.ok(await vscode.window.tabGroups.close(tab!), 'the tab closes');
		await until('the tab to close', () => !api.panelSurfaces().editor.open);
		assert.equal(api.runs.isRunning, true, 'the run goes on');
		assert.equal(api.panelSurfaces().view.runId, runId);
		await vscode.commands.executeCommand(commandIds.cancelRun);
		const run = await finished;
		await command;
		assert.equal(run.result.status, 'cancelled');
		assert.deepEqual(snapshotFiles(root), before);
		assert.equal(panelTabs().length, 0);
	});

	it('a broken config: diagnostics at each line:col, no run', async () => {
		const root = workspaceRoot();
		const file = join(fixtures, 'broken.yaml');
		await useConfig(file);
		const runsBefore = runDirs(root);
		const returned = await vscode.commands.executeCommand(commandIds.askTeam, 'Will not run');
		assert.equal(returned, undefined);
		assert.deepEqual(runDirs(root), runsBefore, 'no run directory');
		const diagnostics = await until('diagnostics', () => {
			const found = vscode.languages.getDiagnostics(vscode.Uri.file(file));
			return found.length ? found : undefined;
		});
		const seen = diagnostics
			.map(
				(d) =>
					`${d.range.start.line + 1}:${d.range.start.character + 1}-${d.range.end.character + 1} ${d.severity === vscode.DiagnosticSeverity.Error ? 'error' : 'warning'} ${String(d.code)}`,
			)
			.sort();
		assert.deepEqual(seen, [
			'5:5-12 error missing-script',
			'7:20-23 error invalid-type',
			'8:9-10 error duplicate-agent-id',
		]);
		assert.ok(diagnostics.every((d) => d.source === 'MassGen'));
		assert.deepEqual(api.ui(), {
			runActive: false,
			statusBar: undefined,
			statusTooltip: undefined,
			panelOpen: true,
		});
	});

	it('a missing API key: an error diagnostic at the agent naming the variable, no run', async () => {
		const root = workspaceRoot();
		const file = join(fixtures, 'needs-key.yaml');
		await useConfig(file);
		const runsBefore = runDirs(root);
		const returned = await vscode.commands.executeCommand(commandIds.askTeam, 'Will not run either');
		assert.equal(returned, undefined);
		assert.deepEqual(runDirs(root), runsBefore);
		const diagnostics = await until('diagnostics', () => {
			const found = vscode.languages.getDiagnostics(vscode.Uri.file(file));
			return found.length ? found : undefined;
		});
		assert.equal(diagnostics.length, 1);
		assert.equal(diagnostics[0]!.code, 'missing-api-key');
		assert.equal(diagnostics[0]!.range.start.line, 4 - 1);
		assert.match(diagnostics[0]!.message, /CEREBRAS_API_KEY/);
	});

	it('a follow-up from the panel continues the conversation; a new Ask Team starts a new one', async () => {
		await useConfig(join(fixtures, 'team.yaml'));
		const first = await api.runs.start({ question: 'First question', kind: 'ask' });
		assert.equal(first?.result.status, 'completed');
		const second = await api.runs.start({
			question: 'And a follow-up?',
			kind: 'ask',
			continueConversation: true,
		});
		assert.equal(second?.result.status, 'completed');
		assert.deepEqual(
			api.conversation().map((turn) => turn.question),
			['First question', 'And a follow-up?'],
		);
		assert.equal(api.conversation()[0]!.answer, first?.result.finalAnswer);
		await api.runs.start({ question: 'Something else', kind: 'ask' });
		assert.deepEqual(
			api.conversation().map((turn) => turn.question),
			['Something else'],
		);
	});
});
