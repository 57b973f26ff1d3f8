// In-host: "MassGen: Review Selection" in the real extension host with the scripted review team
// of test/fixtures/changes/review-team.yaml: comment threads with agreement counts, and the fix
// as a change set.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { changeUri } from '../../src/vscode/changes/changeUri';
import { commandIds } from '../../src/vscode/common/commandIds';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { FinishedRun } from '../../src/vscode/run/runTypes';
import { ChangeHarness, until } from '../fixtures/changes/changeHarness';
import { calcBase, calcFixed, calcPath } from '../fixtures/changes/files';
import { requestScreenshot } from './harness';

describe('Review Selection (in VS Code, scripted team)', function () {
	this.timeout(60_000);
	let api: MassGenApi;
	let h: ChangeHarness;

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		api = await extension.activate();
		h = new ChangeHarness(
			api,
			join(extension.extensionPath, 'test', 'fixtures', 'changes', 'review-team.yaml'),
			{ [calcPath]: calcBase },
			[],
		);
		await h.reset();
	});

	afterEach(async () => {
		await vscode.commands.executeCommand(commandIds.clearReviewComments);
		await h.rejectPending();
	});

	after(async () => {
		await h.cleanUp();
		await vscode.workspace.fs
			.delete(h.uri('review-demo'), { recursive: true, useTrash: false })
			.then(undefined, () => undefined);
	});

	it('sends the selection with path, line numbers and context; findings become threads saying how many agents raised them; the fix is a change set', async () => {
		const editor = await vscode.window.showTextDocument(h.uri(calcPath));
		editor.selection = new vscode.Selection(2, 0, 5, editor.document.lineAt(5).text.length);
		const run = await vscode.commands.executeCommand<FinishedRun | undefined>(commandIds.reviewSelection);
		assert.ok(run, 'the review ran');
		assert.equal(run.result.status, 'completed', run.result.error);
		assert.equal(run.request.kind, 'review');
		assert.deepEqual(
			{ ...run.request.review, uri: run.request.review?.uri.toString() },
			{ uri: h.uri(calcPath).toString(), path: calcPath, startLine: 2, endLine: 6 },
		);
		const question = run.request.question;
		assert.match(question, /`review-demo\/calc\.ts` \(lines 3-6\)/);
		assert.ok(question.includes('```findings'), 'asks for a findings block');
		assert.ok(question.includes('3 | \tfor (let i = 0; i <= values.length; i++) {'), 'numbered selection');
		assert.ok(question.includes('Context before (lines 1-2)'), 'context before');

		const threads = await until('the finding threads', () =>
			api.findingThreads().length >= 2 ? api.findingThreads() : undefined,
		);
		const byLine = new Map(threads.map((thread) => [thread.line, thread]));
		assert.equal(byLine.get(3)?.label, 'High · raised by 3 of 3 agents');
		// When gamma wins, line 6 is not in its review but two other agents agree on it.
		assert.match(
			byLine.get(6)?.label ?? '',
			/^Medium · raised by 2 of 3 agents( · not in the winning review)?$/,
		);
		assert.equal(byLine.get(3)?.thread.uri.toString(), h.uri(calcPath).toString());
		assert.equal(byLine.get(3)?.thread.range?.start.line, 2);
		assert.equal(byLine.get(3)?.thread.canReply, false);
		const comment = byLine.get(6)!.thread.comments[0]!;
		assert.equal(typeof comment.body, 'string', 'the model text is shown as plain text');
		assert.match(comment.body as string, /zero/i);
		assert.equal(comment.author.name, 'MassGen');
		assert.equal(comment.label?.split(', ').length, 2, 'the agents that raised it');

		// The fix arrives as the run's change set, reviewed like any other.
		const view = await until('the fix as a change set', () => {
			const current = h.changes.changeSet(run.result.runId);
			return current?.runId === run.result.runId ? current : undefined;
		});
		assert.deepEqual(
			view.files.map((file) => `${file.kind} ${file.path}`),
			[`modify ${calcPath}`],
		);
		assert.equal(
			(await vscode.workspace.openTextDocument(changeUri(run.result.runId, 'proposed', calcPath))).getText(),
			calcFixed,
		);
		await vscode.window.showTextDocument(h.uri(calcPath), { preview: false });
		await new Promise((resolve) => setTimeout(resolve, 500));
		await requestScreenshot('in-host-review-threads');

		// Dismiss one finding, then clear the rest.
		await vscode.commands.executeCommand(commandIds.dismissFinding, byLine.get(3)!.thread);
		assert.deepEqual(
			api
				.findingThreads()
				.map((thread) => thread.line)
				.includes(3),
			false,
		);
		await vscode.commands.executeCommand(commandIds.clearReviewComments);
		assert.equal(api.findingThreads().length, 0);
	});

	it('with nothing selected the whole file is reviewed', async () => {
		const editor = await vscode.window.showTextDocument(h.uri(calcPath));
		editor.selection = new vscode.Selection(0, 0, 0, 0);
		const run = await vscode.commands.executeCommand<FinishedRun | undefined>(commandIds.reviewSelection);
		assert.ok(run);
		assert.equal(run.request.review?.startLine, 0);
		assert.equal(run.request.review?.endLine, editor.document.lineCount);
		assert.match(run.request.question, /\(lines 1-8\)/);
	});
});
