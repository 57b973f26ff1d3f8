// In-host: steering a running team through the panel's messages (`SurfaceHost.receive`, as the
// webview posts them) in real VS Code, the agents on the OpenAI SDK against a loopback server whose
// `hold` keeps chosen replies back, so the moment a message or Finish now arrives is fixed.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { stringify } from 'yaml';
import type { RunEvent } from '../../src/contract/runEvents';
import type { HostMessage } from '../../src/protocol/messages';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { RunController } from '../../src/vscode/run/runController';
import type { FinishedRun } from '../../src/vscode/run/runTypes';
import type { SurfaceHost } from '../../src/vscode/panel/surfaceHost';
import {
	startLoopbackProvider,
	type LoopbackProvider,
	type RecordedRequest,
} from '../servers/loopbackProvider';
import { until, useConfig } from './hostWaits';
import { openOwnPanel } from './ownPanel';
import { replyGate } from './replyGate';

/** Agent a's model and b's: each request names its agent by its model. */
const A = 'gpt-5-mini';
const B = 'gpt-5';

describe('Steering from the panel (in VS Code, loopback server)', function () {
	this.timeout(90_000);
	let server: LoopbackProvider;
	let configDir: string;
	let panel: SurfaceHost;
	let runs: RunController;
	let posted: HostMessage[] = [];
	const gate = replyGate();
	/** Models that answer again instead of voting the first time they see a peer's answer. */
	const revisers: string[] = [];
	/** Which requests wait for the gate (none by default). */
	let holding: (request: RecordedRequest) => boolean = () => false;
	const disposables: vscode.Disposable[] = [];

	/** The end of the run asked `question` (an earlier test's run cannot stand in for it). */
	const finishOf = (question: string) =>
		new Promise<FinishedRun>((resolve) => {
			const listener = runs.onDidFinishRun((run) => {
				if (run.request.question !== question) return;
				listener.dispose();
				resolve(run);
			});
		});
	const eventsOf = (run: FinishedRun): RunEvent[] =>
		readFileSync(join(run.runDir, 'events.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as RunEvent);
	const modelCalls = (since: number) => server.requests.slice(since).filter((r) => r.method === 'POST');
	const text = (request: RecordedRequest) => [request.prompt.system, ...request.prompt.texts].join('\n');
	/** A coordination request that shows the agent answers (its vote or its next answer). */
	const seesAnswers = (request: RecordedRequest) =>
		request.prompt.tools.some((tool) => tool.name === 'vote') && text(request).includes('<answer id=');
	/** The host's `nth` answer to the page's `action` for `runId` (posted once the page may take it). */
	const resultOf = (runId: string, action: 'steer' | 'finish-now', nth = 1) =>
		until(`the ${action} outcome`, () => {
			const found = posted.filter(
				(m) => m.type === 'control-result' && m.runId === runId && m.action === action,
			);
			return found.length >= nth ? found[nth - 1] : undefined;
		});

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		await extension.activate();
		server = await startLoopbackProvider('responses', {
			auto: { name: 'steer', revisers },
			hold: (request) => (request.method === 'POST' && holding(request) ? gate.wait() : undefined),
		});
		configDir = mkdtempSync(join(tmpdir(), 'massgen-steer-'));
		const backend = (model: string) => ({
			type: 'openai',
			model,
			base_url: server.baseUrl,
			api_key: 'loopback',
		});
		const file = join(configDir, 'team.yaml');
		writeFileSync(
			file,
			stringify({
				agents: [
					{ id: 'a', backend: backend(A) },
					{ id: 'b', backend: backend(B) },
				],
			}),
		);
		await useConfig(file);
		const own = await openOwnPanel(extension, 'MassGen steering test');
		disposables.push(own);
		({ runs, panel, posted } = own);
	});

	/**
	 * The tab in front with its page's snapshot delivered: a hidden tab has no page, and nothing is
	 * posted to it until its page says `ready` again (an editor an earlier suite opens late can
	 * cover it at any moment).
	 */
	const inFront = async () => {
		panel.surface!.reveal(false);
		await panel.receive({ type: 'ready' });
	};
	beforeEach(inFront);

	afterEach(async () => {
		holding = () => false;
		revisers.length = 0;
		gate.open();
		await until('no run going', () => !runs.isRunning, 60_000);
		gate.close();
	});

	after(async () => {
		for (const d of disposables.reverse()) d.dispose();
		await useConfig(undefined);
		await server?.close();
		rmSync(configDir, { recursive: true, force: true });
	});

	it('a message to one lane reaches only that agent’s next request and takes its vote away', async () => {
		// Both answer; a's next call waits (it will answer again: a reviser), b votes meanwhile.
		revisers.push(A);
		holding = (request) => request.model === A && seesAnswers(request);
		const before = server.requests.length;
		const question = 'Which database for the cache?';
		const finished = finishOf(question);
		void panel.receive({ type: 'ask', question });
		await until(
			'b voted while a waits',
			() => runs.state?.votes['b'] && modelCalls(before).some((r) => r.model === A && seesAnswers(r)),
		);
		const runId = runs.active().find((run) => run.request.question === question)!.runId!;
		await until('the tab to show the run', () => panel.shownRunId === runId);
		const steerAt = server.requests.length;
		const words = 'Use SQLite, not Postgres: the cache must run without a server.';
		await panel.receive({ type: 'steer', runId, text: words, agentId: 'b', noteOnly: false });
		assert.deepEqual(await resultOf(runId, 'steer'), {
			type: 'control-result',
			runId,
			action: 'steer',
			ok: true,
		});
		// b's vote is gone: it is asked again, and that request carries the words, marked as the user's.
		const next = await until('b asked again', () => modelCalls(steerAt).find((r) => r.model === B));
		assert.ok(text(next).includes(words), 'the message is in b’s next request');
		assert.ok(text(next).includes('MESSAGE FROM THE USER'));
		gate.open();
		const run = await finished;
		assert.equal(run.result.status, 'completed');
		// Only b was told: a's calls after the message (its vote on the answers after its revision) do not
		// have the words;
		// every call of b after it does (the task changed for b for good).
		const after = modelCalls(steerAt);
		assert.ok(after.filter((r) => r.model === A).length >= 1, 'a called the model after the message');
		assert.equal(modelCalls(before).filter((r) => r.model === A && text(r).includes(words)).length, 0);
		assert.ok(after.filter((r) => r.model === B).every((r) => text(r).includes(words)));
		// The log: b voted, the message took the vote away, b read it and voted again.
		const events = eventsOf(run);
		const steps = events
			.filter(
				(e) =>
					(e.type === 'vote' && e.voter === 'b') ||
					e.type === 'steer' ||
					(e.type === 'steer-delivered' && e.agentId === 'b'),
			)
			.map((e) => e.type);
		assert.deepEqual(steps.slice(0, 4), ['vote', 'steer', 'steer-delivered', 'vote']);
		const steer = events.find((e) => e.type === 'steer');
		assert.deepEqual(steer?.type === 'steer' && [steer.agents, steer.targetAgentId, steer.noteOnly], [
			['b'],
			'b',
			false,
		]);
		assert.ok(!events.some((e) => e.type === 'steer-delivered' && e.agentId === 'a'));
		assert.deepEqual(
			run.result.steering?.map((s) => [s.text, s.targetAgentId, s.noteOnly]),
			[[words, 'b', false]],
		);
		// What the panel shows: b's lane has the message, read; b's first vote withdrawn by it.
		assert.deepEqual(
			run.state.agents['b']?.userMessages?.map((m) => [m.text, m.delivered, m.toAll]),
			[[words, true, false]],
		);
		assert.equal(run.state.agents['a']?.userMessages, undefined);
		assert.equal(run.state.voteHistory.find((v) => v.voter === 'b')?.invalidatedBy, '@user');
	});

	it('a note to every agent reaches both, and the votes cast stand', async () => {
		holding = (request) => request.model === A && seesAnswers(request);
		const before = server.requests.length;
		const question = 'Name the cache file.';
		const finished = finishOf(question);
		void panel.receive({ type: 'ask', question });
		await until(
			'b voted while a waits',
			() => runs.state?.votes['b'] && modelCalls(before).some((r) => r.model === A && seesAnswers(r)),
		);
		const runId = runs.active().find((run) => run.request.question === question)!.runId!;
		await until('the tab to show the run', () => panel.shownRunId === runId);
		const words = 'FYI: the file lives under .cache/.';
		await panel.receive({ type: 'steer', runId, text: words, noteOnly: true });
		assert.deepEqual(await resultOf(runId, 'steer'), {
			type: 'control-result',
			runId,
			action: 'steer',
			ok: true,
		});
		gate.open();
		const run = await finished;
		const events = eventsOf(run);
		// b's vote stood: b voted once, and was not asked to vote again.
		assert.equal(events.filter((e) => e.type === 'vote' && e.voter === 'b').length, 1);
		assert.deepEqual(
			run.state.voteHistory.filter((v) => v.voter === 'b').map((v) => v.invalidatedBy),
			[null],
		);
		// Both lanes list it; every agent that made a call after it read it.
		assert.deepEqual(
			run.state.agents['b']?.userMessages?.map((m) => [m.toAll, m.noteOnly]),
			[[true, true]],
		);
		assert.deepEqual(
			run.state.agents['a']?.userMessages?.map((m) => [m.toAll, m.noteOnly]),
			[[true, true]],
		);
		const readers = events
			.filter((e) => e.type === 'steer-delivered')
			.map((e) => (e.type === 'steer-delivered' ? e.agentId : ''));
		const calledAfter = new Set(
			events
				.slice(events.findIndex((e) => e.type === 'steer'))
				.filter((e) => e.type === 'round-start' || e.type === 'presentation-start')
				.map((e) => ('agentId' in e ? e.agentId : '')),
		);
		for (const agentId of calledAfter) assert.ok(readers.includes(agentId), `${agentId} read the note`);
		assert.ok(
			modelCalls(before).some(
				(r) => r.model === (run.result.winner?.agentId === 'a' ? A : B) && text(r).includes(words),
			),
		);
	});

	it('Finish now ends coordination at the leading answer: the leader presents, the waiting calls stop', async () => {
		// Both answer; their votes wait at the server: without Finish now this run would not end.
		holding = seesAnswers;
		const before = server.requests.length;
		const question = 'Pick a port for the dev server.';
		const finished = finishOf(question);
		void panel.receive({ type: 'ask', question });
		await until(
			'both answered, both votes waiting',
			() =>
				Object.keys(runs.state?.answerLabels ?? {}).length === 2 &&
				modelCalls(before).filter(seesAnswers).length === 2,
		);
		const runId = runs.active().find((run) => run.request.question === question)!.runId!;
		await until('the tab to show the run', () => panel.shownRunId === runId);
		const held = modelCalls(before).filter(seesAnswers);
		await panel.receive({ type: 'finish-now', runId });
		assert.deepEqual(await resultOf(runId, 'finish-now'), {
			type: 'control-result',
			runId,
			action: 'finish-now',
			ok: true,
		});
		// The presentation is not held: the run ends while the votes still wait.
		const run = await finished;
		assert.equal(run.result.status, 'completed');
		assert.equal(run.result.coordination?.ended, 'finished-by-user');
		const events = eventsOf(run);
		const answers = events.filter((e) => e.type === 'new-answer');
		const latest = answers.at(-1);
		// No votes: the most recent answer's agent presents.
		const presenter = events.find((e) => e.type === 'presentation-start');
		assert.equal(
			presenter?.type === 'presentation-start' && presenter.agentId,
			latest?.type === 'new-answer' && latest.agentId,
		);
		assert.ok(run.result.finalAnswer);
		assert.equal(events.filter((e) => e.type === 'vote').length, 0);
		// The waiting vote calls were stopped by the client.
		await Promise.all(held.map((r) => r.settled));
		assert.ok(held.every((r) => r.closedByClient));
		// The header's reason, and a second Finish now is refused with the run's reason.
		assert.equal(run.state.coordinationEnd?.reason, 'finished-by-user');
		await inFront();
		await panel.receive({ type: 'finish-now', runId });
		const refusal = await resultOf(runId, 'finish-now', 2);
		assert.equal(refusal?.type === 'control-result' && refusal.ok, false);
		assert.ok(refusal?.type === 'control-result' && refusal.reason);
	});

	it('a message for a run this window does not run is refused with a reason, nothing reaches the server', async () => {
		const before = server.requests.length;
		await panel.receive({ type: 'steer', runId: '20261203-000000-zzzz', text: 'hello', noteOnly: false });
		const refusal = await resultOf('20261203-000000-zzzz', 'steer');
		assert.deepEqual(refusal, {
			type: 'control-result',
			runId: '20261203-000000-zzzz',
			action: 'steer',
			ok: false,
			reason: 'That run is not going in this window.',
		});
		assert.equal(server.requests.length, before);
	});
});
