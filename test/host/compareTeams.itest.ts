// In-host: Ask Several Teams. One question on a loopback team (real SDKs against the loopback
// servers, priced models) and a scripted team at once, the comparison built from their results,
// and one team's change set accepted through the change review while the other's is discarded.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { stringify } from 'yaml';
import type { RunResult } from '../../src/contract/runResult';
import { commandIds } from '../../src/vscode/common/commandIds';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { FinishedRun } from '../../src/vscode/run/runTypes';
import { startLoopbackTeam, type LoopbackTeam } from '../servers/loopbackTeam';
import { snapshotFiles, until, workspaceRoot } from './hostWaits';
import { requestScreenshot } from './harness';

const notes = 'compare-demo/notes.md';
const extra = 'compare-demo/extra.md';
const base = '# Notes\n\nBase text.\n';
const loopbackNotes = '# Notes\n\nWritten by the loopback team.\n';
const scriptedNotes = '# Notes\n\nWritten by the scripted team.\n';

/** Two scripted agents who both present the same edits: notes.md rewritten, extra.md added. */
function scriptedTeam(): string {
	const agent = (id: string) => ({
		id,
		backend: {
			type: 'scripted',
			model: `scripted-${id}`,
			script: {
				latency_ms: 50,
				coordination: [{ answer: `Plan of ${id}.` }, { vote: 'first', reason: 'Fine.' }],
				presentation: {
					edits: [
						{ path: notes, content: scriptedNotes },
						{ path: extra, content: 'Only the scripted team adds this.\n' },
					],
					text: 'Rewrote the notes and added extra.md.',
				},
			},
		},
	});
	return stringify({ agents: [agent('one'), agent('two')] });
}

