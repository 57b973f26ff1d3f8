// In-host: the user edits the proposed side of a change diff before accepting (docs/changes.md),
// in the real extension host with the scripted team of test/fixtures/changes/team.yaml.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { readChangeLog } from '../../src/core/runStore/changeLog';
import { changeUri } from '../../src/vscode/changes/changeUri';
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
	notesPath,
} from '../fixtures/changes/files';

const hash = (text: string) => createHash('sha256').update(text).digest('hex');
/** The user's own line in app.ts: base line 2, between the team's first two changes. */
const mine = appFinal.replace('\treturn a + b;', '\treturn a + b; // checked by me');

describe('Editing the proposal before accepting (in VS Code, scripted team)', function () {
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

	/** Runs the team and opens app.ts's diff; returns its run id and the diff's proposed editor. */
	async function proposedEditor(): Promise<{ runId: string; runDir: string; editor: vscode.TextEditor }> {
		const { run } = await h.runTeam();
		const runId = run.result.runId;
		await h.changes.openDiff(runId, appPath);
		const uri = changeUri(runId, 'proposed', appPath).toString();
		const editor = await until('the proposed side of the diff', () =>
			vscode.window.visibleTextEditors.find((candidate) => candidate.document.uri.toString() === uri),
		);
		assert.equal(editor.document.getText(), appFinal);
		return { runId, runDir: run.runDir, editor };
	}

	/** Types `text` over line `line` (0-based) of the proposed side, as the user would in the diff. */
	async function type(editor: vscode.TextEditor, line: number, text: string): Promise<void> {
		assert.ok(await editor.edit((edit) => edit.replace(editor.document.lineAt(line).range, text)));
	}

	it('typed and saved in the diff: the proposal is the user’s text, marked "edited by you", kept across selection changes, written by Accept exactly; the disk untouched before', async () => {
		const { runId, runDir, editor } = await proposedEditor();
		const disk = { app: hash(readFileSync(h.abs(appPath), 'utf8')), notes: hash(notesBase) };
		await type(editor, 2, '\treturn a + b; // checked by me');
		assert.ok(editor.document.isDirty);
		assert.ok(await editor.document.save(), 'the proposed side saves');
		assert.equal(editor.document.isDirty, false);

		const file = h.changes.changeSet(runId)!.files.find((candidate) => candidate.path === appPath)!;
		assert.equal(file.edited, true, 'the panel marks the file edited by you');
		assert.deepEqual(
			file.hunks.map((hunk) => [hunk.id, hunk.byUser === true, hunk.selected, hunk.agents.length]),
			[
				['final#0', false, true, 3],
				['you#0', true, true, 0],
				['final#1', false, true, 3],
				['final#2', false, true, 1],
			],
		);
		assert.deepEqual(file.hunks[1]!.lines, ['-\treturn a + b;', '+\treturn a + b; // checked by me']);
		// The diff's lenses: Discard My Edit, and the user's change named as theirs.
		const titles = (await h.lenses(runId, appPath)).map((lens) => lens.command?.title ?? '');
		assert.ok(
			titles.some((title) => /Discard My Edit/.test(title)),
			JSON.stringify(titles),
		);
		assert.ok(
			titles.some((title) => /Reject Change \(line 2, .*edited by you\)/.test(title)),
			JSON.stringify(titles),
		);
		// Nothing of the user's workspace was written by the save.
		assert.equal(hash(readFileSync(h.abs(appPath), 'utf8')), disk.app);
		assert.equal(hash(readFileSync(h.abs(notesPath), 'utf8')), disk.notes);
		assert.equal(readFileSync(h.abs(appPath), 'utf8'), appBase);

		// A selection change re-renders the proposed side from the user's text, not the team's.
		h.changes.selectHunks(runId, appPath, ['final#2'], false);
		const without = mine.replace('return a * b; // product', 'return a * b;');
		await until('the proposed side to follow the selection', () => editor.document.getText() === without);
		h.changes.selectHunks(runId, appPath, ['final#2'], true);
		await until('the proposed side to take the hunk back', () => editor.document.getText() === mine);
		// Reopening the diff shows the user's text too.
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		await h.changes.openDiff(runId, appPath);
		const reopened = await vscode.workspace.openTextDocument(changeUri(runId, 'proposed', appPath));
		assert.equal(reopened.getText(), mine);

		// What the next follow-up tells the team: the text Accept writes and the user's own line.
		const told = h.changes.proposalFiles(runId).find((candidate) => candidate.path === appPath);
		assert.deepEqual(told, { path: appPath, content: mine, userEdited: [{ line: 3, endLine: 3 }] });

		await h.changes.accept({ runId });
		assert.equal(
			hash(readFileSync(h.abs(appPath), 'utf8')),
			hash(mine),
			'Accept wrote exactly the edited text',
		);
		assert.equal(readFileSync(h.abs(addedPath), 'utf8'), addedFinal);
		assert.equal(h.changes.changeSet(runId), null);
		// The run's record says the user edited app.ts before accepting (the stats' "not unchanged"), and took no runner-up hunk.
		const accepts = (await readChangeLog(runDir)).filter((entry) => entry.kind === 'accept');
		assert.equal(accepts.length, 1);
		assert.deepEqual(accepts[0]!.editedPaths, [appPath]);
		assert.equal(accepts[0]!.runnerUpHunks, undefined);
	});

	it('Discard My Edit (the lens) goes back to the team’s proposal and selection; the base and the winner’s text are read-only', async () => {
		const { runId, editor } = await proposedEditor();
		h.changes.selectHunks(runId, appPath, ['final#1'], false);
		const teams = appWith('docComment', 'mulComment');
		await until('the selection in the diff', () => editor.document.getText() === teams);
		await type(editor, 0, '/** Adds two numbers, as the user says. */');
		assert.ok(await editor.document.save());
		assert.equal(h.changes.changeSet(runId)!.files[0]!.edited, true);

		await h.clickLens(runId, appPath, /Discard My Edit/);
		await until('the team’s text back in the diff', () => editor.document.getText() === teams);
		const file = h.changes.changeSet(runId)!.files[0]!;
		assert.equal(file.edited, undefined);
		assert.deepEqual(
			file.hunks.map((hunk) => [hunk.id, hunk.selected]),
			[
				['final#0', true],
				['final#1', false],
				['final#2', true],
			],
		);
		assert.equal(h.changes.proposalFiles(runId)[0]!.userEdited, undefined);

		// Only the proposed side of a pending file takes a save; the others are read-only documents.
		for (const version of ['base', 'final']) {
			const uri = changeUri(runId, version, appPath);
			assert.equal((await vscode.workspace.fs.stat(uri)).permissions, vscode.FilePermission.Readonly);
			await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(uri, Buffer.from('x'))));
		}
		assert.equal(
			(await vscode.workspace.fs.stat(changeUri(runId, 'proposed', appPath))).permissions,
			undefined,
		);
		assert.equal(readFileSync(h.abs(appPath), 'utf8'), appBase);
	});

	it('unsaved typing is never lost: a selection change of that file waits for the save, Accept saves it first and writes it; Reject drops it without asking', async () => {
		const { runId, editor } = await proposedEditor();
		await type(editor, 2, '\treturn a + b; // typed, not saved');
		const typed = editor.document.getText();
		h.changes.selectHunks(runId, appPath, ['final#0'], false);
		assert.equal(h.changes.changeSet(runId)!.files[0]!.hunks[0]!.selected, true, 'the selection waits');
		assert.equal(editor.document.getText(), typed, 'the typing is still there');
		assert.ok(editor.document.isDirty);
		assert.equal(readFileSync(h.abs(appPath), 'utf8'), appBase);

		await h.changes.accept({ runId, paths: [appPath] });
		assert.equal(readFileSync(h.abs(appPath), 'utf8'), typed, 'Accept wrote what the diff showed');
		assert.equal(
			h.changes.changeSet(runId)?.files.some((file) => file.path === appPath),
			false,
		);

		// Another run; typing in its proposed side, then Reject: nothing is written, nothing asks.
		await h.reset();
		const second = await proposedEditor();
		await type(second.editor, 2, '\treturn a + b; // thrown away');
		await h.changes.reject(second.runId);
		await until('the diff to close', () => (h.changeTabs(second.runId).length === 0 ? true : undefined));
		assert.equal(readFileSync(h.abs(appPath), 'utf8'), appBase);
		assert.equal(
			vscode.workspace.textDocuments.some((doc) => doc.isDirty && doc.uri.scheme === 'massgen-change'),
			false,
		);
	});
});
