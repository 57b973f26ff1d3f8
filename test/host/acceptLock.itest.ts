// In-host: Accept holds the workspace lock and re-checks every file under it. A write that lands
// while the user answers the conflict question (here: another MassGen write, holding the lock as
// the CLI's --apply does) is merged by Accept, never overwritten.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { acquireWorkspaceLock, type HeldLock } from '../../src/core/workspace/workspaceLock';
import type { ChangePrompts } from '../../src/vscode/changes/changePrompts';
import { ChangeReview } from '../../src/vscode/changes/changeReview';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { FinishedRun, RunService } from '../../src/vscode/run/runTypes';
import { ChangeHarness, until } from '../fixtures/changes/changeHarness';
import { appBase, appPath, notesBase, notesFinal, notesPath } from '../fixtures/changes/files';
import { join } from 'node:path';

describe('Accept and the workspace lock (in VS Code, scripted team)', function () {
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
	});

	after(async () => {
		await h.reset();
		await h.cleanUp();
	});

	it('a file another write changed while the user decided is merged under the lock, not overwritten', async () => {
		const finished = new vscode.EventEmitter<FinishedRun>();
		const runs: RunService = { start: async () => undefined, onDidFinishRun: finished.event };
		// Two lines above everything: edits made at the old line numbers would land in the wrong place.
		const otherWrite = `<!-- a -->\n<!-- b -->\n${notesBase}`;
		let held: HeldLock | undefined;
		const prompts: ChangePrompts = {
			// Asked after Accept planned every file and before it takes the lock: another writer takes the
			// lock and changes notes.md (lines added at the top, away from the team's), then lets go.
			conflicts: async () => {
				held = await acquireWorkspaceLock(h.root, { tool: 'another apply' });
				await h.writeFile(notesPath, otherWrite);
				setImmediate(() => void held!.release());
				return 'resolve';
			},
			finished: async () => undefined,
		};
		const log = vscode.window.createOutputChannel('MassGen lock test', { log: true });
		const review = new ChangeReview({ runs, log, prompts, idleMs: 0 });
		try {
			const { run } = await h.runTeam();
			await h.changes.reject(run.result.runId);
			finished.fire(run);
			const runId = run.result.runId;
			await until('the second review to hold the run', () => review.pending(runId) !== undefined);
			// app.ts overlaps the team's sub() hunk: the conflict question is asked.
			await h.writeFile(appPath, appBase.replace('return a - b;', 'return a - b - 0;'));
			await until(
				'app.ts marked as a conflict',
				() => review.pending(runId)?.userEdit(appPath) === 'conflict',
			);
			// Open, so the editor holds a clean document of notes.md that must load the other write.
			await vscode.workspace.openTextDocument(h.uri(notesPath));

			await review.accept({ runId });
			assert.ok(held, 'the conflict question was asked');
			const notes = await until('notes.md saved with both edits', () => {
				const doc = h.document(notesPath);
				return doc && !doc.isDirty ? doc.getText() : undefined;
			});
			assert.equal(notes, `<!-- a -->\n<!-- b -->\n${notesFinal}`);
			assert.equal(h.readDisk().notes, notes, "the other write's line and the team's line are both on disk");
			assert.ok(!existsSync(held.file), 'the lock was released');
		} finally {
			review.dispose();
			log.dispose();
		}
	});

	it('control: without a write meanwhile, the same accept writes the team version', async () => {
		const { run } = await h.runTeam();
		assert.ok(run.result.changes.length > 0);
		await h.changes.accept({ runId: run.result.runId });
		assert.equal(h.readDisk().notes, notesFinal);
		assert.notEqual(notesBase, notesFinal);
	});
});
