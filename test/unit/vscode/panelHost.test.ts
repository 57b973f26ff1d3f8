import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as vscode from 'vscode';
import { recordOwnRun } from '../../../src/core/runStore/ownRuns.js';
import type { RunEvent, RunEventBody } from '../../../src/contract/runEvents';
import type { AttachmentChip } from '../../../src/protocol/attachmentChip';
import type { HostMessage } from '../../../src/protocol/messages';
import { reduceRun, reduceRunEvents } from '../../../src/protocol/reduceRun';
import { initialRunState, type RunState } from '../../../src/protocol/runState';
import type { RunController, RunEventBatch } from '../../../src/vscode/run/runController';
import type { ChangeActions, FinishedRun, RunRefusal, RunRequest } from '../../../src/vscode/run/runTypes';
import { PanelHost } from '../../../src/vscode/panel/panelHost';
import { settle } from '../../support/settle.js';

type Fake = typeof vscode & {
	window: {
		panels: FakePanel[];
		activeTextEditor: unknown;
		showInformationMessage: (...args: unknown[]) => Promise<unknown>;
	};
	workspace: { workspaceFolders: unknown };
};
interface FakePanel {
	posted: HostMessage[];
	visible: boolean;
	revealed: { column: unknown; preserveFocus: unknown }[];
	showOptions: { viewColumn: unknown; preserveFocus: boolean };
	options: { enableScripts: boolean; localResourceRoots: { path: string }[] };
	webview: { html: string };
	receive(message: unknown): void;
	dispose(): void;
}
const fake = vscode as unknown as Fake;

function stamp(runId: string, bodies: RunEventBody[], from = 0): RunEvent[] {
	return bodies.map((body, i) => ({ runId, seq: from + i, t: (from + i) * 10, ...body }) as RunEvent);
}
const start = (question: string): RunEventBody => ({
	type: 'run-start',
	question,
	workspace: '/ws',
	agents: [{ agentId: 'a', anonId: 'agent1', provider: 'scripted', model: 'm' }],
});
const delta = (text: string): RunEventBody => ({
	type: 'text-delta',
	agentId: 'a',
	phase: 'coordination',
	text,
});

/** The parts of RunController the panel uses, driven by the test. */
function fakeRuns() {
	const started = new vscode.EventEmitter<RunRequest>();
	const emitted = new vscode.EventEmitter<RunEventBatch>();
	const finished = new vscode.EventEmitter<FinishedRun>();
	const calls: unknown[][] = [];
	const runs = {
		state: null as RunState | null,
		onDidStartRun: started.event,
		onDidEmitEvents: emitted.event,
		onDidFinishRun: finished.event,
		/** The panel starts runs with `tryStart`; `refusal` set: the run does not start, for that reason. */
		refusal: undefined as RunRefusal | undefined,
		tryStart: async (request: RunRequest) => {
			calls.push(['start', request]);
			return runs.refusal ?? { run: {} as FinishedRun };
		},
		/** True while a run is active (`cancel()` returns it, as the controller does). */
		running: false,
		cancel: () => (calls.push(['cancel']), runs.running),
		/** Folds and forwards events as the controller does. */
		emit(events: RunEvent[]) {
			for (const event of events) runs.state = reduceRun(runs.state ?? initialRunState(), event);
			emitted.fire({ runId: events[0]!.runId, events });
		},
		fireStart: (request: RunRequest) => started.fire(request),
		calls,
	};
	return runs;
}

function memento() {
	const values = new Map<string, unknown>();
	return {
		get: <T>(key: string) => values.get(key) as T | undefined,
		update: async (key: string, value: unknown) => void values.set(key, value),
		keys: () => [...values.keys()],
		values,
	};
}

function workspaceWithRun(runId: string, events: RunEvent[]): string {
	const root = mkdtempSync(join(tmpdir(), 'massgen-panel-'));
	const dir = join(root, '.massgen', 'runs', runId);
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, 'events.jsonl'), events.map((e) => JSON.stringify(e)).join('\n') + '\n');
	return root;
}

