// In-host: the panel with two runs going (a loopback team whose replies wait for the test): the
// page keeps the run it shows when another starts elsewhere, its switcher lists both, switching
// shows the other's live events only, each run gets its own editor tab, and closing a run's tab
// leaves the run going to its end. What the host posted to each tab's webview is recorded.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { HostMessage } from '../../src/protocol/messages';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { SurfaceHost } from '../../src/vscode/panel/surfaceHost';
import type { FinishedRun } from '../../src/vscode/run/runTypes';
import { startLoopbackTeam, type LoopbackTeam } from '../servers/loopbackTeam';
import { until, useConfig } from './hostWaits';
import { openOwnPanel, type OwnPanel } from './ownPanel';

/** Records what the host posts to a surface's webview from now on. */
function record(host: SurfaceHost): HostMessage[] {
	const posted: HostMessage[] = [];
	const webview = host.surface!.webview;
	const post = webview.postMessage.bind(webview);
	(webview as { postMessage: (message: unknown) => Thenable<boolean> }).postMessage = (message) => {
		posted.push(message as HostMessage);
		return post(message);
	};
	return posted;
}

/**
 * The switcher's rows as the page last got them: a `live-runs` post, or a snapshot's `liveRuns`
 * (a page that reloads while hidden, e.g. under an editor another suite opens late, gets the rows in
 * its next snapshot, and the `live-runs` post made meanwhile was dropped).
 */
function switcherRows(posted: readonly HostMessage[]) {
	const last = posted.findLast((m) => m.type === 'live-runs' || m.type === 'snapshot');
	if (last?.type === 'live-runs') return last.runs;
	if (last?.type === 'snapshot') return last.liveRuns;
	return [];
}

const eventRuns = (posted: readonly HostMessage[]) =>
	posted.flatMap((m) => (m.type === 'events' ? m.events.map((event) => event.runId) : []));

