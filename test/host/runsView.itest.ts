// In-host: the Runs view's tree (sessions → turns, a fork) through its provider, its actions
// through their commands, and a conversation that survives a new controller and panel (what a
// window reload leaves: the run directories and the panel's remembered run), asserted on the
// loopback servers' request logs.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { runsDir } from '../../src/contract/runLayout';
import { commandIds, viewTypes } from '../../src/vscode/common/commandIds';
import { composeRunPanel } from '../../src/vscode/composeRunPanel';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { FinishedRun } from '../../src/vscode/run/runTypes';
import { GitignoreOffer } from '../../src/vscode/pastRuns/gitignoreOffer';
import { noFilter } from '../../src/vscode/pastRuns/runsFilter';
import { RunsActions } from '../../src/vscode/pastRuns/runsActions';
import type { RunsNode, SessionNode, TurnNode } from '../../src/vscode/pastRuns/runsTreeModel';
import { SessionPins } from '../../src/vscode/pastRuns/sessionPins';
import { KeyStore } from '../../src/vscode/common/secrets';
import { startLoopbackTeam, type LoopbackTeam } from '../servers/loopbackTeam';
import { endRunAndConfig, nextFinish, until, useConfig, workspaceRoot } from './hostWaits';

/** A workspace state of our own (what survives a reload: VS Code keeps it on disk). */
class MemoryMemento implements vscode.Memento {
	private readonly _values = new Map<string, unknown>();
	keys(): readonly string[] {
		return [...this._values.keys()];
	}
	get<T>(key: string, fallback?: T): T | undefined {
		return this._values.has(key) ? (this._values.get(key) as T) : fallback;
	}
	async update(key: string, value: unknown): Promise<void> {
		this._values.set(key, value);
	}
}

