// In-host: approvals of risky tool calls (docs/tools-and-sandbox.md) in the real extension host, with
// scripted teams whose agents ask to run commands; answered through the panel's message path. Also checks
// that activation does not load the run engine (dist/engine.js) and that the first run does.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { RunEvent } from '../../src/contract/runEvents';
import type { MassGenApprovalsApi } from '../../src/vscode/approvals/registerApprovals';
import { commandIds } from '../../src/vscode/common/commandIds';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { FinishedRun } from '../../src/vscode/run/runTypes';
import { requestScreenshot } from './harness';
import { endRunAndConfig, until } from './hostWaits';

type Api = MassGenApi & { readonly approvals: MassGenApprovalsApi };

const extensionId = 'massgen.massgen-vscode';

/** The next run's end; rejects after `timeoutMs` with what the run was doing (instead of a bare mocha timeout). */
function nextFinish(api: Api, timeoutMs = 90_000): Promise<FinishedRun> {
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			listener.dispose();
			const state = api.lastState();
			const lanes = Object.values(state?.agents ?? {}).map((lane) => JSON.stringify(lane).slice(0, 400));
			reject(
				new Error(
					`the run did not end within ${timeoutMs} ms: status ${state?.status}, approvals ${JSON.stringify(state?.approvals)}, pending ${JSON.stringify(api.approvals.pending())}\n${lanes.join('\n')}`,
				),
			);
		}, timeoutMs);
		const listener = api.runs.onDidFinishRun((run) => {
			clearTimeout(timer);
			listener.dispose();
			resolve(run);
		});
	});
}

async function useConfig(path: string | undefined): Promise<void> {
	await vscode.workspace.getConfiguration().update('massgen.config', path, vscode.ConfigurationTarget.Global);
}

const jsonLines = <T>(file: string): T[] =>
	readFileSync(file, 'utf8')
		.trim()
		.split('\n')
		.map((line) => JSON.parse(line) as T);

interface LedgerLine {
	agentId: string;
	tool: string;
	action: string;
	target: string;
	decision: 'allow' | 'deny';
	via: string;
	by: string;
	requestId?: string;
	scope?: string;
	note?: string;
	rule?: string;
}

/** dist/engine.js in Node's module cache (the extension host loads extensions with require). */
function engineLoaded(): string | undefined {
	return Object.keys(require.cache).find((file) => /[\\/]dist[\\/]engine\.js$/.test(file));
}

