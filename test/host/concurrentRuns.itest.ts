// In-host: several runs of one window at once (the run controller's queue) against the loopback
// servers, which hold every reply until the test lets them go: what overlaps is what the servers saw.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { RunEventBatch } from '../../src/vscode/run/liveRun';
import type { StartOutcome } from '../../src/vscode/run/runTypes';
import type { RecordedRequest } from '../servers/loopbackProvider';
import { startLoopbackTeam, type LoopbackTeam } from '../servers/loopbackTeam';
import {
	endRunAndConfig,
	rejectPendingChanges,
	snapshotFiles,
	until,
	useConfig,
	workspaceRoot,
} from './hostWaits';
import { asks, replyGate } from './replyGate';

const extensionId = 'massgen.massgen-vscode';

/** Whether two requests were open on the server at the same time (each received before the other settled). */
const overlap = (a: RecordedRequest, b: RecordedRequest) =>
	a.receivedAt < (b.settledAt ?? Infinity) && b.receivedAt < (a.settledAt ?? Infinity);

describe('several runs at once: the queue, each run on its own (loopback team)', function () {
	this.timeout(90_000);
	let api: MassGenApi;
	let team: LoopbackTeam;
	let dir: string;
	const replies = replyGate();

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>(extensionId);
		assert.ok(extension);
		api = await extension.activate();
		team = await startLoopbackTeam({
			hold: (request) => (request.method === 'POST' ? replies.wait() : undefined),
		});
		dir = mkdtempSync(join(tmpdir(), 'massgen-concurrent-'));
		writeFileSync(join(dir, 'team.yaml'), team.configYaml());
	});

	// Rows and badges count change sets waiting: earlier suites' runs leave theirs.
	beforeEach(() => rejectPendingChanges(api));

	afterEach(async () => {
		replies.open();
		await endRunAndConfig(api);
		await vscode.workspace
			.getConfiguration()
			.update('massgen.runs.maxConcurrent', undefined, vscode.ConfigurationTarget.Global);
		replies.close();
	});

	after(async () => {
		await team.close();
		rmSync(dir, { recursive: true, force: true });
	});

	const requestsOf = (question: string) =>
		Object.values(team.servers).flatMap((server) => server.requests.filter((r) => asks(r, question)));
	const phases = () => api.runs.active().map((run) => `${run.request.question}: ${run.phase}`);

	it('two runs started together both run: the servers hold requests of both at once; each follower gets its own run', async () => {
		await useConfig(join(dir, 'team.yaml'));
		const batches: Record<string, RunEventBatch[]> = { alpha: [], beta: [] };
		const alpha = api.runs.tryStart({ question: 'Question alpha?', kind: 'ask' }, undefined, (batch) =>
			batches['alpha']!.push(batch),
		);
		const beta = api.runs.tryStart({ question: 'Question beta?', kind: 'ask' }, undefined, (batch) =>
			batches['beta']!.push(batch),
		);
		// Every server has a request of each run waiting for its reply: the runs go side by side.
		await until('both runs at every server', () =>
			Object.values(team.servers).every(
				(server) =>
					server.requests.some((r) => asks(r, 'Question alpha?')) &&
					server.requests.some((r) => asks(r, 'Question beta?')),
			),
		);
		assert.deepEqual(phases(), ['Question alpha?: running', 'Question beta?: running']);
		assert.match(api.ui().statusBar ?? '', /MassGen: 2 runs/);
		assert.match(api.ui().statusTooltip ?? '', /“Question alpha\?”[^\n]*\n“Question beta\?”/);
		replies.open();
		const outcomes = await Promise.all([alpha, beta]);
		const [a, b] = outcomes.map((outcome: StartOutcome) => {
			assert.ok('run' in outcome, `finished: ${JSON.stringify(outcome)}`);
			assert.equal(outcome.run.result.status, 'completed');
			return outcome.run;
		});
		assert.notEqual(a!.result.runId, b!.result.runId);
		assert.notEqual(a!.runDir, b!.runDir);
		// The servers saw the two runs' first calls open at the same time (not one run after the other).
		const [firstA] = requestsOf('Question alpha?');
		assert.ok(requestsOf('Question beta?').some((request) => overlap(firstA!, request)));
		// Each follower got only its own run's events; each run's final answer is its own.
		assert.ok(batches['alpha']!.length > 0 && batches['beta']!.length > 0);
		assert.ok(batches['alpha']!.every((batch) => batch.runId === a!.result.runId));
		assert.ok(batches['beta']!.every((batch) => batch.runId === b!.result.runId));
		assert.equal(a!.state.question, 'Question alpha?');
		assert.equal(b!.state.question, 'Question beta?');
		assert.deepEqual(api.runs.active(), []);
		assert.equal(api.ui().statusBar, undefined);
		assert.equal(api.ui().runActive, false);
	});

	it('past the limit a run waits in the queue: it can be moved, started now or removed; a cancelled run frees its slot and the other goes on', async () => {
		await useConfig(join(dir, 'team.yaml'));
		await vscode.workspace
			.getConfiguration()
			.update('massgen.runs.maxConcurrent', 1, vscode.ConfigurationTarget.Global);
		const one = api.runs.tryStart({ question: 'Run one?', kind: 'ask' });
		await until('run one to run', () => phases()[0] === 'Run one?: running');
		// One after the other: the queue's order is the order the runs were ready in (asked together,
		// whichever finished preparing first would queue first).
		const queuedCount = () => phases().filter((phase) => phase.endsWith('queued')).length;
		const two = api.runs.tryStart({ question: 'Run two?', kind: 'ask' });
		await until('run two queued', () => queuedCount() === 1);
		const three = api.runs.tryStart({ question: 'Run three?', kind: 'ask' });
		await until('run three queued', () => queuedCount() === 2);
		const four = api.runs.tryStart({ question: 'Run four?', kind: 'ask' });
		await until('three runs queued', () => queuedCount() === 3);
		assert.match(api.ui().statusBar ?? '', /3 queued/);
		const ticket = (question: string) =>
			api.runs.active().find((run) => run.request.question === question)!.ticket;
		// Reordered: four goes before two and three.
		assert.equal(api.runs.moveQueued(ticket('Run four?'), -2), true);
		assert.deepEqual(phases(), [
			'Run one?: running',
			'Run four?: queued',
			'Run two?: queued',
			'Run three?: queued',
		]);
		// Removed from the queue: it never reaches a server.
		assert.equal(api.runs.cancel(ticket('Run two?')), true);
		const removed = await two;
		assert.ok('refused' in removed && removed.refused === 'cancelled', JSON.stringify(removed));
		// Started now, past the limit: two run at once.
		assert.equal(api.runs.startNow(ticket('Run three?')), true);
		await until('run three at a server', () => requestsOf('Run three?').length > 0);
		assert.deepEqual(phases(), ['Run one?: running', 'Run three?: running', 'Run four?: queued']);
		// One cancelled: three goes on and holds the one slot, so four still waits.
		assert.equal(api.runs.cancel(ticket('Run one?')), true);
		const first = await one;
		assert.ok('run' in first && first.run.result.status === 'cancelled');
		assert.deepEqual(phases(), ['Run three?: running', 'Run four?: queued']);
		// Three ends: four starts.
		replies.open();
		const threeDone = await three;
		assert.ok('run' in threeDone && threeDone.run.result.status === 'completed');
		const fourDone = await four;
		assert.ok('run' in fourDone && fourDone.run.result.status === 'completed');
		// Four's first call came after three's last: it waited for the slot.
		const lastOfThree = Math.max(...requestsOf('Run three?').map((request) => request.receivedAt));
		assert.ok(Math.min(...requestsOf('Run four?').map((request) => request.receivedAt)) > lastOfThree);
		assert.equal(requestsOf('Run two?').length, 0, 'a removed run sends nothing');
	});
	it('two runs together on one file: nothing written before accept; accepted in turn, both teams’ hunks end up in the file', async () => {
		const root = workspaceRoot();
		const shared = join('concurrent', 'shared.txt');
		const base = ['one', 'two', 'three', 'four', 'five', ''].join('\n');
		mkdirSync(join(root, 'concurrent'), { recursive: true });
		writeFileSync(join(root, shared), base);
		// The presenter of each run writes the shared file: alpha changes its first line, beta its last.
		const writer = await startLoopbackTeam({
			hold: (request) => (request.method === 'POST' ? replies.wait() : undefined),
			auto: {
				presentationWrites: (prompt) => {
					const alpha = prompt.texts.join('\n').includes('Edit alpha?');
					const content = alpha ? base.replace('one', 'ONE (alpha)') : base.replace('five', 'FIVE (beta)');
					return [{ path: 'concurrent/shared.txt', content }];
				},
			},
		});
		try {
			writeFileSync(join(dir, 'writers.yaml'), writer.configYaml());
			await useConfig(join(dir, 'writers.yaml'));
			const before = snapshotFiles(root);
			const alpha = api.runs.tryStart({ question: 'Edit alpha?', kind: 'ask' });
			const beta = api.runs.tryStart({ question: 'Edit beta?', kind: 'ask' });
			await until('both runs at a server', () => {
				const texts = writer.servers.responses.requests.map((r) => r.prompt.texts.join('\n'));
				return texts.some((t) => t.includes('Edit alpha?')) && texts.some((t) => t.includes('Edit beta?'));
			});
			replies.open();
			const [a, b] = (await Promise.all([alpha, beta])).map((outcome) => {
				assert.ok('run' in outcome && outcome.run.result.status === 'completed', JSON.stringify(outcome));
				return outcome.run.result.runId;
			});
			await until('both change sets pending', () =>
				api.changes.pendingRunIds().length === 2 ? true : undefined,
			);
			assert.deepEqual(snapshotFiles(root), before, 'nothing written before an accept');
			await api.changes.accept({ runId: b! });
			assert.equal(readFileSync(join(root, shared), 'utf8'), base.replace('five', 'FIVE (beta)'));
			// Alpha read the file before beta's accept: its hunk merges three-way into what beta wrote.
			await api.changes.accept({ runId: a! });
			assert.equal(
				readFileSync(join(root, shared), 'utf8'),
				base.replace('one', 'ONE (alpha)').replace('five', 'FIVE (beta)'),
			);
			assert.deepEqual(api.changes.pendingRunIds(), []);
		} finally {
			await writer.close();
			rmSync(join(root, 'concurrent'), { recursive: true, force: true });
		}
	});
});