/** A change review with nothing pending: records what the panel forwards to it. */
function changeActions(calls: unknown[][] = []) {
	const changed = new vscode.EventEmitter<null>();
	const actions: ChangeActions = {
		openDiff: async (...args) => void calls.push(['openDiff', ...args]),
		accept: async (...args) => void calls.push(['accept', ...args]),
		reject: async () => void calls.push(['reject']),
		selectHunks: (...args) => void calls.push(['selectHunks', ...args]),
		changeSet: () => null,
		onDidChangeChangeSet: changed.event,
	};
	return { actions, changed };
}

function setup(
	options: {
		root?: string;
		changes?: ChangeActions;
		pickContext?: () => Promise<readonly AttachmentChip[] | undefined>;
	} = {},
) {
	const root = options.root ?? mkdtempSync(join(tmpdir(), 'massgen-panel-'));
	fake.workspace.workspaceFolders = [{ uri: vscode.Uri.file(root), name: 'ws', index: 0 }];
	const runs = fakeRuns();
	const store = memento();
	const warnings: string[] = [];
	const log = {
		info() {},
		debug() {},
		warn: (m: string) => warnings.push(m),
		error: (m: string) => warnings.push(m),
	};
	const host = new PanelHost({
		extensionUri: vscode.Uri.file('/ext'),
		log: log as unknown as vscode.LogOutputChannel,
		runs: runs as unknown as RunController,
		changes: options.changes ?? changeActions().actions,
		memento: store as unknown as vscode.Memento,
		...(options.pickContext ? { pickContext: options.pickContext } : {}),
	});
	return { host, runs, store, warnings, root };
}

const lastPanel = () => fake.window.panels.at(-1)!;

beforeAll(async () => {
	// The host loads the message schema and the run store's readers (zod) lazily; load them once up
	// front so timings below are the host's own.
	await import('../../../src/protocol/webviewMessageSchema');
	await import('../../../src/core/runStore/listRuns.js');
	await import('../../../src/core/runStore/readRunEvents.js');
});

beforeEach(() => {
	fake.window.panels.length = 0;
	fake.window.activeTextEditor = undefined;
});

