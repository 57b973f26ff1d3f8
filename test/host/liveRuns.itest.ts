// In-host: the Runs view's live rows (the window's runs at the top of the tree) and its badge, with
// the loopback servers holding every reply until the test lets them go (runs stay open as long as
// the test needs), and a scripted team that asks to run `npm publish` for the approval of a run in
// the background. The rows' actions go through their commands, as the view's menus call them.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { MassGenApprovalsApi } from '../../src/vscode/approvals/registerApprovals';
import { commandIds } from '../../src/vscode/common/commandIds';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { LiveGroupNode, LiveRunNode } from '../../src/vscode/pastRuns/liveRunRows';
import { lookOf, type RunsNode } from '../../src/vscode/pastRuns/runsTreeModel';
import type { StartOutcome } from '../../src/vscode/run/runTypes';
import { startLoopbackTeam, type LoopbackTeam } from '../servers/loopbackTeam';
import { endRunAndConfig, rejectPendingChanges, until, useConfig } from './hostWaits';
import { asks, replyGate } from './replyGate';

type Api = MassGenApi & { readonly approvals: MassGenApprovalsApi };

const extensionId = 'massgen.massgen-vscode';

/** `until` for a probe that reads the tree (asynchronous). */
async function untilRows(what: string, probe: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await probe())) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
}