describe('Ask Several Teams: one question, two teams, their outcomes side by side (loopback + scripted)', function () {
	this.timeout(90_000);
	let api: MassGenApi;
	let team: LoopbackTeam;
	let dir: string;
	let release!: () => void;
	const held = new Promise<void>((resolve) => (release = resolve));
	const root = () => workspaceRoot();

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		api = await extension.activate();
		team = await startLoopbackTeam({
			hold: (request) => (request.method === 'POST' ? held : undefined),
			auto: { presentationWrites: [{ path: notes, content: loopbackNotes }] },
		});
		dir = mkdtempSync(join(tmpdir(), 'massgen-compare-'));
		// Three priced members (the chat server's model has no list price).
		writeFileSync(join(dir, 'loopback.yaml'), stringify({ agents: team.agents.slice(0, 3) }));
		writeFileSync(join(dir, 'scripted.yaml'), scriptedTeam());
		await vscode.workspace.fs.writeFile(vscode.Uri.file(join(root(), notes)), Buffer.from(base, 'utf8'));
	});

	after(async () => {
		release();
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		await vscode.workspace.fs
			.delete(vscode.Uri.file(join(root(), 'compare-demo')), { recursive: true, useTrash: false })
			.then(undefined, () => undefined);
		await team.close();
		rmSync(dir, { recursive: true, force: true });
	});

	it('both teams run at once; the comparison shows their figures from result.json; accepting one writes only its changes and discards the other', async () => {
		const before = snapshotFiles(root());
		const finished: FinishedRun[] = [];
		const listener = api.runs.onDidFinishRun((run) => finished.push(run));
		const asked = api.compare.ask('What should the notes say?', [
			{ label: 'loopback', team: { file: join(dir, 'loopback.yaml') } },
			{ label: 'scripted', team: { file: join(dir, 'scripted.yaml') } },
		]);
		// The loopback team's replies are held: the scripted team ends while the loopback team's
		// requests wait at the servers, so the two runs went side by side.
		await until('the scripted run to end while the loopback run is held', () => finished.length === 1);
		assert.equal(finished[0]!.request.team?.file, join(dir, 'scripted.yaml'));
		const held = api.runs.active();
		assert.deepEqual(
			held.map((run) => [run.request.team?.file, run.phase]),
			[[join(dir, 'loopback.yaml'), 'running']],
		);
		assert.ok(
			Object.values(team.servers).some((server) =>
				server.requests.some((r) => r.prompt.texts.join('\n').includes('What should the notes say?')),
			),
			'the loopback run reached the servers',
		);
		release();
		const id = await asked;
		listener.dispose();
		assert.equal(finished.length, 2);

		const view = api.compare.view(id);
		assert.ok(view);
		const { comparison } = view;
		assert.deepEqual(
			comparison.outcomes.map((o) => o.team),
			['loopback', 'scripted'],
		);
		// Every figure is the run's own, as its result.json holds it.
		for (const outcome of comparison.outcomes) {
			const run = finished.find((f) => f.result.runId === outcome.runId)!;
			const result = JSON.parse(readFileSync(join(run.runDir, 'result.json'), 'utf8')) as RunResult;
			assert.equal(result.status, 'completed');
			assert.deepEqual(outcome.winner, result.winner);
			assert.equal(outcome.durationMs, result.durationMs);
			const lastVote = new Map(result.votes.map((v) => [v.voter, v.votedFor]));
			const forWinner = [...lastVote.values()].filter((v) => v === result.winner?.agentId).length;
			assert.deepEqual(outcome.agreement, { forWinner, voters: lastVote.size });
			assert.ok(lastVote.size >= 2, 'every member voted');
			assert.deepEqual(
				outcome.files.map((f) => f.path),
				result.changes.map((c) => c.path).sort(),
			);
			const cost = result.usage.reduce((sum, u) => sum + (u.costUsd ?? Number.NaN), 0);
			if (outcome.team === 'loopback') {
				assert.ok(cost > 0, `the loopback team is priced: ${JSON.stringify(result.usage)}`);
				assert.ok(Math.abs(outcome.costUsd! - cost) < 1e-12);
				assert.ok(outcome.tokens.input > 0);
				assert.ok(view.html.includes(`$${cost.toFixed(4)}`));
			}
			assert.equal(view.states[outcome.runId], 'pending');
		}
		const [loopback, scripted] = comparison.outcomes;
		assert.deepEqual(
			scripted!.files.map((f) => `${f.kind} ${f.path} +${f.added} -${f.removed}`),
			[`add ${extra} +1 -0`, `modify ${notes} +1 -1`],
		);
		assert.deepEqual(comparison.differences, [
			{
				a: loopback!.runId,
				b: scripted!.runId,
				files: [
					{ path: extra, side: 'b' },
					{ path: notes, side: 'both' },
				],
			},
		]);
		assert.equal(view.html.match(/class="accept"/g)?.length, 2, 'an Accept link per team');

		// The change review may have opened a run's diff over it meanwhile: the page's tab to the front
		// (the first of its group), and time to paint before the screenshot (a static page says nothing).
		const pageTab = await until('the comparison in a tab', () =>
			vscode.window.tabGroups.all
				.flatMap((group) => group.tabs)
				.find(
					(candidate) =>
						candidate.input instanceof vscode.TabInputWebview &&
						candidate.input.viewType.endsWith('massgen.comparison'),
				),
		);
		assert.equal(pageTab.group.tabs.indexOf(pageTab), 0);
		// The change review opens the last run's diff by itself once the window is idle: after that.
		await until('the change review to open its diff', () =>
			vscode.window.tabGroups.all
				.flatMap((group) => group.tabs)
				.some(
					(candidate) =>
						candidate.input instanceof vscode.TabInputTextDiff &&
						candidate.input.original.authority === 'base',
				),
		);
		await vscode.commands.executeCommand('workbench.action.openEditorAtIndex1');
		await new Promise((resolve) => setTimeout(resolve, 1000));
		await requestScreenshot('in-host-compare-page');

		// The page's Compare: one diff of the two teams' texts of the file, served by the change review.
		await vscode.commands.executeCommand(commandIds.compareDiff, id, loopback!.runId, scripted!.runId, notes);
		// Its left side is the loopback team's final text (the change review's own diffs start from the base).
		const comparisonTab = () =>
			vscode.window.tabGroups.all
				.flatMap((group) => group.tabs)
				.find(
					(candidate) =>
						candidate.input instanceof vscode.TabInputTextDiff &&
						candidate.input.original.authority === 'final' &&
						candidate.input.original.query === loopback!.runId,
				);
		const shown = await until('the comparison diff', comparisonTab);
		assert.match(shown.label, /notes\.md \(loopback ↔ scripted\)/);
		const tab = shown.input as vscode.TabInputTextDiff;
		assert.equal((await vscode.workspace.openTextDocument(tab.original)).getText(), loopbackNotes);
		assert.equal((await vscode.workspace.openTextDocument(tab.modified)).getText(), scriptedNotes);
		await new Promise((resolve) => setTimeout(resolve, 400));
		await requestScreenshot('in-host-compare-diff');

		// Nothing was written yet; Accept This Team's Changes on the loopback team.
		assert.deepEqual(snapshotFiles(root()), before);
		await vscode.commands.executeCommand(commandIds.compareAccept, id, loopback!.runId);
		const after = snapshotFiles(root());
		const changed = Object.keys(after).filter((path) => after[path] !== before[path]);
		assert.deepEqual(changed, [notes], "only the accepted team's file changed");
		assert.equal(readFileSync(join(root(), notes), 'utf8'), loopbackNotes);
		assert.equal(existsSync(join(root(), extra)), false, "the other team's added file is not written");
		assert.equal(api.changes.changeSet(scripted!.runId), null, "the other team's change set is discarded");
		assert.equal(api.changes.changeSet(loopback!.runId), null);
		const settled = api.compare.view(id)!;
		assert.deepEqual(settled.states, { [loopback!.runId]: 'accepted', [scripted!.runId]: 'discarded' });
		assert.equal(settled.html.match(/class="accept"/g), null, 'no Accept link is left');
		// A second Accept (a stale link) writes nothing.
		await vscode.commands.executeCommand(commandIds.compareAccept, id, scripted!.runId);
		assert.deepEqual(snapshotFiles(root()), after);
	});
});