describe('PanelHost', () => {
	it('opens with scripts, dist and media as the only local roots, the shared HTML and a nonce', () => {
		const { host } = setup();
		host.show({ preserveFocus: true });
		const panel = lastPanel();
		expect(panel.showOptions).toEqual({ viewColumn: vscode.ViewColumn.Active, preserveFocus: true });
		expect(panel.options.enableScripts).toBe(true);
		expect(panel.options.localResourceRoots.map((u) => u.path)).toEqual(['/ext/dist', '/ext/media']);
		expect(panel.webview.html).toMatch(/script-src 'nonce-[^']+'/);
		expect(panel.webview.html).toContain('https://webview/ext/dist/webview.js');
	});

	it('never steals focus: beside the active editor, a visible panel is left alone; Show Panel reveals with focus', () => {
		const { host } = setup();
		(fake.window as { activeTextEditor: unknown }).activeTextEditor = {};
		host.show({ preserveFocus: true });
		expect(lastPanel().showOptions.viewColumn).toBe(vscode.ViewColumn.Beside);
		host.show({ preserveFocus: true });
		expect(lastPanel().revealed).toEqual([]);
		host.show({ preserveFocus: false });
		expect(lastPanel().revealed).toEqual([{ column: undefined, preserveFocus: false }]);
		expect(fake.window.panels).toHaveLength(1);
	});

	it('a run that starts opens the panel without focus', () => {
		const { runs } = setup();
		runs.fireStart({ question: 'q', kind: 'ask' });
		expect(lastPanel().showOptions.preserveFocus).toBe(true);
	});

	it('ready → one snapshot first, then live batches; events arriving meanwhile are neither lost nor posted before it', async () => {
		const { host, runs } = setup();
		host.show({ preserveFocus: true });
		const panel = lastPanel();
		let seq = 0;
		const texts: string[] = [];
		runs.emit(stamp('r1', [start('q')], seq++));
		expect(panel.posted).toEqual([]); // not ready yet
		panel.receive({ type: 'ready' });
		// Keep streaming, one event per event-loop turn, while the host prepares the snapshot and a bit after.
		const emitOne = () => {
			texts.push(`t${seq}`);
			runs.emit(stamp('r1', [delta(`t${seq}`)], seq++));
		};
		const deadline = Date.now() + 10_000;
		while (!panel.posted.some((m) => m.type === 'snapshot') && Date.now() < deadline) {
			emitOne();
			await new Promise((resolve) => setImmediate(resolve));
		}
		for (let i = 0; i < 5; i++) emitOne();
		await settle();
		const [first, changeSet, ...rest] = panel.posted;
		expect(first?.type).toBe('snapshot');
		// Right after it, what the change review holds (nothing here): the webview then knows nothing is pending.
		expect(changeSet).toEqual({ type: 'change-set', changeSet: null });
		expect(rest.every((m) => m.type === 'events')).toBe(true);
		// Folding the snapshot and the batches after it gives the full run.
		const snapshot = first as Extract<HostMessage, { type: 'snapshot' }>;
		const folded = reduceRunEvents(
			snapshot.state!,
			rest.flatMap((m) => (m as Extract<HostMessage, { type: 'events' }>).events),
		);
		expect(folded.lastSeq).toBe(seq - 1);
		expect(folded.agents['a']!.text).toBe(texts.join(''));
	});

	it('validates every message: invalid ones are logged and ignored; ask continues the conversation; cancel cancels', async () => {
		const { host, runs, warnings, root } = setup();
		host.show({ preserveFocus: true });
		const panel = lastPanel();
		panel.receive({ type: 'ask', question: '  Follow-up?  ' });
		panel.receive({ type: 'cancel' });
		panel.receive({ type: 'ask', question: 42 });
		panel.receive({ type: 'open-diff', path: '../../etc/passwd' });
		panel.receive({ type: 'write-file', path: 'x', content: 'y' });
		await vi.waitFor(() =>
			expect(warnings.filter((w) => w.startsWith('panel: ignored a message'))).toHaveLength(3),
		);
		await settle();
		// The panel's folder (the only one) goes with the question.
		const folder = vscode.Uri.file(root);
		expect(runs.calls).toEqual([
			['start', { question: 'Follow-up?', kind: 'ask', folder, continueConversation: true }],
			['cancel'],
		]);
		expect(warnings.filter((w) => w.startsWith('panel: ignored a message'))).toHaveLength(3);
	});

	it('an ask that does not run goes back to the ask box with its chips and the reason; a chip whose image is not base64 starts nothing', async () => {
		const { host, runs, root } = setup();
		host.show({ preserveFocus: true });
		const panel = lastPanel();
		panel.receive({ type: 'ready' });
		await vi.waitFor(() => expect(panel.posted.some((m) => m.type === 'snapshot')).toBe(true));
		const chip = { id: 'c1', label: '.env', request: { kind: 'path', path: '.env' } } as const;
		runs.refusal = {
			refused: 'attachment',
			reason: "cannot attach '.env': refused: '.env' is a secret path",
		};
		panel.receive({ type: 'ask', question: 'What is in it?', attachments: [chip] });
		await vi.waitFor(() => expect(panel.posted.some((m) => m.type === 'ask-refused')).toBe(true));
		expect(panel.posted.find((m) => m.type === 'ask-refused')).toEqual({
			type: 'ask-refused',
			question: 'What is in it?',
			attachments: [chip],
			reason: "cannot attach '.env': refused: '.env' is a secret path",
		});
		expect(runs.calls).toEqual([
			[
				'start',
				{
					question: 'What is in it?',
					kind: 'ask',
					folder: vscode.Uri.file(root),
					continueConversation: true,
					attachments: [{ kind: 'path', path: '.env' }],
				},
			],
		]);
		// Passes the schema (base64 characters), fails the host's decoding: no run is asked for.
		const image = {
			id: 'c2',
			label: 'x.png',
			request: { kind: 'image', path: 'x.png', dataBase64: 'abc' },
		} as const;
		panel.receive({ type: 'ask', question: 'And this?', attachments: [image] });
		await vi.waitFor(() => expect(panel.posted.filter((m) => m.type === 'ask-refused')).toHaveLength(2));
		expect(panel.posted.filter((m) => m.type === 'ask-refused')[1]).toMatchObject({
			question: 'And this?',
			reason: "cannot attach 'x.png': the image data is not base64",
		});
		expect(runs.calls).toHaveLength(1);
	});

	it('"+" posts the picker’s chips; addAttachmentChips opens the panel and posts them after its snapshot', async () => {
		const chip: AttachmentChip = { id: 'p1', label: 'a.ts', request: { kind: 'path', path: 'src/a.ts' } };
		let answer: readonly AttachmentChip[] | undefined = [chip];
		const { host } = setup({ pickContext: async () => answer });
		void host.addAttachmentChips([chip]);
		const panel = lastPanel();
		await settle();
		expect(panel.posted).toEqual([]); // not ready: nothing posted yet
		panel.receive({ type: 'ready' });
		await vi.waitFor(() => expect(panel.posted.map((m) => m.type)).toContain('chips-added'));
		expect(panel.posted.map((m) => m.type)).toEqual(['snapshot', 'change-set', 'chips-added']);
		panel.receive({ type: 'pick-context' });
		await vi.waitFor(() => expect(panel.posted.filter((m) => m.type === 'chips-added')).toHaveLength(2));
		expect(panel.posted.at(-1)).toEqual({ type: 'chips-added', chips: [chip] });
		// The user cancelled the picker: nothing is posted.
		answer = undefined;
		panel.receive({ type: 'pick-context' });
		await settle();
		expect(panel.posted.filter((m) => m.type === 'chips-added')).toHaveLength(2);
	});

	it('addAttachmentChips gives up when the panel closes before it is ready', async () => {
		const { host, warnings } = setup();
		const added = host.addAttachmentChips([{ id: 'p1', label: 'a', request: { kind: 'path', path: 'a' } }]);
		lastPanel().dispose();
		await added;
		expect(warnings).toContain('ask box: the panel closed before the chips could be added');
	});

	it('open-diff / accept / reject reach the change review, accept with its hunks and run id as one request', async () => {
		const calls: unknown[][] = [];
		const { actions, changed } = changeActions(calls);
		const { host } = setup({ changes: actions });
		host.show({ preserveFocus: true });
		const panel = lastPanel();
		panel.receive({ type: 'ready' });
		panel.receive({ type: 'open-diff', path: 'a.ts', version: 'final' });
		panel.receive({
			type: 'accept',
			paths: ['a.ts'],
			hunks: [{ path: 'a.ts', ids: ['final#1'] }],
			runId: '20261130-040000-ab12',
		});
		panel.receive({ type: 'select-hunks', path: 'a.ts', ids: ['alt#1'], selected: true });
		panel.receive({ type: 'reject' });
		await vi.waitFor(() => expect(calls).toHaveLength(4));
		await vi.waitFor(() => expect(panel.posted.map((m) => m.type)).toEqual(['snapshot', 'change-set']));
		changed.fire(null);
		expect(calls).toEqual([
			['openDiff', 'a.ts', 'final'],
			[
				'accept',
				{ paths: ['a.ts'], hunks: [{ path: 'a.ts', ids: ['final#1'] }], runId: '20261130-040000-ab12' },
			],
			['selectHunks', 'a.ts', ['alt#1'], true],
			['reject'],
		]);
		expect(panel.posted.map((m) => m.type)).toEqual(['snapshot', 'change-set', 'change-set']);
	});

	it('closing the panel during a run cancels it (same path as Cancel Run) and says why', async () => {
		const { host, runs } = setup();
		const info = vi.spyOn(fake.window, 'showInformationMessage');
		info.mockClear();
		runs.running = true;
		runs.fireStart({ question: 'q', kind: 'ask' });
		const panel = lastPanel();
		panel.dispose(); // the user closes the tab
		expect(host.panel).toBeUndefined();
		expect(runs.calls).toEqual([['cancel']]);
		expect(info).toHaveBeenCalledWith('MassGen: run cancelled because its panel was closed.');

		// Closing the panel when no run is active cancels nothing and says nothing.
		runs.running = false;
		info.mockClear();
		host.show({ preserveFocus: true });
		lastPanel().dispose();
		expect(info).not.toHaveBeenCalled();
	});

	it('a hidden panel (other tab, moved to another group) does not cancel the run; nor does the host disposing it (deactivate, reload)', () => {
		const { host, runs } = setup();
		const info = vi.spyOn(fake.window, 'showInformationMessage');
		info.mockClear();
		runs.running = true;
		runs.fireStart({ question: 'q', kind: 'ask' });
		const panel = lastPanel();
		panel.visible = false; // hidden: VS Code keeps the panel, only its view state changes
		expect(host.visible).toBe(false);
		expect(host.panel).toBe(panel);
		panel.visible = true;
		host.show({ preserveFocus: true });
		expect(runs.calls).toEqual([]);

		// Deactivation (a window reload) disposes the host, which disposes the panel: not a user's close.
		host.dispose();
		expect(host.panel).toBeUndefined();
		expect(runs.calls).toEqual([]);
		expect(info).not.toHaveBeenCalled();
	});

	it('open-run shows a past run read-only (from events.jsonl) and holds back live events; a reload shows it again', async () => {
		const past = stamp('20261130-010000-aaaa', [start('Old question'), delta('old text')]);
		const root = workspaceWithRun('20261130-010000-aaaa', past);
		// A run this machine made (`ownRuns.ts`): the panel lists no other.
		await recordOwnRun(root, '20261130-010000-aaaa');
		const { host, runs, store } = setup({ root });
		host.show({ preserveFocus: true });
		let panel = lastPanel();
		panel.receive({ type: 'ready' });
		await vi.waitFor(() => expect(panel.posted.map((m) => m.type)).toEqual(['snapshot', 'change-set']));
		const [snapshot] = panel.posted as Extract<HostMessage, { type: 'snapshot' }>[];
		expect(snapshot!.state).toBeNull();
		expect(snapshot!.runs.map((r) => r.runId)).toEqual(['20261130-010000-aaaa']);

		runs.emit(stamp('live', [start('Live question')]));
		panel.receive({ type: 'open-run', runId: '20261130-010000-aaaa' });
		await vi.waitFor(() => expect(store.values.get('massgen.panel.lastRunId')).toBe('20261130-010000-aaaa'));
		// The past run's snapshot, then the change set (a snapshot always comes with one).
		expect(panel.posted.at(-1)?.type).toBe('change-set');
		const shown = panel.posted.at(-2) as Extract<HostMessage, { type: 'snapshot' }>;
		expect(shown.type).toBe('snapshot');
		expect(shown.state!.question).toBe('Old question');
		expect(store.values.get('massgen.panel.lastRunId')).toBe('20261130-010000-aaaa');
		const before = panel.posted.length;
		runs.emit(stamp('live', [delta('more')], 1));
		expect(panel.posted.length).toBe(before);

		// A reloaded window: a new host (no live run) and a revived panel show the remembered run.
		panel.dispose();
		const reloaded = new PanelHost({
			extensionUri: vscode.Uri.file('/ext'),
			log: { info() {}, debug() {}, warn() {}, error() {} } as unknown as vscode.LogOutputChannel,
			runs: fakeRuns() as unknown as RunController,
			changes: changeActions().actions,
			memento: store as unknown as vscode.Memento,
		});
		reloaded.revive(
			new (vscode as unknown as { FakeWebviewPanel: new (...a: unknown[]) => FakePanel }).FakeWebviewPanel(
				'massgen.panel',
				'MassGen',
				{},
				{},
			) as never,
		);
		panel = reloaded.panel as unknown as FakePanel;
		panel.receive({ type: 'ready' });
		await vi.waitFor(() => expect(panel.posted.length).toBeGreaterThan(0), { timeout: 5_000 });
		expect((panel.posted[0] as Extract<HostMessage, { type: 'snapshot' }>).state?.question).toBe(
			'Old question',
		);
	});
});
