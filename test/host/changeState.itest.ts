// In-host: the change set's state seen from everywhere at once (docs/changes.md): the end-of-run
// notification closes when anything decides part of the set, its links do nothing once stale, the
// status bar follows Accept, Undo and Redo, and Accept/Reject in the diff (CodeLens) is the panel's
// selection. The scripted team of test/fixtures/changes/team.yaml, the real run controller.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { changeUri } from '../../src/vscode/changes/changeUri';
import { commandIds } from '../../src/vscode/common/commandIds';
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
import { snapshotFiles } from './hostWaits';

describe('Change set state: notification, status bar, CodeLens (in VS Code, scripted team)', function () {
	this.timeout(60_000);
	let h: ChangeHarness;

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		h = new ChangeHarness(
			await extension.activate(),
			join(extension.extensionPath, 'test', 'fixtures', 'changes', 'team.yaml'),
		);
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

	/** A run whose end-of-run notification is showing; its links' argument. */
	async function runWithNotice() {
		const { run } = await h.runTeam();
		const notice = await until('the end-of-run notification', () => h.review.notice());
		assert.equal(notice.runId, run.result.runId);
		assert.match(
			notice.message,
			/^MassGen “Document the math helpers”: 3 files changed by (alpha|beta|gamma)\. \[Accept All\]\(command:massgen\.acceptChanges\?/,
		);
		return { run, stale: { runId: notice.runId, notice: notice.generation } };
	}

	it('Accept, then Undo and Redo: the notification closes at the accept, Undo makes the set pending again and Redo accepted, a stale Accept All link writes nothing', async () => {
		const { run, stale } = await runWithNotice();
		assert.equal(h.review.statusText, '$(diff-multiple) MassGen: 3 files to review');

		await h.changes.accept({ runId: run.result.runId });
		assert.equal(h.review.notice(), undefined, 'the notification closed when the set was accepted');
		assert.deepEqual(h.readDisk(), { app: appFinal, notes: notesFinal, added: addedFinal });
		await until(
			'the status bar to say applied',
			() => h.review.statusText === '$(check) MassGen: applied 3 files',
		);

		await vscode.window.showTextDocument(h.uri(appPath));
		await vscode.commands.executeCommand('undo');
		await until('the undo to restore app.ts', () => h.document(appPath)?.getText() === appBase);
		// Every accepted file is back as it was: the set is offered again, as before the accept.
		await until(
			`the status bar to follow the undo (it says ${h.review.statusText})`,
			() => h.review.statusText === '$(diff-multiple) MassGen: 3 files to review',
		);
		assert.deepEqual(
			h.changes.changeSet(run.result.runId)?.files.map((file) => file.path),
			[appPath, addedPath, notesPath],
			'the undone files are pending again',
		);
		assert.equal(h.changes.changeSet(run.result.runId)?.runId, run.result.runId);
		assert.equal(h.review.notice(), undefined, 'no notification pops up for an undo');
		await requestScreenshot('in-host-change-state-undone');

		// The notification's Accept All, clicked after the undo: its link runs this command with what it carries.
		const before = snapshotFiles(h.root);
		const buffers = [appPath, notesPath].map((path) => h.document(path)?.getText());
		await vscode.commands.executeCommand(commandIds.acceptChanges, stale);
		assert.deepEqual(snapshotFiles(h.root), before, 'a stale link writes nothing');
		assert.deepEqual(
			[appPath, notesPath].map((path) => h.document(path)?.getText()),
			buffers,
			'nor edits a buffer',
		);

		await vscode.window.showTextDocument(h.uri(appPath));
		await vscode.commands.executeCommand('redo');
		await until('the redo to bring the accept back', () => h.document(appPath)?.getText() === appFinal);
		await until(
			'the status bar to follow the redo',
			() => h.review.statusText === '$(check) MassGen: applied 3 files',
		);
		assert.equal(h.changes.changeSet(run.result.runId), null, 'redone: accepted again, nothing pending');
	});

	it('after an Undo of the accept, Accept All from the palette accepts the set again; Reject after another Undo records a reject', async () => {
		const { run } = await runWithNotice();
		await h.changes.accept({ runId: run.result.runId });
		await until('applied', () => h.review.statusText === '$(check) MassGen: applied 3 files');

		await vscode.window.showTextDocument(h.uri(appPath));
		await vscode.commands.executeCommand('undo');
		await until('pending again', () => h.changes.changeSet(run.result.runId)?.files.length === 3);
		await until(
			'app.ts to be seen unedited (the undo restored the base the team read)',
			() =>
				h.changes.changeSet(run.result.runId)?.files.find((file) => file.path === appPath)?.userEdit ===
				'none',
		);
		await vscode.commands.executeCommand(commandIds.acceptChanges);
		assert.equal(h.changes.changeSet(run.result.runId), null);
		assert.deepEqual(h.readDisk(), { app: appFinal, notes: notesFinal, added: addedFinal });
		assert.deepEqual(
			[appPath, notesPath].map((path) => h.document(path)?.getText()),
			[appFinal, notesFinal],
			'and in the undone buffers',
		);
		await until('applied again', () => h.review.statusText === '$(check) MassGen: applied 3 files');

		await vscode.window.showTextDocument(h.uri(appPath));
		await vscode.commands.executeCommand('undo');
		await until(
			'pending again after the second undo',
			() => h.changes.changeSet(run.result.runId)?.files.length === 3,
		);
		await h.changes.reject(run.result.runId);
		assert.equal(h.changes.changeSet(run.result.runId), null);
		assert.equal(h.review.statusText, undefined, 'nothing pending, nothing applied: no status');
		const kinds = readFileSync(join(run.runDir, 'changes-log.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map((line) => (JSON.parse(line) as { kind: string }).kind);
		assert.deepEqual(kinds, ['accept', 'accept', 'reject']);
	});

	it('a per-file decision elsewhere closes the notification; its stale Accept All then writes nothing while the rest stays pending', async () => {
		const { run, stale } = await runWithNotice();
		await vscode.commands.executeCommand(
			commandIds.rejectFile,
			changeUri(run.result.runId, 'proposed', notesPath),
		);
		assert.equal(h.review.notice(), undefined, 'the notification closed');
		assert.equal(h.review.statusText, '$(diff-multiple) MassGen: 2 files to review');

		const before = snapshotFiles(h.root);
		await vscode.commands.executeCommand(commandIds.acceptChanges, stale);
		await vscode.commands.executeCommand(commandIds.rejectChanges, stale);
		assert.deepEqual(snapshotFiles(h.root), before, 'neither stale link wrote anything');
		assert.deepEqual(
			h.changes.changeSet(run.result.runId)?.files.map((file) => file.path),
			[appPath, addedPath],
			'nor rejected anything',
		);

		// Control: the command without a notification's argument (palette, editor title) accepts.
		await vscode.commands.executeCommand(commandIds.acceptChanges);
		assert.deepEqual(h.readDisk(), { app: appFinal, notes: notesBase, added: addedFinal });
	});

	it("a hunk's Reject and Accept in the diff are the panel's checkbox; the file lens accepts what is in", async () => {
		const { run } = await h.runTeam();
		const runId = run.result.runId;
		const titles = async () => (await h.lenses(runId, appPath)).map((lens) => lens.command?.title);
		assert.deepEqual(await titles(), [
			'$(check) Accept File (3 of 3 changes)',
			'$(close) Reject File',
			'$(close) Reject Change (at the start, +1)',
			'$(close) Reject Change (line 6, +1 −1)',
			'$(close) Reject Change (line 10, +1 −1)',
		]);

		await h.clickLens(runId, appPath, /Reject Change \(line 10/);
		assert.deepEqual(
			h.changes.changeSet(run.result.runId)!.files[0]!.hunks.map((hunk) => hunk.selected),
			[true, true, false],
			'the panel shows the hunk unticked',
		);
		const proposed = await vscode.workspace.openTextDocument(changeUri(runId, 'proposed', appPath));
		await until(
			'the diff to drop the hunk',
			() => proposed.getText() === appWith('docComment', 'subComment'),
		);
		assert.deepEqual((await titles()).slice(0, 1), ['$(check) Accept File (2 of 3 changes)']);
		assert.ok(
			(await titles()).includes('$(add) Accept Change (line 10, +1 −1)'),
			'the left-out hunk can come back',
		);

		// The panel ticks it again: the lens follows (one selection).
		h.changes.selectHunks(run.result.runId, appPath, ['final#2'], true);
		assert.ok((await titles()).includes('$(close) Reject Change (line 10, +1 −1)'));
		await h.clickLens(runId, appPath, /Reject Change \(line 6/);
		await h.clickLens(runId, appPath, /Accept Change \(line 6/);
		await h.clickLens(runId, appPath, /Reject Change \(at the start/);
		assert.deepEqual(
			h.changes.changeSet(run.result.runId)!.files[0]!.hunks.map((hunk) => hunk.selected),
			[false, true, true],
		);

		await h.clickLens(runId, appPath, /Accept File \(2 of 3 changes\)/);
		assert.deepEqual(h.readDisk(), {
			app: appWith('subComment', 'mulComment'),
			notes: notesBase,
			added: null,
		});
		assert.deepEqual(
			h.changes.changeSet(run.result.runId)?.files.map((file) => file.path),
			[addedPath, notesPath],
		);
	});

	it('Review opens one multi-file diff with workspace paths; a file accepted from it is marked there, the others stay pending', async () => {
		const { run } = await h.runTeam();
		const runId = run.result.runId;
		await until('the first diff', () => h.diffTab(runId, appPath));
		await vscode.commands.executeCommand(commandIds.reviewChanges);
		await until('the multi-file diff tab', () =>
			vscode.window.tabGroups.all
				.flatMap((group) => group.tabs)
				.find((tab) =>
					/^MassGen “Document the math helpers”: 3 files changed by (alpha|beta|gamma)/.test(tab.label),
				),
		);
		// The multi-file diff's editors show the same lenses: Accept File on notes.md there.
		await h.clickLens(runId, notesPath, /^\$\(check\) Accept File$/);
		assert.deepEqual(h.readDisk(), { app: appBase, notes: notesFinal, added: null });
		assert.deepEqual(
			(await h.lenses(runId, notesPath)).map((lens) => lens.command?.title),
			['$(pass-filled) Accepted'],
		);
		assert.ok(
			vscode.window.tabGroups.all
				.flatMap((group) => group.tabs)
				.some((tab) => /^MassGen “Document the math helpers”: 3 files changed by/.test(tab.label)),
			'the multi-file diff stays open while files are pending',
		);
		await h.clickLens(runId, addedPath, /Reject File/);
		assert.deepEqual(
			(await h.lenses(runId, addedPath)).map((lens) => lens.command?.title),
			['$(circle-slash) Rejected: nothing written'],
		);
		assert.deepEqual(h.readDisk(), { app: appBase, notes: notesFinal, added: null });
		assert.equal(h.review.statusText, '$(diff-multiple) MassGen: 1 file to review');
	});
});