describe('Runs view: live runs at the top, their actions and the badge (loopback team)', function () {
	this.timeout(120_000);
	let api: Api;
	let team: LoopbackTeam;
	let dir: string;
	let fixtures: string;
	const replies = replyGate();

	before(async () => {
		const extension = vscode.extensions.getExtension<Api>(extensionId);
		assert.ok(extension);
		api = await extension.activate();
		fixtures = join(extension.extensionPath, 'test', 'fixtures', 'vscode');
		team = await startLoopbackTeam({
			hold: (request) => (request.method === 'POST' ? replies.wait() : undefined),
		});
		dir = mkdtempSync(join(tmpdir(), 'massgen-live-rows-'));
		writeFileSync(join(dir, 'team.yaml'), team.configYaml());
	});

	// Rows and badges count change sets waiting: earlier suites' runs leave theirs.
	beforeEach(() => rejectPendingChanges(api));

	afterEach(async () => {
		replies.open();
		await endRunAndConfig(api);
		replies.close();
	});

	after(async () => {
		await team.close();
		rmSync(dir, { recursive: true, force: true });
	});

	/** The live rows as the tree gives them (the group's children), each as "question: state". */
	const liveRows = async (): Promise<LiveRunNode[]> => {
		const top = (await api.runsView.provider.getChildren()) as RunsNode[];
		const group = top.find((node): node is LiveGroupNode => node.kind === 'live-group');
		if (!group) return [];
		assert.equal(top[0], group, 'the live runs come first');
		return (await api.runsView.provider.getChildren(group)) as LiveRunNode[];
	};
	const rowTexts = async () =>
		(await liveRows()).map((row) => {
			const look = lookOf(row, new Date());
			return `${look.label}: ${look.description}`;
		});
	const rowOf = async (question: string) => {
		const row = (await liveRows()).find((r) => r.question === question);
		assert.ok(row, `a live row for ${question}`);
		return row;
	};
	const atServers = (question: string) =>
		Object.values(team.servers).some((server) => server.requests.some((r) => asks(r, question)));
	const phases = () => api.runs.active().map((run) => `${run.request.question}: ${run.phase}`);

	it('two runs going and two queued: the rows say working / queued N of M; Move Up, Start Now, Remove from Queue and Stop from the rows act on the queue', async () => {
		await useConfig(join(dir, 'team.yaml'));
		const outcomes: Promise<StartOutcome>[] = [];
		for (const question of ['Live one?', 'Live two?']) {
			outcomes.push(api.runs.tryStart({ question, kind: 'ask' }));
		}
		await until('both runs at the servers', () => atServers('Live one?') && atServers('Live two?'));
		// One after the other: the queue's order is the order the runs were ready in.
		for (const [n, question] of ['Live three?', 'Live four?'].entries()) {
			outcomes.push(api.runs.tryStart({ question, kind: 'ask' }));
			await until(`${question} queued`, () => phases().filter((p) => p.endsWith('queued')).length === n + 1);
		}
		await until('two runs queued', () => phases().filter((p) => p.endsWith('queued')).length === 2);
		await untilRows('the rows to follow', async () => (await liveRows()).length === 4);
		assert.deepEqual(await rowTexts(), [
			'Live one?: working',
			'Live two?: working',
			'Live three?: queued (1 of 2)',
			'Live four?: queued (2 of 2)',
		]);
		const four = await rowOf('Live four?');
		assert.equal(lookOf(four, new Date()).contextValue, 'live queued canUp');
		// Nothing needs the user: no badge.
		assert.equal(api.runsView.view.badge, undefined);

		// Move Up from the row: four goes before three.
		await vscode.commands.executeCommand(commandIds.runsMoveUp, four);
		assert.deepEqual(phases().slice(2), ['Live four?: queued', 'Live three?: queued']);
		assert.deepEqual((await rowTexts()).slice(2), [
			'Live four?: queued (1 of 2)',
			'Live three?: queued (2 of 2)',
		]);

		// Remove from Queue: three never reaches a server.
		await vscode.commands.executeCommand(commandIds.runsRemoveQueued, await rowOf('Live three?'));
		const removed = await outcomes[2]!;
		assert.ok('refused' in removed && removed.refused === 'cancelled', JSON.stringify(removed));

		// Start Now: four runs past the limit, three runs at once.
		await vscode.commands.executeCommand(commandIds.runsStartNow, await rowOf('Live four?'));
		await until('run four at a server', () => atServers('Live four?'));
		await until(
			'three working rows',
			async () =>
				(await rowTexts()).join('|') === 'Live one?: working|Live two?: working|Live four?: working',
		);

		// Stop from the row: one ends cancelled, the others go on.
		await vscode.commands.executeCommand(commandIds.runsStop, await rowOf('Live one?'));
		const one = await outcomes[0]!;
		assert.ok('run' in one && one.run.result.status === 'cancelled');
		assert.deepEqual(phases(), ['Live two?: running', 'Live four?: running']);

		replies.open();
		for (const outcome of [outcomes[1]!, outcomes[3]!]) {
			const done = await outcome;
			assert.ok('run' in done && done.run.result.status === 'completed', JSON.stringify(done));
		}
		assert.equal(atServers('Live three?'), false, 'a removed run sends nothing');
		// The ended runs left the top: the history lists them (cancelled one included).
		api.runsView.provider.refresh();
		await untilRows('no live row left', async () => (await liveRows()).length === 0);
	});

	it('an approval of a run in the background: its row reads "needs approval", the notification names it, the badge counts it; answered while the panel shows the other run', async () => {
		// The user is in an editor: the panel opens beside it without the focus.
		const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
		await vscode.window.showTextDocument(vscode.Uri.file(join(root, 'README.md')));
		await useConfig(join(fixtures, 'approvals-team.yaml'));
		const asking = api.runs.tryStart({ question: 'Release version 2.0', kind: 'ask' });
		const request = await until('the release run to ask', () => api.approvals.pending()[0]);
		// A second run, held by the servers, starts after. The panel keeps the release run (a run
		// started elsewhere never takes it from a run that goes); the user switches to the other
		// run (its row's Open in Panel), and the release run is in the background.
		await useConfig(join(dir, 'team.yaml'));
		const other = api.runs.tryStart({ question: 'Meanwhile?', kind: 'ask' });
		await until('the other run at the servers', () => atServers('Meanwhile?'));
		const otherId = api.runs.active().find((run) => run.request.question === 'Meanwhile?')!.runId!;
		assert.notEqual(api.panelRunId(), otherId);
		await vscode.commands.executeCommand(commandIds.runsOpen, await rowOf('Meanwhile?'));
		await until('the panel to show the other run', () => api.panelRunId() === otherId);

		const release = await rowOf('Release version 2.0');
		assert.equal(release.runId, request.runId);
		assert.equal(release.state, 'approval');
		assert.equal(lookOf(release, new Date()).description, 'needs approval');
		assert.equal((await rowOf('Meanwhile?')).state, 'working');
		// Raised when the first agent asked (the second joins the same request later).
		assert.match(
			api.approvals
				.notifications()
				.filter((message) => message.includes('npm publish'))
				.at(-1) ?? '',
			/^MassGen “Release version 2\.0”: (builder|tester) wants to run `npm publish`$/,
		);
		await until('the badge to count the run', () => api.runsView.view.badge?.value === 1);
		assert.match(api.runsView.view.badge!.tooltip, /1 run needs you/);

		// Denied from the panel's card path while the panel shows the other run.
		await api.approvals.postFromPanel({ type: 'approval', requestId: request.requestId, decision: 'deny' });
		const done = await asking;
		assert.ok('run' in done && done.run.result.status === 'completed', JSON.stringify(done));
		assert.equal(api.panelRunId(), otherId, 'the panel still shows the other run');
		await until('the badge to clear', () => api.runsView.view.badge === undefined);
		assert.deepEqual(await rowTexts(), ['Meanwhile?: working']);
		replies.open();
		const meanwhile = await other;
		assert.ok('run' in meanwhile && meanwhile.run.result.status === 'completed');
	});
});