describe('Runs view and sessions (in VS Code, loopback servers)', function () {
	this.timeout(90_000);
	let api: MassGenApi;
	let extension: vscode.Extension<MassGenApi>;
	let team: LoopbackTeam;
	let configDir: string;
	let configFile: string;
	let first: FinishedRun;
	let second: FinishedRun;
	let forked: FinishedRun;

	/** Every server's first request after `seen`, as text. */
	const firstRequests = (seen: Record<string, number>) =>
		Object.entries(team.servers).map(([protocol, server]) => {
			const request = server.firstModelRequest(seen[protocol] ?? 0);
			assert.ok(request, `${protocol}: a request`);
			return { protocol, text: request.prompt.texts.join('\n') };
		});
	const requestCounts = () =>
		Object.fromEntries(Object.entries(team.servers).map(([protocol, s]) => [protocol, s.requests.length]));
	const sessionOf = (runDir: string) =>
		(JSON.parse(readFileSync(join(runDir, 'result.json'), 'utf8')) as { session: unknown }).session;

	const topNodes = async () => {
		api.runsView.provider.refresh();
		return (await api.runsView.provider.getChildren()) as RunsNode[];
	};
	const sessionNode = async (id: string) => {
		const found = (await topNodes()).find(
			(n): n is SessionNode => n.kind === 'session' && n.session.id === id,
		);
		assert.ok(found, `session ${id} in the tree`);
		return found;
	};
	const turnNode = async (sessionId: string, runId: string) => {
		const session = await sessionNode(sessionId);
		const children = (await api.runsView.provider.getChildren(session)) as TurnNode[];
		const found = children.find((n) => n.turn.runId === runId);
		assert.ok(found, `turn ${runId} under session ${sessionId}`);
		return found;
	};

	before(async () => {
		const found = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(found);
		extension = found;
		api = await extension.activate();
		team = await startLoopbackTeam();
		configDir = mkdtempSync(join(tmpdir(), 'massgen-runs-view-'));
		configFile = join(configDir, 'team.yaml');
		writeFileSync(configFile, team.configYaml());
	});

	afterEach(async () => {
		if (api.runs.isRunning) await endRunAndConfig(api);
	});

	after(async () => {
		await useConfig(undefined);
		await team?.close();
		rmSync(configDir, { recursive: true, force: true });
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	it('two turns of one session and a fork show as sessions → turns', async () => {
		await useConfig(configFile);
		const a = await api.runs.start({ question: 'Which file holds the entry point?', kind: 'ask' });
		assert.equal(a?.result.status, 'completed', a?.result.error);
		first = a;
		const b = await api.runs.start({
			question: 'And who calls it?',
			kind: 'ask',
			continueFrom: a.result.runId,
		});
		assert.equal(b?.result.status, 'completed', b?.result.error);
		second = b;
		assert.deepEqual(sessionOf(b.runDir), { id: a.result.runId, parentRunId: a.result.runId });

		// Fork at the first turn through the view's command (the question as its argument).
		const finished = nextFinish(api);
		await vscode.commands.executeCommand(
			commandIds.runsFork,
			await turnNode(a.result.runId, a.result.runId),
			'What if we split it in two?',
		);
		forked = await finished;
		assert.equal(forked.result.status, 'completed', forked.result.error);
		assert.deepEqual(sessionOf(forked.runDir), { id: forked.result.runId, parentRunId: a.result.runId });

		const top = await topNodes();
		const ours = top.filter(
			(n): n is SessionNode =>
				n.kind === 'session' && [a.result.runId, forked.result.runId].includes(n.session.id),
		);
		assert.deepEqual(
			ours.map((n) => n.session.id),
			[forked.result.runId, a.result.runId],
			'newest activity first',
		);
		const [forkNode, mainNode] = ours as [SessionNode, SessionNode];
		assert.equal(forkNode.session.forkedFrom, a.result.runId);
		const turns = (await api.runsView.provider.getChildren(mainNode)) as TurnNode[];
		assert.deepEqual(
			turns.map((t) => t.turn.question),
			['Which file holds the entry point?', 'And who calls it?'],
		);
		const item = api.runsView.provider.getTreeItem(turns[1]!);
		assert.equal(item.label, 'And who calls it?');
		assert.match(String(item.description), /ago|just now/);
		assert.match(item.contextValue ?? '', /\bturn\b.*\blast\b/);
		assert.equal((item.iconPath as vscode.ThemeIcon).id, 'pass-filled');
		assert.equal(item.command?.command, commandIds.runsOpen);
		const sessionItem = api.runsView.provider.getTreeItem(mainNode);
		assert.match(String(sessionItem.description), /^2 turns/);
	});

	it('Continue Session: the new run follows the last turn and its first request holds the earlier turns', async () => {
		assert.ok(first && second, 'the tree test ran first');
		await useConfig(configFile);
		const seen = requestCounts();
		const finished = nextFinish(api);
		await vscode.commands.executeCommand(
			commandIds.runsContinue,
			await sessionNode(first.result.runId),
			'Then where are the tests?',
		);
		const third = await finished;
		assert.equal(third.result.status, 'completed', third.result.error);
		assert.deepEqual(sessionOf(third.runDir), { id: first.result.runId, parentRunId: second.result.runId });
		for (const { protocol, text } of firstRequests(seen)) {
			assert.ok(text.includes('<CONVERSATION_HISTORY>'), `${protocol}: a history block`);
			assert.ok(text.includes('User: Which file holds the entry point?'), `${protocol}: turn 1's question`);
			assert.ok(text.includes(`Assistant: ${first.result.finalAnswer}`), `${protocol}: turn 1's answer`);
			assert.ok(text.includes('User: And who calls it?'), `${protocol}: turn 2's question`);
			assert.ok(!text.includes('What if we split it in two?'), `${protocol}: not the fork's turn`);
		}
		second = third;
	});

	it('Open in Panel shows the run; after a new controller and panel (a reload) the follow-up continues its session', async () => {
		assert.ok(first && second, 'the earlier tests ran');
		await useConfig(configFile);
		await vscode.commands.executeCommand(
			commandIds.runsOpen,
			await turnNode(first.result.runId, second.result.runId),
		);
		await until('the panel to show the run', () => api.panelRunId() === second.result.runId);
		// In the side bar view: shown, and no editor tab opened for it.
		await until('the view to show', () => api.panelSurfaces().view.visible);
		assert.equal(api.panelSurfaces().view.runId, second.result.runId);
		const tabs = vscode.window.tabGroups.all
			.flatMap((group) => group.tabs)
			.filter(
				(tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(viewTypes.panel),
			);
		assert.equal(tabs.length, 0, 'no MassGen editor tab');

		// What a reload leaves: the run directories, and the workspace state naming the panel's run.
		const memento = new MemoryMemento();
		await memento.update('massgen.panel.lastRunId', second.result.runId);
		const log = vscode.window.createOutputChannel('MassGen reload test', { log: true });
		const graph = composeRunPanel({
			extensionUri: extension.extensionUri,
			log,
			keys: new KeyStore({ get: async () => undefined, store: async () => {}, delete: async () => {} }),
			memento,
			validateConfig: async () => [],
			changes: () => api.changes,
		});
		const { runs, panel } = graph;
		try {
			assert.equal(runs.conversation.length, 0, 'a new controller holds no thread');
			assert.equal(panel.shownRunId, second.result.runId);
			const seen = requestCounts();
			const done = new Promise<FinishedRun>((resolve) => {
				const listener = runs.onDidFinishRun((run) => {
					listener.dispose();
					resolve(run);
				});
			});
			await panel.receive({ type: 'ask', question: 'After the reload: anything else?' });
			const after = await done;
			assert.equal(after.result.status, 'completed', after.result.error);
			assert.deepEqual(sessionOf(after.runDir), { id: first.result.runId, parentRunId: second.result.runId });
			for (const { protocol, text } of firstRequests(seen)) {
				assert.ok(text.includes('User: Which file holds the entry point?'), `${protocol}: turn 1`);
				assert.ok(text.includes('User: And who calls it?'), `${protocol}: turn 2`);
				assert.ok(text.includes('User: Then where are the tests?'), `${protocol}: turn 3`);
			}
			assert.deepEqual(
				runs.conversation.map((turn) => turn.question),
				[
					'Which file holds the entry point?',
					'And who calls it?',
					'Then where are the tests?',
					'After the reload: anything else?',
				],
			);
		} finally {
			graph.dispose();
			log.dispose();
		}
	});

	it('Re-run asks the same question after the same turn (a sibling); Export opens the report as an untitled Markdown document', async () => {
		assert.ok(first && second, 'the earlier tests ran');
		await useConfig(configFile);
		const original = await turnNode(first.result.runId, second.result.runId);
		assert.ok(original.turn.parentRunId, 'a follow-up turn');
		const finished = nextFinish(api);
		await vscode.commands.executeCommand(commandIds.runsRerun, original);
		const again = await finished;
		assert.equal(again.result.question, original.turn.question);
		assert.deepEqual(sessionOf(again.runDir), {
			id: again.result.runId,
			parentRunId: original.turn.parentRunId,
		});

		await vscode.commands.executeCommand(commandIds.runsExport, await sessionNode(first.result.runId));
		const editor = await until('the exported report', () => {
			const active = vscode.window.activeTextEditor;
			return active?.document.isUntitled && active.document.languageId === 'markdown' ? active : undefined;
		});
		const report = editor.document.getText();
		assert.match(report, /^# MassGen session/);
		for (const question of ['Which file holds the entry point?', 'And who calls it?']) {
			assert.ok(report.includes(question), `the report holds "${question}"`);
		}
		assert.ok(report.includes(first.result.finalAnswer!), "the first turn's final answer");
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
	});

	it('Delete asks first, and asks again for a run with pending changes; only then the directory goes', async () => {
		assert.ok(forked, 'the tree test ran first');
		const root = workspaceRoot();
		// A scripted team that proposes a file: its run's changes stay pending (never accepted here).
		await useConfig(join(extension.extensionPath, 'test', 'fixtures', 'vscode', 'team.yaml'));
		const pending = await api.runs.start({ question: 'Propose a change, please', kind: 'ask' });
		assert.ok(pending && pending.result.changes.length > 0, 'the scripted run proposes changes');
		const asked: string[] = [];
		let answers: boolean[] = [];
		const actions = new RunsActions({
			runs: api.runs,
			openInPanel: async () => {},
			changes: api.changes,
			pins: new SessionPins(new MemoryMemento()),
			log: vscode.window.createOutputChannel('MassGen delete test', { log: true }),
			refresh: () => api.runsView.provider.refresh(),
			confirm: async (message) => {
				asked.push(message);
				return answers.shift() ?? false;
			},
		});
		const pendingNode = await turnNode(pending.result.runId, pending.result.runId);
		assert.match(pendingNode.turn.changes, /pending/);

		answers = [true, false];
		await actions.delete(pendingNode, [pendingNode]);
		assert.equal(asked.length, 2, 'a second confirmation for pending changes');
		assert.match(asked[1]!, /never accepted or rejected/);
		assert.ok(existsSync(pending.runDir), 'declined the second time: kept');

		asked.length = 0;
		answers = [false];
		const forkNode = await sessionNode(forked.result.runId);
		await actions.delete(forkNode, [forkNode]);
		assert.equal(asked.length, 1);
		assert.ok(existsSync(forked.runDir), 'declined: kept');

		answers = [true];
		await actions.delete(forkNode, [forkNode]);
		assert.ok(!existsSync(forked.runDir), 'the fork is gone');
		assert.ok(existsSync(join(runsDir(root), first.result.runId)), 'the other session is untouched');

		answers = [true, true];
		await actions.delete(pendingNode, [pendingNode]);
		assert.ok(!existsSync(pending.runDir), 'deleted after both confirmations');
		const ids = (await topNodes()).map((n) => n.id);
		assert.ok(!ids.some((id) => id.endsWith(`session:${forked.result.runId}`)), 'the tree lost the fork');
		// Leave no pending change set to the suites after this one (its record cannot be written: logged only).
		for (const runId of api.changes.pendingRunIds()) await api.changes.reject(runId);
	});

	it('a run the CLI finishes appears without a refresh (the result.json watcher); the filter narrows the tree', async () => {
		const root = workspaceRoot();
		const cli = join(extension.extensionPath, 'dist', 'cli.js');
		assert.ok(existsSync(cli), 'dist/cli.js is built (npm run build)');
		const question = 'Asked on the terminal, seen in the editor';
		const shown = async () =>
			((await api.runsView.provider.getChildren()) as RunsNode[]).some(
				(n) => n.kind === 'session' && n.session.turns[0]?.question === question,
			);
		// Let refreshes the earlier tests scheduled (debounced 300 ms) pass, so the one awaited below is the watcher's.
		await new Promise((resolve) => setTimeout(resolve, 1_000));
		await topNodes();
		assert.equal(await shown(), false);
		const before = new Set(existsSync(runsDir(root)) ? readdirSync(runsDir(root)) : []);
		let refreshes = 0;
		const listener = api.runsView.provider.onDidChangeTreeData(() => refreshes++);
		await new Promise<void>((resolve, reject) =>
			execFile(
				process.execPath,
				[cli, 'run', '--config', configFile, '--workspace', root, question],
				{ env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } },
				(error) => (error ? reject(error) : resolve()),
			),
		);
		const cliRun = readdirSync(runsDir(root)).find((id) => !before.has(id));
		assert.ok(cliRun, 'the CLI wrote a run directory');
		// Nothing but the file watcher refreshes the tree meanwhile: wait for its refreshes until one shows the run.
		for (let seen = 0; !(await shown()); seen = refreshes) {
			await until('a refresh from the run directory watcher', () => refreshes > seen);
		}
		listener.dispose();

		api.runsView.setFilter({ statuses: [], text: 'ASKED ON THE TERMINAL' });
		assert.equal(api.runsView.view.description, '"ASKED ON THE TERMINAL"');
		const filtered = (await api.runsView.provider.getChildren()) as RunsNode[];
		assert.deepEqual(
			filtered.map((n) => n.kind === 'session' && n.session.id),
			[cliRun],
		);
		api.runsView.setFilter({ statuses: ['timeout'], text: '' });
		assert.equal(api.runsView.view.description, 'timeout');
		assert.ok(
			((await api.runsView.provider.getChildren()) as RunsNode[]).every(
				(n) => n.kind === 'session' && n.children.every((t) => t.turn.status === 'timeout'),
			),
		);
		api.runsView.setFilter(noFilter);
		assert.equal(api.runsView.view.description, undefined);
	});

	it('the .gitignore offer: asked once in a git folder, written only on "Add to .gitignore", "Never" is kept', async () => {
		const base = mkdtempSync(join(tmpdir(), 'massgen-gitignore-'));
		const folderAt = (name: string, git: boolean): vscode.WorkspaceFolder => {
			const path = join(base, name);
			mkdirSync(join(path, '.massgen'), { recursive: true });
			if (git) mkdirSync(join(path, '.git'));
			writeFileSync(join(path, '.gitignore'), 'node_modules/');
			return { uri: vscode.Uri.file(path), name, index: 0 };
		};
		try {
			const asked: string[] = [];
			const answering =
				(answer: string | undefined) =>
				async (message: string, ...choices: string[]) => {
					asked.push(message);
					assert.deepEqual(choices, ['Add to .gitignore', 'Not now', 'Never']);
					return answer;
				};
			const memento = new MemoryMemento();
			const plain = folderAt('plain', false);
			await new GitignoreOffer(memento, answering('Add to .gitignore')).maybeOffer(plain);
			assert.equal(asked.length, 0, 'not a git folder: no question');

			const repo = folderAt('repo', true);
			const offer = new GitignoreOffer(memento, answering('Add to .gitignore'));
			await offer.maybeOffer(repo);
			assert.equal(asked.length, 1);
			assert.equal(readFileSync(join(repo.uri.fsPath, '.gitignore'), 'utf8'), 'node_modules/\n.massgen/\n');
			await offer.maybeOffer(repo);
			assert.equal(asked.length, 1, 'ignored now: not asked again');

			const later = folderAt('later', true);
			await new GitignoreOffer(memento, answering('Not now')).maybeOffer(later);
			assert.equal(
				readFileSync(join(later.uri.fsPath, '.gitignore'), 'utf8'),
				'node_modules/',
				'not written',
			);
			await new GitignoreOffer(memento, answering('Never')).maybeOffer(later);
			assert.equal(asked.length, 3);
			await new GitignoreOffer(memento, answering('Add to .gitignore')).maybeOffer(later);
			assert.equal(asked.length, 3, '"Never" holds');
			assert.equal(readFileSync(join(later.uri.fsPath, '.gitignore'), 'utf8'), 'node_modules/');
		} finally {
			rmSync(base, { recursive: true, force: true });
		}
	});

	it('massgen.runs.keep prunes old runs, never a pinned session or changes never accepted or rejected', async () => {
		assert.ok(first, 'the tree test ran first');
		const root = workspaceRoot();
		await useConfig(join(extension.extensionPath, 'test', 'fixtures', 'vscode', 'team.yaml'));
		const pending = await api.runs.start({ question: 'Propose another change', kind: 'ask' });
		assert.ok(pending && pending.result.changes.length > 0, 'the scripted run proposes changes');
		await api.changes.reject(pending.result.runId);
		const undecided = await api.runs.start({ question: 'And one more change', kind: 'ask' });
		assert.ok(undecided && undecided.result.changes.length > 0);
		await useConfig(configFile);
		const plain = await api.runs.start({ question: 'A question to forget', kind: 'ask' });
		assert.equal(plain?.result.changes.length, 0, 'the loopback agents propose no change');
		await vscode.commands.executeCommand(commandIds.runsPin, await sessionNode(first.result.runId));
		const keep = vscode.workspace.getConfiguration('massgen');
		try {
			await keep.update('runs.keep', { count: 0 }, vscode.ConfigurationTarget.Global);
			const deleted = await api.runsView.prune();
			assert.ok(deleted.includes(plain.result.runId), 'an unpinned run with no changes goes');
			assert.ok(deleted.includes(pending.result.runId), 'a rejected change set is decided: it goes');
			assert.ok(!existsSync(plain.runDir) && !existsSync(pending.runDir));
			assert.ok(existsSync(undecided.runDir), 'changes never accepted or rejected: kept');
			const firstSession = await sessionNode(first.result.runId);
			assert.ok(firstSession.pinned);
			for (const turn of firstSession.session.turns) {
				assert.ok(existsSync(join(runsDir(root), turn.runId)), `pinned session's ${turn.runId} kept`);
			}
		} finally {
			await keep.update('runs.keep', undefined, vscode.ConfigurationTarget.Global);
			await vscode.commands.executeCommand(commandIds.runsUnpin, await sessionNode(first.result.runId));
			for (const runId of api.changes.pendingRunIds()) await api.changes.reject(runId);
		}
	});
});