describe('Approvals (in VS Code, scripted agents asking to run commands)', function () {
	this.timeout(120_000);
	let api: Api;
	let fixtures: string;

	before(async () => {
		const extension = vscode.extensions.getExtension<Api>(extensionId);
		assert.ok(extension);
		const wasActive = extension.isActive;
		const t = performance.now();
		api = await extension.activate();
		const ms = performance.now() - t;
		console.log(
			`activation: ${ms.toFixed(1)} ms including loading dist/extension.js (activate() itself: ${api.activationMs.toFixed(1)} ms)${wasActive ? ' [was already active]' : ''}; dist/engine.js loaded: ${engineLoaded() ? 'yes' : 'no'}`,
		);
		if (!wasActive || api.lastState() === null) {
			// Activation (and everything until the first run) never loads the engine bundle.
			assert.equal(engineLoaded(), undefined, 'dist/engine.js must not be loaded before the first run');
		}
		fixtures = join(extension.extensionPath, 'test', 'fixtures', 'vscode');
	});

	afterEach(async () => {
		await endRunAndConfig(api);
	});

	after(async () => {
		await api.approvals.clearAlwaysAllowed();
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	it('two agents ask to run `npm publish`: one request (one card, one notification, badge), denied from the panel → both get a tool error, the run completes, permissions.jsonl records it', async () => {
		await useConfig(join(fixtures, 'approvals-team.yaml'));
		// The user is in an editor: the panel opens beside it without the focus, so the request is also a notification.
		const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
		await vscode.window.showTextDocument(vscode.Uri.file(join(root, 'README.md')));
		const finished = nextFinish(api);
		const t = Date.now();
		const command = vscode.commands.executeCommand<FinishedRun | undefined>(
			commandIds.askTeam,
			'Release version 1.0',
		);

		// Both agents wait on the one request (the second joined the first).
		const pending = await until('both agents to wait on one approval request', () => {
			const all = api.approvals.pending();
			return all.length === 1 && all[0]!.agentIds.length === 2 ? all[0] : undefined;
		});
		console.log(`approval requested after ${Date.now() - t} ms`);
		assert.equal(engineLoaded() !== undefined, true, 'the first run loaded dist/engine.js');
		assert.deepEqual([...pending.agentIds].sort(), ['builder', 'tester']);
		assert.equal(pending.action, 'command');
		assert.equal(pending.target, 'npm publish');
		assert.deepEqual(pending.args, { command: 'npm publish', cwd: '.' });
		assert.match(pending.reason, /publish/);
		assert.equal(pending.risk.level, 'high');
		const state = await until('the card in the panel state', () => {
			const s = api.lastState();
			return s && s.approvals.length > 0 ? s : undefined;
		});
		assert.equal(state.approvals.length, 1, 'identical requests are one card');
		assert.deepEqual(
			{ ...state.approvals[0], t: 0 },
			{
				requestId: pending.requestId,
				agentId: pending.agentIds[0],
				action: 'command',
				target: 'npm publish',
				reason: pending.reason,
				t: 0,
				decision: null,
				by: null,
			},
		);
		assert.deepEqual(api.approvals.ui(), {
			badge: '$(shield) 1 approval',
			panelTitle: 'MassGen (1 waiting)',
		});
		// The panel opened without the focus: the request was also announced by one notification, naming its run.
		assert.deepEqual(api.approvals.notifications(), [
			`MassGen “Release version 1.0”: ${pending.agentIds[0]} wants to run \`npm publish\``,
		]);
		await requestScreenshot('in-host-approval-pending');

		// The panel's message path: validated, stale ids ignored, then Deny with a note.
		await api.approvals.postFromPanel({ type: 'approval', requestId: pending.requestId, decision: 'maybe' });
		await api.approvals.postFromPanel({
			type: 'approval',
			requestId: 'approval-0-000000',
			decision: 'allow-once',
		});
		assert.equal(api.approvals.pending().length, 1, 'an invalid or stale message decides nothing');
		await api.approvals.postFromPanel({
			type: 'approval',
			requestId: pending.requestId,
			decision: 'deny',
			note: 'Publishing is for maintainers.',
		});
		assert.deepEqual(api.approvals.pending(), []);
		assert.deepEqual(api.approvals.ui(), { badge: undefined, panelTitle: 'MassGen' });

		const run = await finished;
		await command;
		console.log(`approvals run: ${Date.now() - t} ms`);
		const { result } = run;
		assert.equal(result.status, 'completed', result.error ?? undefined);
		assert.ok(result.winner, 'a winner');
		assert.ok(['builder', 'tester'].includes(result.winner.agentId));
		assert.deepEqual(
			run.state.approvals.map((a) => [a.requestId, a.decision, a.by]),
			[[pending.requestId, 'deny', 'user']],
		);

		// Each agent got the denial (with the note) as its tool result, and went on to answer.
		const events = jsonLines<RunEvent>(join(run.runDir, 'events.jsonl'));
		const results = events.filter(
			(e): e is Extract<RunEvent, { type: 'tool-result' }> =>
				e.type === 'tool-result' && e.name === 'run_command',
		);
		assert.deepEqual(results.map((e) => e.agentId).sort(), ['builder', 'tester']);
		for (const e of results) {
			assert.equal(e.isError, true);
			assert.equal(
				e.text,
				'run_command: denied by the user. Note from the user: Publishing is for maintainers.',
			);
		}
		assert.equal(events.filter((e) => e.type === 'approval-request').length, 1);
		assert.deepEqual(
			events
				.filter((e) => e.type === 'approval-result')
				.map((e) => (e.type === 'approval-result' ? [e.requestId, e.decision, e.by] : [])),
			[[pending.requestId, 'deny', 'user']],
		);
		assert.ok(
			events.some((e) => e.type === 'new-answer'),
			'the agents answered after the denial',
		);
		assert.equal(events.at(-1)?.type, 'run-end');

		// The audit ledger: one line per asking agent, decided by the user through the approval.
		const ledgerFile = join(run.runDir, 'permissions.jsonl');
		assert.ok(existsSync(ledgerFile), 'permissions.jsonl in the run directory');
		const ledger = jsonLines<LedgerLine>(ledgerFile);
		assert.deepEqual(ledger.map((line) => line.agentId).sort(), ['builder', 'tester']);
		for (const line of ledger) {
			assert.deepEqual(
				[line.tool, line.action, line.target, line.decision, line.via, line.by, line.requestId, line.note],
				[
					'run_command',
					'command',
					'npm publish',
					'deny',
					'approval',
					'user',
					pending.requestId,
					'Publishing is for maintainers.',
				],
			);
		}
		await new Promise((resolve) => setTimeout(resolve, 300));
		await requestScreenshot('in-host-approval-denied');
	});

	it('Cancel Run while a request waits: the request is denied, the badge clears, the run ends cancelled', async () => {
		await useConfig(join(fixtures, 'approvals-team.yaml'));
		const finished = nextFinish(api);
		const command = vscode.commands.executeCommand(commandIds.askTeam, 'Release version 1.1');
		const pending = await until('an approval request', () => api.approvals.pending()[0]);
		assert.equal(api.approvals.ui().badge, '$(shield) 1 approval');
		await vscode.commands.executeCommand(commandIds.cancelRun);
		const run = await finished;
		await command;
		assert.equal(run.result.status, 'cancelled');
		assert.deepEqual(api.approvals.pending(), []);
		assert.deepEqual(api.approvals.ui(), { badge: undefined, panelTitle: 'MassGen' });
		const ledger = jsonLines<LedgerLine>(join(run.runDir, 'permissions.jsonl'));
		assert.ok(ledger.length >= 1, 'the cancelled request is in the ledger');
		for (const line of ledger) {
			assert.deepEqual(
				[line.target, line.decision, line.by, line.requestId],
				['npm publish', 'deny', 'cancelled', pending.requestId],
			);
		}
		// The panel's card is closed too (the event union has no "withdrawn": it expires).
		assert.deepEqual(
			run.state.approvals.map((a) => [a.decision, a.by]),
			[['deny', 'timeout']],
		);
	});

	it('"Always allow" from the panel: the command runs in the scratch copy (not the workspace), the grant is kept in workspace state, and the next run does not ask', async () => {
		const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
		await api.approvals.clearAlwaysAllowed();
		await useConfig(join(fixtures, 'approvals-allow.yaml'));
		let finished = nextFinish(api);
		const first = vscode.commands.executeCommand(commandIds.askTeam, 'Touch the file');
		const pending = await until('an approval request', () => api.approvals.pending()[0]);
		assert.equal(pending.target, 'touch approved.txt');
		assert.equal(pending.grantRule, 'command(touch approved.txt)');
		await api.approvals.postFromPanel({ type: 'approval', requestId: pending.requestId, decision: 'always' });
		let run = await finished;
		// The command resolves once the controller is idle again (a second Ask Team before that would ask to replace the run).
		await first;
		assert.equal(run.result.status, 'completed', run.result.error ?? undefined);
		assert.deepEqual(api.approvals.alwaysAllowed(), ['command(touch approved.txt)']);
		assert.equal(
			existsSync(join(root, 'approved.txt')),
			false,
			'commands run in a scratch copy, never in the workspace',
		);
		let events = jsonLines<RunEvent>(join(run.runDir, 'events.jsonl'));
		const touched = events.find((e) => e.type === 'tool-result' && e.name === 'run_command');
		assert.ok(touched && touched.type === 'tool-result');
		assert.equal(touched.isError, false, touched.text);
		// It ran behind bubblewrap in the extension host (Node 20), and the panel's state says so.
		assert.equal(run.state.commandSandbox?.mode, 'bubblewrap', run.state.commandSandbox?.notice);
		assert.deepEqual(
			jsonLines<LedgerLine>(join(run.runDir, 'permissions.jsonl')).map((l) => [
				l.agentId,
				l.decision,
				l.via,
				l.by,
				l.scope,
			]),
			[['toucher', 'allow', 'approval', 'user', 'always']],
		);

		// The next run: allowed by the stored grant, no request, no card.
		finished = nextFinish(api);
		await vscode.commands.executeCommand(commandIds.askTeam, 'Touch the file again');
		run = await finished;
		assert.equal(run.result.status, 'completed', run.result.error ?? undefined);
		events = jsonLines<RunEvent>(join(run.runDir, 'events.jsonl'));
		assert.equal(events.filter((e) => e.type === 'approval-request').length, 0);
		assert.deepEqual(run.state.approvals, []);
		const ledger = jsonLines<LedgerLine>(join(run.runDir, 'permissions.jsonl'));
		assert.deepEqual(
			ledger.map((l) => [l.agentId, l.target, l.decision, l.by]),
			[['toucher', 'touch approved.txt', 'allow', 'engine']],
		);
		assert.equal(existsSync(join(root, 'approved.txt')), false);
	});
});
