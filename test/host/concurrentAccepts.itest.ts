// In-host: two runs' change sets pending at once, on the same files (docs/changes.md, "Several
// runs"): each is reviewed, accepted, undone and reverted on its own. Two real runs of two
// scripted teams (test/fixtures/changes/team.yaml and other-team.yaml) through the real run
// controller, one after the other; their finished runs are fed to a change review of the test's
// own, whose prompts (the conflict question, the run pick, the notifications) are the seam.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { ChangePrompts, ConflictSummary, RunPickItem } from '../../src/vscode/changes/changePrompts';
import { ChangeReview } from '../../src/vscode/changes/changeReview';
import { commandIds } from '../../src/vscode/common/commandIds';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { FinishedRun, RunService } from '../../src/vscode/run/runTypes';
import { ChangeHarness, until, useConfig } from '../fixtures/changes/changeHarness';
import {
	addedFinal,
	addedPath,
	appBase,
	appFinal,
	appPath,
	notesBase,
	notesFinal,
	notesPath,
} from '../fixtures/changes/files';

/** What the second team writes (other-team.yaml). */
const sum = (text: string) => text.replace('return a + b;', 'return a + b; // sum');
const notesOther = '# Notes\n\nFirst line.\nA line by the second team.\n';

describe('Concurrent accepts: two runs pending at once (in VS Code, scripted teams)', function () {
	this.timeout(90_000);
	let h: ChangeHarness;
	let fixtures: string;
	let review: ChangeReview | undefined;
	let finished: vscode.EventEmitter<FinishedRun>;
	let log: vscode.LogOutputChannel;
	/** What the prompts were asked, and what they answer. */
	let conflicts: { files: readonly ConflictSummary[]; others: number }[];
	let picks: { items: readonly RunPickItem[]; placeHolder: string }[];
	let pickAnswer: string | undefined;
	let notices: string[];

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		const api = await extension.activate();
		fixtures = join(extension.extensionPath, 'test', 'fixtures', 'changes');
		h = new ChangeHarness(api, join(fixtures, 'team.yaml'));
		await h.keepBuffersDirty();
	});

	beforeEach(async () => {
		await h.reset();
		conflicts = [];
		picks = [];
		pickAnswer = undefined;
		notices = [];
		finished = new vscode.EventEmitter<FinishedRun>();
		const runs: RunService = { start: async () => undefined, onDidFinishRun: finished.event };
		const prompts: ChangePrompts = {
			conflicts: async (files, others) => {
				conflicts.push({ files, others });
				// "Apply the Other N": the conflicting file stays pending, nothing of it is written.
				return 'skip';
			},
			// Stands until the run's state moves (`closed`), as the real notification does.
			finished: (message, closed) => {
				notices.push(message);
				return closed;
			},
			pickRun: async (items, placeHolder) => {
				picks.push({ items, placeHolder });
				return pickAnswer;
			},
		};
		log = vscode.window.createOutputChannel('MassGen concurrent accepts test', { log: true });
		review = new ChangeReview({ runs, log, prompts, idleMs: 0 });
	});

	afterEach(async () => {
		review?.dispose();
		finished.dispose();
		log.dispose();
		await h.reset();
	});

	after(async () => {
		await h.cleanUp();
	});

	/** The files as the editor has them (an unsaved buffer, else the disk; null: absent). */
	const texts = () => {
		const read = (path: string) => {
			const doc = h.document(path);
			if (doc?.isDirty) return doc.getText();
			return existsSync(h.abs(path)) ? readFileSync(h.abs(path), 'utf8') : null;
		};
		return { app: read(appPath), notes: read(notesPath), added: read(addedPath) };
	};
	const hash = () => createHash('sha256').update(JSON.stringify(texts())).digest('hex');

	/**
	 * Run A (team.yaml: three hunks in app.ts, a line at the end of notes.md, a new file) and run B
	 * (other-team.yaml: a fourth app.ts hunk, its own line where A adds one), both pending in the
	 * test's review, each with its notification standing.
	 */
	async function twoRuns() {
		const { run: a } = await h.runTeam({ question: 'Document the math helpers', kind: 'ask' });
		await useConfig(join(fixtures, 'other-team.yaml'));
		const { run: b } = await h.runTeam({ question: 'Name the sum', kind: 'ask' }, { keepOthers: true });
		finished.fire(a);
		finished.fire(b);
		const r = review!;
		await until(
			'both notifications',
			() => (r.notice(a.result.runId) && r.notice(b.result.runId)) || undefined,
		);
		// The extension's own review shows them too, after opening a diff: done before the test closes editors.
		await until(
			'the extension’s notifications',
			() => (h.review.notice(a.result.runId) && h.review.notice(b.result.runId)) || undefined,
		);
		assert.deepEqual(r.pendingRunIds(), [a.result.runId, b.result.runId], 'in the order they finished');
		return { a: a.result.runId, b: b.result.runId, runA: a, runB: b, r };
	}

	it('a command without a run asks which (the runs by question); the argument or the active diff decides without asking; two notifications stand side by side', async () => {
		const { a, b, r } = await twoRuns();
		assert.equal(r.statusText, '$(diff-multiple) MassGen: 2 change sets to review');
		assert.equal(notices.length, 2);
		assert.ok(
			notices.some((notice) =>
				/^MassGen “Document the math helpers”: 3 files changed by (alpha|beta|gamma)\. /.test(notice),
			),
			notices.join('\n'),
		);
		assert.ok(
			notices.some((notice) => /^MassGen “Name the sum”: 2 files changed by (delta|epsilon)\. /.test(notice)),
			notices.join('\n'),
		);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		const before = hash();

		// Nothing says which run: the user is asked, and cancelling does nothing.
		await r.acceptAll();
		await r.review();
		await r.step(1);
		assert.equal(picks.length, 3);
		assert.deepEqual(
			picks[0]!.items.map(({ runId, label, description }) => ({
				runId,
				label,
				description: description.replace(/by \w+$/, 'by X'),
			})),
			[
				{ runId: a, label: '“Document the math helpers”', description: '3 files changed by X' },
				{ runId: b, label: '“Name the sum”', description: '2 files changed by X' },
			],
		);
		assert.equal(picks[0]!.placeHolder, 'Several runs’ changes are waiting: which run?');
		assert.equal(hash(), before, 'a cancelled pick writes nothing');
		assert.deepEqual(r.pendingRunIds(), [a, b]);

		// The run picked is the one the command is for: Review opens B's multi-file view, named for B.
		pickAnswer = b;
		await r.review();
		assert.equal(picks.length, 4);
		await until('B’s multi-file view', () =>
			vscode.window.tabGroups.all
				.flatMap((group) => group.tabs)
				.find((candidate) =>
					/^MassGen “Name the sum”: 2 files changed by (delta|epsilon)/.test(candidate.label),
				),
		);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');

		// A's diff in front: Next File is for A, nobody is asked; the tab names the run.
		await r.openDiff(a, appPath);
		const tab = await until('the diff of A', () => h.diffTab(a, appPath));
		assert.match(tab.label, /^app\.ts \(MassGen “Document the math helpers”: (alpha|beta|gamma)\)$/);
		await r.step(1);
		await until('the next file of A', () =>
			h.changeTabs(a).find((candidate) => candidate.label.startsWith('added.md')),
		);
		assert.equal(picks.length, 4, 'the active diff named the run');

		// B's notification's Accept All: B only; A's notification and its links still stand.
		const noticeB = r.notice(b)!;
		await r.acceptAll({ runId: b, notice: noticeB.generation });
		assert.equal(picks.length, 4);
		assert.deepEqual(texts(), { app: sum(appBase), notes: notesOther, added: null });
		assert.equal(r.notice(b), undefined, "B's notification closed");
		const noticeA = r.notice(a);
		assert.ok(noticeA, "A's notification still stands");
		assert.equal(r.statusText, '$(diff-multiple) MassGen: 3 files to review');

		// A's notification's Accept All, after B's accept: A's files merge into what B wrote.
		await r.acceptAll({ runId: a, notice: noticeA.generation });
		assert.equal(picks.length, 4);
		assert.deepEqual(conflicts, [{ files: [{ path: notesPath, reason: 'overlap' }], others: 2 }]);
		assert.deepEqual(texts(), { app: sum(appFinal), notes: notesOther, added: addedFinal });
	});

	it("accept B then A: both teams' hunks end up in the file, the same-lines conflict is reported and B's text survives; one undo per accept restores each step into its own run's set", async () => {
		const { a, b, r } = await twoRuns();
		const step0 = hash();
		assert.deepEqual(texts(), { app: appBase, notes: notesBase, added: null });

		await r.accept({ runId: b });
		assert.deepEqual(texts(), { app: sum(appBase), notes: notesOther, added: null });
		assert.deepEqual(r.pendingRunIds(), [a]);
		const step1 = hash();

		// A's base is what A's team read (the snapshot): app.ts merges three-way into what B wrote;
		// notes.md's line is where B's is: a conflict, asked about, never a silent overwrite.
		await r.accept({ runId: a });
		assert.deepEqual(conflicts, [{ files: [{ path: notesPath, reason: 'overlap' }], others: 2 }]);
		assert.deepEqual(texts(), { app: sum(appFinal), notes: notesOther, added: addedFinal });
		assert.deepEqual(
			r
				.pending(a)
				?.files()
				.map((file) => file.path),
			[notesPath],
			'the conflicting file waits in A’s set',
		);
		const step2 = hash();
		assert.notEqual(step2, step1);

		// Undo the last accept (A's): app.ts as B left it, the added file gone; A's files are pending again in A's set.
		await vscode.window.showTextDocument(h.uri(appPath));
		await vscode.commands.executeCommand('undo');
		await until('the undo of A’s accept', () => (hash() === step1 ? true : undefined));
		await until('A’s files pending again', () => (r.pending(a)?.files().length === 3 ? true : undefined));
		assert.equal(r.pending(b), undefined, 'B’s accept is untouched');

		// Undo B's accept: the files as before both; B's files are pending again in B's set.
		await vscode.window.showTextDocument(h.uri(appPath));
		await vscode.commands.executeCommand('undo');
		await until(`the undo of B’s accept (${JSON.stringify(texts())})`, () =>
			hash() === step0 ? true : undefined,
		);
		await until('B’s files pending again', () => (r.pending(b)?.files().length === 2 ? true : undefined));
		assert.equal(r.pending(a)?.files().length, 3);
		assert.deepEqual(r.pendingRunIds(), [a, b], 'each in its run’s place');
		assert.equal(r.statusText, '$(diff-multiple) MassGen: 2 change sets to review');
	});

	it("Revert Run of A after B was accepted keeps B's hunks", async () => {
		const { a, b, r } = await twoRuns();
		await r.accept({ runId: a });
		assert.deepEqual(texts(), { app: appFinal, notes: notesFinal, added: addedFinal });
		await r.accept({ runId: b });
		// B's notes.md line is where A's is: asked, skipped, A's text stays.
		assert.deepEqual(conflicts, [{ files: [{ path: notesPath, reason: 'overlap' }], others: 1 }]);
		assert.deepEqual(texts(), { app: sum(appFinal), notes: notesFinal, added: addedFinal });
		// What Revert Run reads is on disk: save what the accept left in buffers.
		await vscode.workspace.saveAll(false);

		await vscode.commands.executeCommand(commandIds.revertRun, a);
		await until(`A reverted (${JSON.stringify(texts())})`, () =>
			texts().app === sum(appBase) ? true : undefined,
		);
		assert.deepEqual(texts(), { app: sum(appBase), notes: notesBase, added: null }, 'B’s hunk stays');
		assert.ok(r.pending(b)?.file(notesPath), 'B’s skipped file is still pending');
	});
});
