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
import type {
	ChangeActions,
	ChangeSetChange,
	FinishedRun,
	RunRefusal,
	RunRequest,
	StartedRun,
} from '../../../src/vscode/run/runTypes';
import { PanelHost } from '../../../src/vscode/panel/panelHost';
import { settle } from '../../support/settle.js';

type Fake = Omit<typeof vscode, 'window' | 'commands'> & {
	window: {
		panels: FakePanel[];
		activeTextEditor: unknown;
		tabGroups: { activeTabGroup: { activeTab: { input: unknown } | undefined } };
		showInformationMessage: (...args: unknown[]) => Promise<unknown>;
	};
	workspace: { workspaceFolders: unknown };
	commands: { executed: unknown[][] };
	FakeWebviewView: new () => FakeView;
	FakeWebviewPanel: new (...args: unknown[]) => FakePanel;
	TabInputWebview: new (viewType: string) => unknown;
};
interface FakeWebview {
	posted: HostMessage[];
	visible: boolean;
	webview: { html: string; options: { enableScripts: boolean; localResourceRoots: { path: string }[] } };
	receive(message: unknown): void;
	dispose(): void;
}
interface FakePanel extends FakeWebview {
	onDidDispose: vscode.Event<void>;
	active: boolean;
	title: string;
	revealed: { column: unknown; preserveFocus: unknown }[];
	showOptions: { viewColumn: unknown; preserveFocus: boolean };
	options: { enableScripts: boolean; enableFindWidget: boolean };
}
interface FakeView extends FakeWebview {
	shown: boolean[];
	badge: { value: number; tooltip: string } | undefined;
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
	const started = new vscode.EventEmitter<StartedRun>();
	const emitted = new vscode.EventEmitter<RunEventBatch>();
	const finished = new vscode.EventEmitter<FinishedRun>();
	const changedActive = new vscode.EventEmitter<void>();
	const calls: unknown[][] = [];
	const states = new Map<string, RunState>();
	const runs = {
		/** The newest run's state. */
		state: null as RunState | null,
		stateOf: (runId: string) => states.get(runId),
		/** The runs going (by run id): `active()` lists them, then `queued` (questions without a run id yet). */
		going: [] as string[],
		queued: [] as string[],
		active: () => [
			...runs.going.map((runId) => ({
				ticket: `t-${runId}`,
				runId,
				request: { question: states.get(runId)?.question ?? runId, kind: 'ask' },
				phase: 'running',
				state: states.get(runId) ?? initialRunState(),
			})),
			...runs.queued.map((question, i) => ({
				ticket: `q-${i}`,
				runId: undefined,
				request: { question, kind: 'ask' },
				phase: 'queued',
				state: initialRunState(),
			})),
		],
		onDidChangeActive: changedActive.event,
		changeActive: () => changedActive.fire(),
		onDidStartRun: started.event,
		onDidEmitEvents: emitted.event,
		onDidFinishRun: finished.event,
		/** The panel starts runs with `tryStart`; `refusal` set: the run does not start, for that reason. */
		refusal: undefined as RunRefusal | undefined,
		/** The last `tryStart`'s follower (this run's batches), as the controller calls it. */
		follow: undefined as ((batch: RunEventBatch) => void) | undefined,
		tryStart: async (request: RunRequest, _token?: unknown, follow?: (batch: RunEventBatch) => void) => {
			calls.push(['start', request]);
			runs.follow = follow;
			return runs.refusal ?? { run: {} as FinishedRun };
		},
		cancel: (id?: string) => (calls.push(['cancel', id]), id !== undefined && runs.going.includes(id)),
		stopAgent: (runId: string, agentId: string) => (calls.push(['stop', runId, agentId]), false),
		/** Folds and forwards events as the controller does (`follow`: the asker's follower first). */
		emit(events: RunEvent[], follow?: (batch: RunEventBatch) => void) {
			const runId = events[0]!.runId;
			for (const event of events) states.set(runId, reduceRun(states.get(runId) ?? initialRunState(), event));
			runs.state = states.get(runId)!;
			follow?.({ runId, events });
			emitted.fire({ runId, events });
		},
		fireStart: (request: RunRequest, runId = 'r1') => started.fire({ request, runId, ticket: `t-${runId}` }),
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
	const changed = new vscode.EventEmitter<ChangeSetChange>();
	const actions: ChangeActions = {
		openDiff: async (...args) => void calls.push(['openDiff', ...args]),
		accept: async (...args) => void calls.push(['accept', ...args]),
		reject: async (...args) => void calls.push(['reject', ...args]),
		selectHunks: (...args) => void calls.push(['selectHunks', ...args]),
		changeSet: () => null,
		pendingRunIds: () => [],
		proposalFiles: () => [],
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

/** What VS Code does when the view first shows: resolves it with the host. */
function resolveView(host: PanelHost): FakeView {
	const view = new fake.FakeWebviewView();
	host.resolveView(view as unknown as vscode.WebviewView);
	return view;
}

/** Plays the page: `ready`, then waits for the snapshot (and the change set after it). */
async function ready(surface: FakeWebview): Promise<void> {
	surface.receive({ type: 'ready' });
	await vi.waitFor(() => expect(surface.posted.map((m) => m.type)).toContain('change-set'));
}

const types = (surface: FakeWebview) => surface.posted.map((m) => m.type);
const focusCommands = () => fake.commands.executed.filter(([id]) => id === 'massgen.teamPanel.focus');

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
	fake.window.tabGroups.activeTabGroup.activeTab = undefined;
	fake.commands.executed.length = 0;
});

describe('PanelHost', () => {
	it('renders into the view with scripts, dist and media as the only local roots, the shared HTML and a nonce; Open in Editor the same into a tab', async () => {
		const { host } = setup();
		const view = resolveView(host);
		expect(view.webview.options.enableScripts).toBe(true);
		expect(view.webview.options.localResourceRoots.map((u) => u.path)).toEqual(['/ext/dist', '/ext/media']);
		expect(view.webview.html).toMatch(/script-src 'nonce-[^']+'/);
		expect(view.webview.html).toContain('https://webview/ext/dist/webview.js');

		await host.openInEditor();
		const panel = lastPanel();
		expect(panel.showOptions).toEqual({ viewColumn: vscode.ViewColumn.Active, preserveFocus: false });
		expect(panel.options).toEqual({ enableScripts: true, enableFindWidget: true });
		expect(panel.webview.options.localResourceRoots.map((u) => u.path)).toEqual(['/ext/dist', '/ext/media']);
		expect(panel.webview.html).toMatch(/script-src 'nonce-[^']+'/);
		expect(panel.webview.html).not.toBe(view.webview.html); // a nonce of its own
	});

	it('a run shows the view without the focus: opened by its command before VS Code resolved it, left alone when visible, shown when hidden', () => {
		const { host, runs } = setup();
		runs.fireStart({ question: 'q', kind: 'ask' });
		expect(focusCommands()).toEqual([['massgen.teamPanel.focus', { preserveFocus: true }]]);
		const view = resolveView(host);
		runs.fireStart({ question: 'q', kind: 'ask' });
		expect(view.shown).toEqual([]);
		view.visible = false;
		runs.fireStart({ question: 'q', kind: 'ask' });
		expect(view.shown).toEqual([true]);
		expect(focusCommands()).toHaveLength(1);
		expect(fake.window.panels).toHaveLength(0);
	});

	it('Show Panel reveals the view with the focus and gives its ask box the keyboard once the page has its snapshot', async () => {
		const { host } = setup();
		host.show({ preserveFocus: false });
		expect(focusCommands()).toEqual([['massgen.teamPanel.focus', { preserveFocus: false }]]);
		const view = resolveView(host);
		await settle();
		expect(view.posted).toEqual([]);
		view.receive({ type: 'ready' });
		await vi.waitFor(() => expect(types(view)).toEqual(['snapshot', 'change-set', 'focus-ask']));
		host.show({ preserveFocus: false });
		await settle();
		expect(view.shown).toEqual([false]);
		expect(types(view)).toEqual(['snapshot', 'change-set', 'focus-ask', 'focus-ask']);
	});

	it('a hidden view has no page: nothing is posted until it says ready again, and a focus waits for that', async () => {
		const { host } = setup();
		const view = resolveView(host);
		await ready(view);
		view.visible = false;
		host.show({ preserveFocus: false });
		await settle();
		expect(types(view)).toEqual(['snapshot', 'change-set']);
		view.visible = true;
		view.receive({ type: 'ready' });
		await vi.waitFor(() => expect(types(view).at(-1)).toBe('focus-ask'));
		expect(types(view)).toEqual(['snapshot', 'change-set', 'snapshot', 'change-set', 'focus-ask']);
	});

	it('ready → one snapshot first, then live batches; events arriving meanwhile are neither lost nor posted before it', async () => {
		const { host, runs } = setup();
		const view = resolveView(host);
		let seq = 0;
		const texts: string[] = [];
		runs.emit(stamp('r1', [start('q')], seq++));
		expect(view.posted).toEqual([]); // not ready yet
		view.receive({ type: 'ready' });
		// Keep streaming, one event per event-loop turn, while the host prepares the snapshot and a bit after.
		const emitOne = () => {
			texts.push(`t${seq}`);
			runs.emit(stamp('r1', [delta(`t${seq}`)], seq++));
		};
		const deadline = Date.now() + 10_000;
		while (!view.posted.some((m) => m.type === 'snapshot') && Date.now() < deadline) {
			emitOne();
			await new Promise((resolve) => setImmediate(resolve));
		}
		for (let i = 0; i < 5; i++) emitOne();
		await settle();
		const [first, changeSet, ...rest] = view.posted;
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

	it('validates every message: invalid ones are logged and ignored; ask continues the conversation; cancel cancels; focus reports count only when visible', async () => {
		const { host, runs, warnings, root } = setup();
		const view = resolveView(host);
		view.receive({ type: 'ask', question: '  Follow-up?  ' });
		view.receive({ type: 'cancel' });
		view.receive({ type: 'cancel', runId: '20261130-020000-bbbb' });
		view.receive({ type: 'ask', question: 42 });
		view.receive({ type: 'open-diff', path: '../../etc/passwd' });
		view.receive({ type: 'write-file', path: 'x', content: 'y' });
		view.receive({ type: 'focus', focused: 'yes' });
		await vi.waitFor(() =>
			expect(warnings.filter((w) => w.startsWith('panel: ignored a message'))).toHaveLength(5),
		);
		await settle();
		// The panel's folder (the only one) goes with the question.
		const folder = vscode.Uri.file(root);
		expect(runs.calls).toEqual([
			['start', { question: 'Follow-up?', kind: 'ask', folder, continueConversation: true }],
		]);
		// A cancel without the run it was rendered for is invalid; one for a run the window does not run is refused.
		expect(warnings).toContain(
			'panel: cancel for run 20261130-020000-bbbb refused: not a live run of this window',
		);
		expect(host.focused).toBe(false);
		view.receive({ type: 'focus', focused: true });
		await vi.waitFor(() => expect(host.focused).toBe(true));
		view.visible = false;
		expect(host.focused).toBe(false);
		view.visible = true;
		expect(host.focused).toBe(false); // shown again: focused only once the page says so
	});

	it('an ask that does not run goes back to the ask box with its chips and the reason; a chip whose image is not base64 starts nothing', async () => {
		const { host, runs, root } = setup();
		const view = resolveView(host);
		await ready(view);
		const chip = { id: 'c1', label: '.env', request: { kind: 'path', path: '.env' } } as const;
		runs.refusal = {
			refused: 'attachment',
			reason: "cannot attach '.env': refused: '.env' is a secret path",
		};
		view.receive({ type: 'ask', question: 'What is in it?', attachments: [chip] });
		await vi.waitFor(() => expect(view.posted.some((m) => m.type === 'ask-refused')).toBe(true));
		expect(view.posted.find((m) => m.type === 'ask-refused')).toEqual({
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
		view.receive({ type: 'ask', question: 'And this?', attachments: [image] });
		await vi.waitFor(() => expect(view.posted.filter((m) => m.type === 'ask-refused')).toHaveLength(2));
		expect(view.posted.filter((m) => m.type === 'ask-refused')[1]).toMatchObject({
			question: 'And this?',
			reason: "cannot attach 'x.png': the image data is not base64",
		});
		expect(runs.calls).toHaveLength(1);
	});

	it('an ask whose start throws goes back to the ask box too (the webview shows "starting" until it hears back)', async () => {
		const { host, runs, warnings } = setup();
		const view = resolveView(host);
		await ready(view);
		runs.tryStart = async () => {
			throw new Error('engine bundle missing');
		};
		view.receive({ type: 'ask', question: 'Why?' });
		await vi.waitFor(() => expect(types(view)).toContain('ask-refused'));
		expect(view.posted.at(-1)).toEqual({
			type: 'ask-refused',
			question: 'Why?',
			attachments: [],
			reason: 'engine bundle missing',
		});
		await vi.waitFor(() => expect(warnings).toContain('panel: engine bundle missing'));
	});

	it('"+" posts the picker’s chips; addAttachmentChips shows the view and posts them after its snapshot, then focuses the box', async () => {
		const chip: AttachmentChip = { id: 'p1', label: 'a.ts', request: { kind: 'path', path: 'src/a.ts' } };
		let answer: readonly AttachmentChip[] | undefined = [chip];
		const { host } = setup({ pickContext: async () => answer });
		const added = host.addAttachmentChips([chip]);
		expect(focusCommands()).toEqual([['massgen.teamPanel.focus', { preserveFocus: false }]]);
		const view = resolveView(host);
		await settle();
		expect(view.posted).toEqual([]); // not ready: nothing posted yet
		view.receive({ type: 'ready' });
		await added;
		expect(types(view)).toEqual(['snapshot', 'change-set', 'chips-added', 'focus-ask']);
		view.receive({ type: 'pick-context' });
		await vi.waitFor(() => expect(view.posted.filter((m) => m.type === 'chips-added')).toHaveLength(2));
		expect(view.posted.at(-1)).toEqual({ type: 'chips-added', chips: [chip] });
		// The user cancelled the picker: nothing is posted.
		answer = undefined;
		view.receive({ type: 'pick-context' });
		await settle();
		expect(view.posted.filter((m) => m.type === 'chips-added')).toHaveLength(2);
	});

	it('addAttachmentChips gives up when the view goes before it is ready', async () => {
		const { host, warnings } = setup();
		const view = resolveView(host);
		const added = host.addAttachmentChips([{ id: 'p1', label: 'a', request: { kind: 'path', path: 'a' } }]);
		view.dispose();
		await added;
		expect(warnings).toContain('ask box: the panel closed before it was ready');
	});

	it("open-diff / accept / select-hunks / reject reach the change review with the run they name; only the shown run's change set is posted", async () => {
		const calls: unknown[][] = [];
		const { actions, changed } = changeActions(calls);
		const { host, runs } = setup({ changes: actions });
		const view = resolveView(host);
		view.receive({ type: 'ready' });
		const shown = '20261130-040000-ab12';
		const other = '20261130-050000-cd34';
		view.receive({ type: 'open-diff', runId: shown, path: 'a.ts', version: 'final' });
		view.receive({
			type: 'accept',
			paths: ['a.ts'],
			hunks: [{ path: 'a.ts', ids: ['final#1'] }],
			runId: shown,
		});
		view.receive({ type: 'select-hunks', runId: other, path: 'a.ts', ids: ['alt#1'], selected: true });
		view.receive({ type: 'reject', runId: other });
		await vi.waitFor(() => expect(calls).toHaveLength(4));
		await vi.waitFor(() => expect(types(view)).toEqual(['snapshot', 'change-set']));
		expect(calls).toEqual([
			['openDiff', shown, 'a.ts', 'final'],
			['accept', { paths: ['a.ts'], hunks: [{ path: 'a.ts', ids: ['final#1'] }], runId: shown }],
			['selectHunks', other, 'a.ts', ['alt#1'], true],
			['reject', other],
		]);
		runs.emit(stamp(shown, [start('q')]));
		const posted = types(view).length;
		// Another run's change set changing leaves the panel as it is; the shown run's is posted.
		changed.fire({ runId: other, changeSet: null });
		expect(types(view)).toHaveLength(posted);
		changed.fire({ runId: shown, changeSet: null });
		expect(view.posted.at(-1)).toEqual({ type: 'change-set', changeSet: null });
		expect(types(view)).toHaveLength(posted + 1);
	});

	it('closing the editor tab or removing the view during a run leaves the run going (it still shows in the side bar); the host disposing the tab (a reload) too', async () => {
		const { host, runs } = setup();
		const info = vi.spyOn(fake.window, 'showInformationMessage');
		info.mockClear();
		runs.going = ['r1'];
		runs.fireStart({ question: 'q', kind: 'ask' });
		const view = resolveView(host);
		await host.openInEditor();
		lastPanel().dispose(); // the user closes the tab
		expect(host.editor).toBeUndefined();
		view.dispose(); // the user removes the view
		expect(host.view.surface).toBeUndefined();
		await host.openInEditor();
		const panel = lastPanel();
		host.dispose();
		expect(host.editor).toBeUndefined();
		expect(fake.window.panels).toHaveLength(2);
		expect(panel.revealed).toEqual([]);
		expect(runs.calls).toEqual([]);
		expect(info).not.toHaveBeenCalled();
	});

	it('Focus Ask Box: the box of the editor tab when the user is in it, else the view’s', async () => {
		const { host } = setup();
		const view = resolveView(host);
		await ready(view);
		await host.openInEditor();
		const panel = lastPanel();
		await ready(panel);
		await vi.waitFor(() => expect(types(panel)).toContain('focus-ask'));
		panel.active = true;
		fake.window.tabGroups.activeTabGroup.activeTab = {
			input: new fake.TabInputWebview('mainThreadWebview-massgen.panel'),
		};
		const inView = view.posted.length;
		host.focusAskBox();
		await settle();
		expect(panel.revealed).toEqual([{ column: undefined, preserveFocus: false }]);
		expect(types(panel).filter((t) => t === 'focus-ask')).toHaveLength(2);
		expect(view.posted.length).toBe(inView);
		panel.active = false;
		host.focusAskBox();
		await settle();
		expect(view.shown).toEqual([false]);
		expect(types(view).at(-1)).toBe('focus-ask');
	});

	it('open-run shows a past run read-only (from events.jsonl) and holds back live events; Open in Editor shows the same run; a reload shows it again', async () => {
		const past = stamp('20261130-010000-aaaa', [start('Old question'), delta('old text')]);
		const root = workspaceWithRun('20261130-010000-aaaa', past);
		// A run this machine made (`ownRuns.ts`): the panel lists no other.
		await recordOwnRun(root, '20261130-010000-aaaa');
		const { host, runs, store } = setup({ root });
		const view = resolveView(host);
		await ready(view);
		const [snapshot] = view.posted as Extract<HostMessage, { type: 'snapshot' }>[];
		expect(snapshot!.state).toBeNull();
		expect(snapshot!.runs.map((r) => r.runId)).toEqual(['20261130-010000-aaaa']);

		runs.emit(stamp('live', [start('Live question')]));
		view.receive({ type: 'open-run', runId: '20261130-010000-aaaa' });
		await vi.waitFor(() => expect(store.values.get('massgen.panel.lastRunId')).toBe('20261130-010000-aaaa'));
		// The past run's snapshot, then the change set (a snapshot always comes with one).
		expect(view.posted.at(-1)?.type).toBe('change-set');
		const shown = view.posted.at(-2) as Extract<HostMessage, { type: 'snapshot' }>;
		expect(shown.type).toBe('snapshot');
		expect(shown.state!.question).toBe('Old question');
		const before = view.posted.length;
		runs.emit(stamp('live', [delta('more')], 1));
		expect(view.posted.length).toBe(before);

		// Open in Editor: the tab shows the run the view shows, and its ask box gets the keyboard.
		await host.openInEditor();
		const tab = lastPanel();
		expect(host.editor!.shownRunId).toBe('20261130-010000-aaaa');
		tab.receive({ type: 'ready' });
		await vi.waitFor(() => expect(types(tab).filter((t) => t === 'snapshot')).toHaveLength(2));
		const tabSnapshots = tab.posted.filter((m) => m.type === 'snapshot') as Extract<
			HostMessage,
			{ type: 'snapshot' }
		>[];
		expect(tabSnapshots.map((m) => m.state?.question)).toEqual(['Old question', 'Old question']);
		expect(types(tab)).toContain('focus-ask');

		// A reloaded window: a new host (no live run); VS Code resolves the view and revives the tab.
		tab.dispose();
		const reloaded = new PanelHost({
			extensionUri: vscode.Uri.file('/ext'),
			log: { info() {}, debug() {}, warn() {}, error() {} } as unknown as vscode.LogOutputChannel,
			runs: fakeRuns() as unknown as RunController,
			changes: changeActions().actions,
			memento: store as unknown as vscode.Memento,
		});
		const revived = new fake.FakeWebviewPanel('massgen.panel', 'MassGen', {}, {});
		// The tab's webview state (`ViewStateStore`) names the run it showed.
		await reloaded.revive(revived as never, { version: 1, runId: '20261130-010000-aaaa' });
		const reloadedView = resolveView(reloaded);
		for (const surface of [revived, reloadedView]) {
			await ready(surface);
			expect((surface.posted[0] as Extract<HostMessage, { type: 'snapshot' }>).state?.question).toBe(
				'Old question',
			);
		}
		expect(reloaded.shownRunId).toBe('20261130-010000-aaaa');
	});

	describe('several runs', () => {
		const A = '20261203-060000-aaaa';
		const B = '20261203-060100-bbbb';
		const snapshots = (surface: FakeWebview) =>
			surface.posted.filter((m) => m.type === 'snapshot') as Extract<HostMessage, { type: 'snapshot' }>[];
		const lists = (surface: FakeWebview) =>
			surface.posted.filter((m) => m.type === 'live-runs') as Extract<HostMessage, { type: 'live-runs' }>[];
		const eventRuns = (surface: FakeWebview) =>
			surface.posted.flatMap((m) => (m.type === 'events' ? [m.events[0]!.runId] : []));

		/** The view shows run A going; B starts from elsewhere (a command, Chat, a tool). */
		async function twoRuns() {
			const setupResult = setup();
			const { host, runs } = setupResult;
			const view = resolveView(host);
			await ready(view);
			runs.going = [A];
			runs.fireStart({ question: 'Why is the build slow?', kind: 'ask' }, A);
			runs.emit(stamp(A, [start('Why is the build slow?\nDetails follow')]));
			runs.going = [A, B];
			runs.queued = ['Third question'];
			runs.changeActive();
			runs.fireStart({ question: 'Rename the config loader', kind: 'ask' }, B);
			runs.emit(stamp(B, [start('Rename the config loader')]));
			return { ...setupResult, view };
		}

		it('a run started elsewhere does not take the view from a run that goes: the switcher lists it, its events stay off the page', async () => {
			const { host, runs, view } = await twoRuns();
			expect(host.shownRunId).toBe(A);
			expect(eventRuns(view)).toEqual([A]);
			await vi.waitFor(() => expect(lists(view).length).toBeGreaterThan(0));
			expect(lists(view).at(-1)!.runs).toEqual([
				{
					key: `t-${A}`,
					runId: A,
					name: 'Why is the build slow?',
					state: 'working',
					waiting: 0,
					shown: true,
				},
				{
					key: `t-${B}`,
					runId: B,
					name: 'Rename the config loader',
					state: 'working',
					waiting: 0,
					shown: false,
				},
				// Queued: nothing to show yet.
				{ key: 'q-0', runId: null, name: 'Third question', state: 'queued', waiting: 0, shown: false },
			]);
			runs.emit(stamp(A, [delta('more of A')], 1));
			runs.emit(stamp(B, [delta('more of B')], 1));
			expect(eventRuns(view)).toEqual([A, A]);
		});

		it('switching (the switcher’s open-run) shows the other run: its snapshot with the list, then its live events only', async () => {
			const { host, runs, view } = await twoRuns();
			view.receive({ type: 'open-run', runId: B });
			await vi.waitFor(() => expect(host.shownRunId).toBe(B));
			await vi.waitFor(() => expect(snapshots(view)).toHaveLength(2));
			const shown = snapshots(view).at(-1)!;
			expect(shown.state!.question).toBe('Rename the config loader');
			expect(shown.liveRuns.map((row) => [row.runId, row.shown])).toEqual([
				[A, false],
				[B, true],
				[null, false],
			]);
			const before = view.posted.length;
			runs.emit(stamp(A, [delta('more of A')], 1));
			runs.emit(stamp(B, [delta('more of B')], 1));
			expect(view.posted.slice(before).map((m) => m.type === 'events' && m.events[0]!.runId)).toEqual([B]);
		});

		it('a question asked in the box while another run goes is shown there once it starts; Cancel and Stop act on the run the page was rendered for', async () => {
			const { host, runs, warnings } = setup();
			const page = resolveView(host);
			await ready(page);
			runs.going = [A];
			runs.fireStart({ question: 'First', kind: 'ask' }, A);
			runs.emit(stamp(A, [start('First')]));
			page.receive({ type: 'ask', question: 'Second' });
			await vi.waitFor(() => expect(runs.follow).toBeDefined());
			// A new question beside a run that goes, not a follow-up of it.
			expect(runs.calls[0]![1]).not.toHaveProperty('continueConversation');
			runs.going = [A, B];
			runs.fireStart({ question: 'Second', kind: 'ask' }, B);
			expect(host.shownRunId).toBe(A); // onDidStartRun alone does not switch…
			runs.emit(stamp(B, [start('Second')]), runs.follow);
			expect(host.shownRunId).toBe(B); // …the asker's own batch does
			expect(eventRuns(page).at(-1)).toBe(B);
			page.receive({ type: 'cancel', runId: A });
			page.receive({ type: 'stop-agent', runId: B, agentId: 'a' });
			page.receive({ type: 'stop-agent', runId: '20261203-070000-cccc', agentId: 'a' });
			await vi.waitFor(() => expect(runs.calls).toHaveLength(3));
			await settle();
			expect(runs.calls.slice(1)).toEqual([
				['cancel', A],
				['stop', B, 'a'],
			]);
			expect(warnings).toContain(
				'panel: stop agent for run 20261203-070000-cccc refused: not a live run of this window',
			);
		});

		it('Open in Editor gives each run its own tab titled by its question; the same run again reveals its tab; closing a tab leaves its run going', async () => {
			const { host, runs, view } = await twoRuns();
			await host.openInEditor();
			const tabA = lastPanel();
			expect(host.editor!.shownRunId).toBe(A);
			await ready(tabA);
			expect(tabA.title).toBe('Why is the build slow?');
			view.receive({ type: 'open-run', runId: B });
			await vi.waitFor(() => expect(host.shownRunId).toBe(B));
			await host.openInEditor();
			const tabB = lastPanel();
			expect(tabB).not.toBe(tabA);
			await ready(tabB);
			expect(tabB.title).toBe('Rename the config loader');
			expect(host.editors.map((e) => e.shownRunId)).toEqual([A, B]);
			// A's tab again: revealed, no third tab.
			await host.openInEditor(A);
			expect(fake.window.panels).toHaveLength(2);
			expect(tabA.revealed).toEqual([{ column: undefined, preserveFocus: false }]);
			// Each tab gets its own run's events.
			runs.emit(stamp(A, [delta('more of A')], 1));
			runs.emit(stamp(B, [delta('more of B')], 1));
			expect(eventRuns(tabA).at(-1)).toBe(A);
			expect(eventRuns(tabB).at(-1)).toBe(B);
			// Approvals waiting: the tab says so (the approvals' title), then its question again.
			host.setWaiting('MassGen (1 waiting)', 1);
			expect(tabA.title).toBe('MassGen (1 waiting)');
			host.setWaiting('MassGen', 0);
			expect(tabA.title).toBe('Why is the build slow?');
			tabA.dispose();
			expect(host.editors.map((e) => e.shownRunId)).toEqual([B]);
			expect(runs.calls).toEqual([]);
			const beforeB = tabB.posted.length;
			runs.emit(stamp(B, [delta('still going')], 2));
			expect(tabB.posted.length).toBe(beforeB + 1);
		});

		it('a reload restores each tab’s run from its webview state; a forged or duplicate state restores none twice', async () => {
			const past = stamp(A, [start('Old question'), delta('old text')]);
			const root = workspaceWithRun(A, past);
			const { host } = setup({ root });
			const first = new fake.FakeWebviewPanel('massgen.panel', 'MassGen', {}, {});
			await host.revive(first as never, { version: 1, runId: A });
			expect(host.editors.map((e) => e.shownRunId)).toEqual([A]);
			await ready(first);
			expect(snapshots(first)[0]!.state?.question).toBe('Old question');
			// A second tab of the same run goes; a state that is not a run id shows no run.
			const second = new fake.FakeWebviewPanel('massgen.panel', 'MassGen', {}, {});
			const disposed = vi.fn();
			second.onDidDispose(disposed);
			await host.revive(second as never, { version: 1, runId: A });
			expect(disposed).toHaveBeenCalled();
			const forged = new fake.FakeWebviewPanel('massgen.panel', 'MassGen', {}, {});
			await host.revive(forged as never, { version: 1, runId: '../../etc' });
			expect(host.editors.map((e) => e.shownRunId)).toEqual([A, undefined]);
		});
	});
});
