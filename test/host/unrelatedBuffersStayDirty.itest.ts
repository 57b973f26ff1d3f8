// In-host: an accept writes only the files of its change set. The user's unsaved edits in another
// document stay unsaved, and that file on disk stays as it was, whether the change set creates a
// file or only modifies existing ones. Named to run after the change-state and change-review
// suites: its accepts leave undo elements for the fixture's files in the window (no API clears
// them), and Change set state's Undo of a three-file accept needs those files' undo history clean
// (run before it, its Undo restored two files of three).
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import { ChangeHarness } from '../fixtures/changes/changeHarness';
import { addedFinal, addedPath, appFinal, appPath } from '../fixtures/changes/files';

const otherPath = 'changes-demo/other.md';
const otherBase = '# Other\n\nThe user is editing this one.\n';

describe('Accept keeps unrelated unsaved buffers dirty (in VS Code, scripted team)', function () {
	this.timeout(60_000);
	let h: ChangeHarness;

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		const api = await extension.activate();
		h = new ChangeHarness(api, join(extension.extensionPath, 'test', 'fixtures', 'changes', 'team.yaml'));
		await h.keepBuffersDirty();
	});

	beforeEach(async () => {
		await h.reset();
		await h.writeFile(otherPath, otherBase);
	});

	afterEach(async () => {
		await h.reset();
		await vscode.workspace.fs.delete(h.uri(otherPath), { useTrash: false }).then(undefined, () => undefined);
	});

	after(async () => {
		await h.cleanUp();
	});

	const hashOnDisk = () =>
		createHash('sha256')
			.update(readFileSync(h.abs(otherPath)))
			.digest('hex');

	/** Opens the unrelated file and types into it; returns its hash on disk. */
	async function dirtyOther(): Promise<{ doc: vscode.TextDocument; hash: string }> {
		const hash = hashOnDisk();
		const doc = await vscode.workspace.openTextDocument(h.uri(otherPath));
		const editor = await vscode.window.showTextDocument(doc);
		await editor.edit((builder) => builder.insert(new vscode.Position(3, 0), 'Typed, not saved.\n'));
		assert.ok(doc.isDirty, 'the unrelated document is dirty before the accept');
		return { doc, hash };
	}

	for (const { name, path, final } of [
		{ name: 'creates a file', path: addedPath, final: addedFinal },
		{ name: 'only modifies a file', path: appPath, final: appFinal },
	]) {
		it(`an accept that ${name} leaves another dirty document unsaved and its file untouched`, async () => {
			const { run } = await h.runTeam();
			const { doc, hash } = await dirtyOther();
			await h.changes.accept({ runId: run.result.runId, paths: [path] });
			assert.equal(readFileSync(h.abs(path), 'utf8'), final, 'the accepted file landed on disk');
			assert.ok(doc.isDirty, 'the unrelated document is still dirty');
			assert.equal(doc.getText(), `${otherBase}Typed, not saved.\n`, "the user's typing is still in it");
			assert.equal(hashOnDisk(), hash, 'the unrelated file on disk is unchanged');
		});
	}
});