describe('The panel with several runs (in VS Code, loopback team)', function () {
	this.timeout(120_000);
	let team: LoopbackTeam;
	let dir: string;
	let own: OwnPanel;
	let release!: () => void;
	const held = new Promise<void>((resolve) => (release = resolve));

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		await extension.activate();
		team = await startLoopbackTeam({ hold: (request) => (request.method === 'POST' ? held : undefined) });
		dir = mkdtempSync(join(tmpdir(), 'massgen-panel-runs-'));
		writeFileSync(join(dir, 'team.yaml'), team.configYaml());
		own = await openOwnPanel(extension, 'MassGen panel runs test');
	});

	after(async () => {
		release();
		own?.dispose();
		await useConfig(undefined);
		await team?.close();
		rmSync(dir, { recursive: true, force: true });
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	it('keeps its run when another starts elsewhere, switches on request, gives each run a tab, and a closed tab’s run goes on', async () => {
		await useConfig(join(dir, 'team.yaml'));
		const { runs, host, panel, posted } = own;
		// In front: a hidden tab has no page, and nothing is posted to it until it shows again.
		panel.surface!.reveal(false);
		const finished: FinishedRun[] = [];
		const listener = runs.onDidFinishRun((run) => finished.push(run));
		const runIdOf = (question: string) =>
			runs.active().find((run) => run.request.question === question)?.runId;

		// Alpha asked in the tab's box: the tab shows it once it starts.
		void panel.receive({ type: 'ask', question: 'Question alpha?' });
		await until('alpha to start', () => runIdOf('Question alpha?'));
		const alpha = runIdOf('Question alpha?')!;
		await until('the tab to show alpha', () => panel.shownRunId === alpha);

		// Beta from elsewhere (a command, Chat, a tool): the tab keeps alpha, the switcher lists both.
		const beta$ = runs.tryStart({ question: 'Question beta?', kind: 'ask' });
		await until('beta to start', () => runIdOf('Question beta?'));
		const beta = runIdOf('Question beta?')!;
		const listsBoth = () => {
			const ids = switcherRows(posted).map((row) => row.runId);
			return ids.length === 2 && ids.includes(alpha) && ids.includes(beta);
		};
		await until('the switcher to list both', listsBoth).catch((error: unknown) => {
			const seen = posted.filter((m) => m.type !== 'events').map((m) => m.type);
			const visible = panel.surface?.visible;
			throw new Error(`${String(error)} (visible ${String(visible)}; posted ${seen.join(', ')})`);
		});
		assert.deepEqual(
			switcherRows(posted).map((row) => [row.name, row.runId, row.shown]),
			[
				['Question alpha?', alpha, true],
				['Question beta?', beta, false],
			],
		);
		assert.equal(panel.shownRunId, alpha);
		// The page shows alpha: its events, or (reloaded meanwhile) its snapshot.
		const lastSnapshot = posted.findLast((m) => m.type === 'snapshot');
		assert.ok(
			eventRuns(posted).includes(alpha) ||
				(lastSnapshot?.type === 'snapshot' && lastSnapshot.state?.question === 'Question alpha?'),
		);
		assert.ok(!eventRuns(posted).includes(beta), 'beta’s events stayed off alpha’s page');

		// Switching (the switcher posts open-run): beta's snapshot, then beta's events only.
		await panel.receive({ type: 'open-run', runId: beta });
		assert.equal(panel.shownRunId, beta);
		const switchedAt = posted.findLastIndex((m) => m.type === 'snapshot');
		const snapshot = posted[switchedAt] as Extract<HostMessage, { type: 'snapshot' }>;
		assert.equal(snapshot.state?.question, 'Question beta?');
		assert.deepEqual(
			snapshot.liveRuns.map((row) => [row.runId, row.shown]),
			[
				[alpha, false],
				[beta, true],
			],
		);

		// Alpha in its own editor tab (the tab this test opened now shows beta).
		await host.openInEditor(alpha);
		assert.equal(host.editors.length, 2);
		const alphaTab = host.editors.find((editor) => editor.shownRunId === alpha)!;
		const alphaPosted = record(alphaTab);
		await alphaTab.receive({ type: 'ready' });
		await until('alpha’s tab titled by its question', () =>
			vscode.window.tabGroups.all
				.flatMap((group) => group.tabs)
				.some((tab) => tab.label === 'Question alpha?'),
		);
		// The same run again: its tab comes to the front, no third tab.
		await host.openInEditor(alpha);
		assert.equal(host.editors.length, 2);

		await until('alpha’s tab to have its snapshot', () => alphaPosted.some((m) => m.type === 'snapshot'));
		const alphaSnapshot = alphaPosted.find((m) => m.type === 'snapshot') as Extract<
			HostMessage,
			{ type: 'snapshot' }
		>;
		assert.equal(alphaSnapshot.state?.question, 'Question alpha?');

		// Alpha's tab closed while alpha still waits for its replies: the run goes on. The first tab
		// comes to the front again; its page loads anew and gets beta's snapshot.
		alphaTab.surface!.dispose();
		assert.equal(host.editors.length, 1);
		assert.ok(runIdOf('Question alpha?'), 'alpha still runs');
		await until(
			'the first tab’s page back with beta',
			() => posted.findLastIndex((m) => m.type === 'snapshot') > switchedAt,
		);
		const backAt = posted.findLastIndex((m) => m.type === 'snapshot');
		assert.equal(
			(posted[backAt] as Extract<HostMessage, { type: 'snapshot' }>).state?.question,
			'Question beta?',
		);

		// The replies go: both runs stream to their ends; the page gets beta's events only.
		release();
		await until('beta’s events on its page', () => eventRuns(posted.slice(backAt)).includes(beta));
		const outcome = await beta$;
		assert.ok('run' in outcome, JSON.stringify(outcome));
		await until('alpha to finish', () => finished.some((run) => run.result.runId === alpha));
		listener.dispose();
		const alphaRun = finished.find((run) => run.result.runId === alpha)!;
		assert.equal(alphaRun.result.status, 'completed', alphaRun.result.error);
		assert.equal(outcome.run.result.status, 'completed', outcome.run.result.error);
		assert.deepEqual([...new Set(eventRuns(posted.slice(switchedAt)))], [beta]);
		assert.equal(panel.shownRunId, beta);
	});
});
