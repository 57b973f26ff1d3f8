// In-host: reviewing and accepting the winner's changes (docs/changes.md) in the real extension host,
// with the scripted team of test/fixtures/changes/team.yaml run by the real run controller.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { ChangePrompts, ConflictChoice, ConflictSummary } from '../../src/vscode/changes/changePrompts';
import { ChangeReview } from '../../src/vscode/changes/changeReview';
import { changeUri } from '../../src/vscode/changes/changeUri';
import { commandIds } from '../../src/vscode/common/commandIds';
import type { FinishedRun, RunRequest, RunService } from '../../src/vscode/run/runTypes';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import { ChangeHarness, until } from '../fixtures/changes/changeHarness';
import {
	addedFinal,
	addedPath,
	appBase,
	appFinal,
	appPath,
	appWith,
	notesBase,
	notesFinal,
	notesPath,
} from '../fixtures/changes/files';
import { requestScreenshot } from './harness';

describe('Change review (in VS Code, scripted team)', function () {
	this.timeout(60_000);
	let api: MassGenApi;
	let h: ChangeHarness;

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		api = await extension.activate();
		h = new ChangeHarness(api, join(extension.extensionPath, 'test', 'fixtures', 'changes', 'team.yaml'));
		await h.keepBuffersDirty();
	});

	beforeEach(async () => {
		await h.reset();
	});

	afterEach(async () => {
		await h.rejectPending();
		await h.reset();
	});

	after(async () => {
		await h.cleanUp();
	});

	it('a run with changes: pending change set with consensus marks, the first diff opened, nothing written', async () => {
		const { run, view } = await h.runTeam();
		assert.deepEqual(
			view.files.map((file) => `${file.kind} ${file.path} +${file.added} -${file.removed}`),
			[`modify ${appPath} +3 -2`, `add ${addedPath} +3 -0`, `modify ${notesPath} +1 -0`],
		);
		const app = view.files[0]!;
		const answers = JSON.stringify(
			run.result.answerChanges?.map((answer) => [
				answer.agentId,
				answer.label,
				answer.changes.map((c) => c.path),
			]),
		);
		// add() and sub(): every agent's answer made them; mul(): only the winner's presentation.
		assert.deepEqual(
			app.hunks.map((hunk) => [hunk.id, hunk.oldStart, hunk.agents.length, hunk.selected]),
			[
				['final#0', 1, 3, true],
				['final#1', 6, 3, true],
				['final#2', 10, 1, true],
			],
			`answers: ${answers}; user edits: ${JSON.stringify(view.files.map((file) => file.userEdit))}`,
		);
		assert.equal(app.hunks[2]!.agents[0], run.result.winner?.agentId);
		assert.deepEqual(app.hunks[1]!.lines, ['-\treturn a - b;', '+\treturn a - b; // difference']);
		assert.equal(view.agentCount, 3);

		const tab = await until('the diff of the first file', () => h.diffTab(run.result.runId, appPath));
		const input = tab.input as vscode.TabInputTextDiff;
		assert.equal(input.original.toString(), changeUri(run.result.runId, 'base', appPath).toString());
		assert.equal(input.modified.toString(), changeUri(run.result.runId, 'proposed', appPath).toString());
		assert.equal(input.original.path, input.modified.path, 'one path for every version: no rename mark');
		assert.match(tab.label, /app\.ts/);
		assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), appBase);
		assert.equal((await vscode.workspace.openTextDocument(input.modified)).getText(), appFinal);
		const answer = run.result.answerChanges![0]!;
		const answerDoc = await vscode.workspace.openTextDocument(
			changeUri(run.result.runId, answer.label, appPath),
		);
		assert.equal(answerDoc.getText(), appWith('docComment', 'subComment'));

		assert.deepEqual(
			h.readDisk(),
			{ app: appBase, notes: notesBase, added: null },
			'nothing is written before Accept',
		);
		await new Promise((resolve) => setTimeout(resolve, 400));
		await requestScreenshot('in-host-changes-diff');
	});

	it('deselect one hunk, accept: one WorkspaceEdit writes the rest (new folders too); one undo restores everything', async () => {
		const { run } = await h.runTeam();
		const actions = h.changes;
		const runId = run.result.runId;
		actions.selectHunks(runId, appPath, ['final#2'], false);
		const view = actions.changeSet(runId)!;
		assert.deepEqual(
			view.files[0]!.hunks.map((hunk) => hunk.selected),
			[true, true, false],
		);
		assert.equal(view.files[0]!.added, 2);
		// The open diff shows the selection: the proposed side follows the checkboxes.
		const proposed = await vscode.workspace.openTextDocument(
			changeUri(run.result.runId, 'proposed', appPath),
		);
		await until(
			'the proposed text to follow the selection',
			() => proposed.getText() === appWith('docComment', 'subComment'),
		);

		await actions.accept({ runId });
		const expected = { app: appWith('docComment', 'subComment'), notes: notesFinal, added: addedFinal };
		assert.deepEqual(h.readDisk(), expected);
		assert.equal(actions.changeSet(runId), null, 'nothing pending after accepting everything');
		// The record names the file whose change was only partly written: the panel marks it "partly accepted".
		const [entry] = readFileSync(join(run.runDir, 'changes-log.jsonl'), 'utf8')
			.split('\n')
			.filter(Boolean)
			.map((line) => JSON.parse(line) as { kind: string; partial: boolean; partialPaths?: string[] });
		assert.deepEqual([entry?.kind, entry?.partial, entry?.partialPaths], ['accept', true, [appPath]]);
		await until('the diff tabs to close', () =>
			h.changeTabs(run.result.runId).length === 0 ? true : undefined,
		);
		for (const path of [appPath, notesPath]) assert.equal(h.document(path)?.isDirty, false, `${path} saved`);

		// One undo, from one of the edited files, restores every file (the edit is one undo group).
		await vscode.window.showTextDocument(h.uri(appPath));
		await vscode.commands.executeCommand('undo');
		await until('the undo to restore app.ts', () => h.document(appPath)?.getText() === appBase);
		assert.equal(h.document(notesPath)?.getText(), notesBase);
		await until('the undo to remove the added file', () => (existsSync(h.abs(addedPath)) ? undefined : true));
	});

	it('files the user edited meanwhile are merged three-way when the edits do not overlap; dirty buffers stay unsaved', async () => {
		const { run, view: before } = await h.runTeam();
		assert.ok(before.files.every((file) => file.userEdit === 'none'));
		// app.ts changed on disk (line 2), notes.md edited in an open buffer and not saved.
		await h.writeFile(appPath, appBase.replace('return a + b;', 'return b + a;'));
		const notes = await vscode.workspace.openTextDocument(h.uri(notesPath));
		const edit = new vscode.WorkspaceEdit();
		edit.insert(notes.uri, new vscode.Position(0, 0), '<!-- mine -->\n');
		assert.ok(await vscode.workspace.applyEdit(edit));
		const edited = await until(`both files to be marked edited: merged (dirty ${notes.isDirty})`, () => {
			const view = h.changes.changeSet(run.result.runId);
			const flags = view?.files
				.filter((file) => file.userEdit === 'merged')
				.map((file) => file.path)
				.sort();
			return flags?.length === 2 ? flags : undefined;
		});
		assert.deepEqual(edited, [appPath, notesPath]);
		await h.changes.accept({ runId: run.result.runId });
		assert.equal(readFileSync(h.abs(appPath), 'utf8'), appFinal.replace('return a + b;', 'return b + a;'));
		assert.equal(notes.getText(), `<!-- mine -->\n${notesFinal}`);
		assert.equal(readFileSync(h.abs(notesPath), 'utf8'), notesBase, 'the disk keeps the saved text');
		assert.equal(notes.isDirty, true, 'a dirty buffer is edited, never saved');
		assert.equal(readFileSync(h.abs(addedPath), 'utf8'), addedFinal);
	});

	it('a file edited and saved while the team works (after it read the file): both edits survive Accept; one undo restores the saved edit', async () => {
		const mine = appBase.replace('return a + b;', 'return b + a;');
		const previous = h.api.lastState()?.runId;
		const running = h.api.runs.start({ question: 'Document the math helpers', kind: 'ask' });
		// This run's team has written app.ts (its base is in the run snapshot) and is still working.
		await until('an agent of this run to have written app.ts', () => {
			const state = h.api.lastState();
			if (!state || state.runId === previous || state.status !== 'running') return undefined;
			const lanes = Object.values(state.agents);
			return lanes.some((lane) =>
				lane.toolCalls.some(
					(call) =>
						call.name === 'write_file' && call.args['path'] === appPath && call.result?.isError === false,
				),
			);
		});
		const doc = await vscode.workspace.openTextDocument(h.uri(appPath));
		const edit = new vscode.WorkspaceEdit();
		edit.replace(doc.uri, doc.lineAt(1).range, '\treturn b + a;');
		assert.ok(await vscode.workspace.applyEdit(edit));
		assert.ok(await doc.save());
		assert.equal(h.api.lastState()?.status, 'running', 'the edit was saved while the team worked');
		const run = await running;
		assert.ok(run, 'the run started');
		assert.equal(run.result.status, 'completed', run.result.error);
		// The change set's base is what the team read, not the file at the end of the run.
		assert.equal(run.result.changes.find((change) => change.path === appPath)?.base, appBase);
		const marked = await until('app.ts to be marked edited since the team read it: merged', () => {
			const view = h.changes.changeSet(run.result.runId);
			return view?.runId === run.result.runId
				? view.files.find((file) => file.path === appPath)?.userEdit === 'merged'
				: undefined;
		});
		assert.ok(marked);

		await h.changes.accept({ runId: run.result.runId });
		assert.equal(
			readFileSync(h.abs(appPath), 'utf8'),
			appFinal.replace('return a + b;', 'return b + a;'),
			"the user's line and the team's three hunks",
		);
		assert.equal(readFileSync(h.abs(notesPath), 'utf8'), notesFinal);
		await vscode.window.showTextDocument(h.uri(appPath));
		await vscode.commands.executeCommand('undo');
		await until('one undo to restore the saved edit', () => h.document(appPath)?.getText() === mine);
		assert.equal(h.document(notesPath)?.getText(), notesBase, 'the same undo step restores the other files');
	});

	it('Accept re-resolves every target: a folder that became a link to a secret folder after the run refuses the whole accept', async () => {
		const { run } = await h.runTeam();
		const secretDir = h.abs('.ssh');
		const linked = h.abs('changes-demo/new');
		mkdirSync(secretDir, { recursive: true });
		symlinkSync(secretDir, linked);
		try {
			await h.changes.accept({ runId: run.result.runId });
			assert.deepEqual(readdirSync(secretDir), [], 'nothing was written through the link');
			assert.deepEqual(
				h.readDisk(),
				{ app: appBase, notes: notesBase, added: null },
				'nothing at all was written',
			);
			assert.equal(
				h.changes.changeSet(run.result.runId)?.runId,
				run.result.runId,
				'the changes stay pending',
			);
		} finally {
			unlinkSync(linked);
			rmSync(secretDir, { recursive: true, force: true });
		}
	});

	it('Review Changes opens every file in one multi-file diff; reject writes nothing and closes the diffs', async () => {
		const { run } = await h.runTeam();
		await until('the diff', () => h.diffTab(run.result.runId, appPath));
		await vscode.commands.executeCommand(commandIds.reviewChanges);
		const multi = await until(
			`the multi-file diff tab (tabs: ${JSON.stringify(vscode.window.tabGroups.all.flatMap((group) => group.tabs).map((tab) => tab.label))})`,
			() =>
				vscode.window.tabGroups.all
					.flatMap((group) => group.tabs)
					.find((tab) =>
						/^MassGen “Document the math helpers”: 3 files changed by (alpha|beta|gamma)( \(3 files\))?$/.test(
							tab.label,
						),
					),
		);
		// The editor loads each side it shows as a document: a changed file's base, but for the new
		// file no left side at all (it is marked added), where an empty left document showed a deleted line 1.
		const loaded = (version: string, path: string) =>
			vscode.workspace.textDocuments.find(
				(doc) => doc.uri.toString() === changeUri(run.result.runId, version, path).toString(),
			);
		await until('the multi-file diff to load its sides', () =>
			loaded('proposed', addedPath) && loaded('base', appPath) ? true : undefined,
		);
		assert.equal(loaded('proposed', addedPath)?.getText(), addedFinal);
		assert.equal(
			loaded('base', addedPath),
			undefined,
			`the new file has no left document (it had: ${JSON.stringify(loaded('base', addedPath)?.getText())})`,
		);
		await new Promise((resolve) => setTimeout(resolve, 500));
		await requestScreenshot('in-host-changes-multi-file');
		assert.ok(multi);
		await vscode.commands.executeCommand(commandIds.rejectChanges);
		assert.equal(h.changes.changeSet(run.result.runId), null);
		assert.deepEqual(h.readDisk(), { app: appBase, notes: notesBase, added: null });
		await until('the diff tabs to close', () =>
			h.changeTabs(run.result.runId).length === 0 ? true : undefined,
		);
		await until(
			'the multi-file diff to close',
			() =>
				!vscode.window.tabGroups.all
					.flatMap((group) => group.tabs)
					.some((tab) => tab.label.startsWith('MassGen: 3 files')),
		);
	});

	it('editor title actions: Next File, then Accept File on the active diff accepts only that file', async () => {
		const { run } = await h.runTeam();
		await until('the first diff', () => h.diffTab(run.result.runId, appPath));
		// A changed file opens as a diff, a new file as its proposed text alone.
		const activeDiff = (path: string) => () => {
			const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
			const uri =
				input instanceof vscode.TabInputTextDiff
					? input.modified
					: input instanceof vscode.TabInputText
						? input.uri
						: undefined;
			return uri?.toString() === changeUri(run.result.runId, 'proposed', path).toString() ? true : undefined;
		};
		// The diff opened without taking the focus; from outside a diff, Next File goes to the first file.
		// The diff may also become active on its own meanwhile (then Next File would move past it), so
		// step towards the first file until it is the active one.
		const activeProposed = () => {
			const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
			return (
				(input instanceof vscode.TabInputTextDiff && input.modified.scheme === 'massgen-change') ||
				(input instanceof vscode.TabInputText && input.uri.scheme === 'massgen-change')
			);
		};
		for (let step = 0; step < 5 && !activeDiff(appPath)(); step++) {
			const command = activeProposed() ? commandIds.previousChangedFile : commandIds.nextChangedFile;
			await vscode.commands.executeCommand(command);
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		await until('the first diff to be active', activeDiff(appPath));
		await vscode.commands.executeCommand(commandIds.nextChangedFile);
		await until('the next diff to be active', activeDiff(addedPath));
		await vscode.commands.executeCommand(commandIds.previousChangedFile);
		await until('the previous diff to be active', activeDiff(appPath));
		await vscode.commands.executeCommand(commandIds.nextChangedFile);
		await until('the next diff to be active again', activeDiff(addedPath));
		await requestScreenshot('in-host-changes-added-file');
		const active = vscode.window.tabGroups.activeTabGroup.activeTab!.input as vscode.TabInputText;
		assert.ok(active instanceof vscode.TabInputText, 'a new file opens as its proposed text, not a diff');
		await vscode.commands.executeCommand(commandIds.acceptFile, active.uri);
		assert.deepEqual(h.readDisk(), { app: appBase, notes: notesBase, added: addedFinal });
		assert.deepEqual(
			h.changes.changeSet(run.result.runId)!.files.map((file) => file.path),
			[appPath, notesPath],
		);
		await vscode.commands.executeCommand(
			commandIds.rejectFile,
			changeUri(run.result.runId, 'proposed', notesPath),
		);
		assert.deepEqual(
			h.changes.changeSet(run.result.runId)!.files.map((file) => file.path),
			[appPath],
		);
		await vscode.commands.executeCommand(commandIds.acceptChanges);
		assert.deepEqual(h.readDisk(), { app: appFinal, notes: notesBase, added: addedFinal });
		assert.equal(h.changes.changeSet(run.result.runId), null);
	});

	it("a second run's changes wait beside the undecided first set's: neither replaces the other, nothing is recorded as superseded", async () => {
		const { run: first } = await h.runTeam();
		const { run: second } = await h.runTeam(undefined, { keepOthers: true });
		assert.deepEqual(h.changes.pendingRunIds(), [first.result.runId, second.result.runId]);
		assert.equal(h.changes.changeSet(first.result.runId)?.files.length, 3);
		assert.equal(h.changes.changeSet(second.result.runId)?.files.length, 3);
		assert.equal(existsSync(join(first.runDir, 'changes-log.jsonl')), false, 'no supersede record');
		await until(
			`the status bar to count both sets (it says ${h.review.statusText})`,
			() => h.review.statusText === '$(diff-multiple) MassGen: 2 change sets to review' || undefined,
		);
		assert.deepEqual(h.readDisk(), { app: appBase, notes: notesBase, added: null });
	});

	it('an accept for another run id is ignored', async () => {
		const { run } = await h.runTeam();
		await h.changes.accept({ runId: '20000101-000000-zzzz' });
		assert.deepEqual(h.readDisk(), { app: appBase, notes: notesBase, added: null });
		assert.ok(h.changes.changeSet(run.result.runId));
	});

	it('overlapping edits: the conflict question; cancel writes nothing, Re-run starts the team again, Resolve in Editor writes conflict markers unsaved', async () => {
		// A second change review with scripted answers to the (modal) conflict question, fed the real run.
		const finished = new vscode.EventEmitter<FinishedRun>();
		const started: RunRequest[] = [];
		const runs: RunService = {
			start: async (request) => void started.push(request),
			onDidFinishRun: finished.event,
		};
		const asked: (readonly ConflictSummary[])[] = [];
		let answer: ConflictChoice;
		const prompts: ChangePrompts = {
			conflicts: async (files) => {
				asked.push(files);
				return answer;
			},
			finished: async () => undefined,
		};
		const log = vscode.window.createOutputChannel('MassGen change review test', { log: true });
		const review = new ChangeReview({ runs, log, prompts, idleMs: 0 });
		try {
			const { run } = await h.runTeam();
			await h.changes.reject(run.result.runId);
			const feed = async () => {
				finished.fire(run);
				await until('the second review to hold the run', () => review.pending(runId) !== undefined);
			};
			const runId = run.result.runId;
			await feed();
			const mine = appBase.replace('return a - b;', 'return a - b - 0;');
			await h.writeFile(appPath, mine);

			answer = undefined;
			await review.accept({ runId });
			assert.deepEqual(asked, [[{ path: appPath, reason: 'overlap' }]]);
			assert.deepEqual(h.readDisk(), { app: mine, notes: notesBase, added: null }, 'cancel writes nothing');
			assert.ok(review.pending(runId), 'still pending');

			answer = 'rerun';
			await review.accept({ runId });
			assert.deepEqual(started, [run.request]);
			assert.equal(review.pending(runId), undefined);
			assert.deepEqual(h.readDisk(), { app: mine, notes: notesBase, added: null });

			// Fed again with the user's edit still on disk: the base is the run snapshot's, so it is still a conflict.
			await feed();
			await until(
				'app.ts to be marked edited: conflict',
				() => review.pending(runId)?.userEdit(appPath) === 'conflict',
			);
			answer = 'resolve';
			await review.accept({ runId });
			const app = await until('app.ts with conflict markers', () => {
				const doc = h.document(appPath);
				return doc?.getText().includes('<<<<<<< Current (your edits)') ? doc : undefined;
			}).catch((error: Error) => {
				const state = `asked ${asked.length} times; pending: ${review
					.pending(runId)
					?.files()
					.map((f) => f.path)
					.join(
						', ',
					)}; buffer: ${JSON.stringify(h.document(appPath)?.getText())}; disk: ${JSON.stringify(h.readDisk())}`;
				throw new Error(`${error.message} (${state})`);
			});
			assert.equal(
				app.getText(),
				appFinal.replace(
					'\treturn a - b; // difference\n',
					`<<<<<<< Current (your edits)\n\treturn a - b - 0;\n=======\n\treturn a - b; // difference\n>>>>>>> MassGen: “${run.request.question}” (${run.result.winner!.agentId})\n`,
				),
			);
			assert.equal(app.isDirty, true, 'conflict markers are left for the user to resolve and save');
			assert.deepEqual(h.readDisk(), { app: mine, notes: notesFinal, added: addedFinal });
			await requestScreenshot('in-host-changes-conflict-markers');
		} finally {
			review.dispose();
			finished.dispose();
			log.dispose();
		}
	});

	it('files that would get a secret value the run knows: Accept asks first (the paths only); cancel writes nothing, Write Anyway writes', async () => {
		const finished = new vscode.EventEmitter<FinishedRun>();
		const runs: RunService = { start: async () => undefined, onDidFinishRun: finished.event };
		const asked: (readonly string[])[] = [];
		let write = false;
		const prompts: ChangePrompts = {
			conflicts: async () => undefined,
			finished: async () => undefined,
			secretValues: async (paths) => {
				asked.push(paths);
				return write;
			},
		};
		const log = vscode.window.createOutputChannel('MassGen secret value test', { log: true });
		const review = new ChangeReview({ runs, log, prompts, idleMs: 0 });
		try {
			const { run } = await h.runTeam();
			await h.changes.reject(run.result.runId);
			// The core marks such files at the run's end (secretValueFiles; tested end to end in the CLI).
			const marked = { ...run, result: { ...run.result, secretValueFiles: [appPath] } };
			finished.fire(marked);
			const runId = run.result.runId;
			await until('the second review to hold the run', () => review.pending(runId) !== undefined);

			// Control: accepting only the unmarked file asks nothing.
			await review.accept({ runId, paths: [notesPath] });
			assert.deepEqual(asked, []);
			assert.equal(h.readDisk().notes, notesFinal);

			await review.accept({ runId });
			assert.deepEqual(asked, [[appPath]]);
			assert.equal(h.readDisk().app, appBase, 'cancel writes nothing');
			assert.ok(review.pending(runId)?.file(appPath), 'still pending');

			write = true;
			await review.accept({ runId });
			assert.equal(asked.length, 2);
			assert.equal(h.readDisk().app, appFinal);
		} finally {
			review.dispose();
			finished.dispose();
			log.dispose();
		}
	});
});
