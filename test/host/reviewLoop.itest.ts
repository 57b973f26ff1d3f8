// In-host: the review loop (docs/changes.md). A loopback team (real SDKs against the loopback
// servers) proposes changes to two files; the reviewer accepts one file, comments on two hunks of
// the other (Comment for the Team on the proposed side, and the panel's Comment on a hunk, both
// through the extension's commands) and sends them to the team. The follow-up run's requests, as
// the servers recorded them, carry both comments with their anchors and the proposed lines; the
// revision's change set marks which hunk addresses which comment, the threads follow with the
// team's verdict and stay open until the reviewer resolves them (the team's "Addresses: c1" is a
// model's claim), the accepted file stays as accepted and the revised run's set is no longer pending.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { stringify } from 'yaml';
import { commandIds } from '../../src/vscode/common/commandIds';
import { changeUri } from '../../src/vscode/changes/changeUri';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { FinishedRun } from '../../src/vscode/run/runTypes';
import type { PromptView } from '../servers/types';
import { startLoopbackTeam, type LoopbackTeam } from '../servers/loopbackTeam';
import { endRunAndConfig, rejectPendingChanges, runTeam, until, useConfig, workspaceRoot } from './hostWaits';

const greet = 'review-loop/greet.ts';
const notes = 'review-loop/notes.md';
const lines = (...all: string[]) => all.map((line) => `${line}\n`).join('');
const greetBase = lines(
	'// Greetings',
	'export function hello(name: string) {',
	"\treturn 'Hello ' + name;",
	'}',
	'',
	'export function bye(name: string) {',
	"\treturn 'Bye ' + name;",
	'}',
);
const greetProposed = greetBase
	.replace("\treturn 'Hello ' + name;", '\treturn `Hello, ${name}!`;')
	.replace("\treturn 'Bye ' + name;", '\treturn `Goodbye, ${name}.`;');
// The revision takes the first comment (line 3) and leaves the second (line 7) as proposed.
const greetRevised = greetProposed.replace('\treturn `Hello, ${name}!`;', '\treturn `Hi, ${name}!`;');
const notesBase = '# Notes\n\nBase.\n';
const notesProposed = '# Notes\n\nBase.\nThe greetings use templates.\n';
const firstComment = 'Say Hi here, not Hello.';
const secondComment = 'Keep the old farewell wording.';

const reviewing = (prompt: PromptView) =>
	[prompt.system, ...prompt.texts].join('\n').includes('REVIEW COMMENTS');

describe('Review loop: comment on the change set, Send to Team, a revised and re-voted set (loopback team)', function () {
	this.timeout(120_000);
	let api: MassGenApi;
	let team: LoopbackTeam;
	let dir: string;
	const root = () => workspaceRoot();
	const disk = (path: string) => readFileSync(join(root(), path), 'utf8');
	const hash = (text: string) => createHash('sha256').update(text).digest('hex');

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		api = await extension.activate();
		await rejectPendingChanges(api);
		team = await startLoopbackTeam({
			auto: {
				// Agents cite the comment they address in their answer ("Addresses: c1").
				answer: (prompt) =>
					reviewing(prompt) ? 'Greeting changed to Hi.\nAddresses: c1' : 'Use template strings.',
				presentationWrites: (prompt) =>
					reviewing(prompt)
						? [
								{ path: greet, content: greetRevised },
								{ path: notes, content: notesProposed },
							]
						: [
								{ path: greet, content: greetProposed },
								{ path: notes, content: notesProposed },
							],
			},
		});
		dir = mkdtempSync(join(tmpdir(), 'massgen-review-loop-'));
		writeFileSync(join(dir, 'team.yaml'), stringify({ agents: team.agents.slice(0, 2) }));
		await useConfig(join(dir, 'team.yaml'));
		await vscode.workspace.fs.writeFile(vscode.Uri.file(join(root(), greet)), Buffer.from(greetBase, 'utf8'));
		await vscode.workspace.fs.writeFile(vscode.Uri.file(join(root(), notes)), Buffer.from(notesBase, 'utf8'));
	});

	after(async () => {
		await rejectPendingChanges(api);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		await endRunAndConfig(api);
		await vscode.workspace.fs
			.delete(vscode.Uri.file(join(root(), 'review-loop')), { recursive: true, useTrash: false })
			.then(undefined, () => undefined);
		await team.close();
		rmSync(dir, { recursive: true, force: true });
	});

	it('both comments reach every agent with their anchors and the proposal; the new set marks which hunk addresses which; threads carry the team’s verdict and stay open until the reviewer resolves them; the accepted file stays; the revised set is gone', async () => {
		const { run: first } = await runTeam(api, 'Use template strings in the greetings');
		const parent = first.result.runId;
		const set = await until('the proposal pending', () => api.changes.changeSet(parent) ?? undefined);
		const greetFile = set.files.find((file) => file.path === greet);
		assert.ok(greetFile, JSON.stringify(set.files.map((file) => file.path)));
		assert.deepEqual(
			greetFile.hunks.map((hunk) => [hunk.id, hunk.newStart, hunk.newLines]),
			[
				['final#0', 3, 1],
				['final#1', 7, 1],
			],
		);

		// The reviewer accepts notes.md as proposed before sending the rest back.
		await api.changes.accept({ runId: parent, paths: [notes] });
		assert.equal(disk(notes), notesProposed);
		const acceptedHash = hash(disk(notes));

		// Comment for the Team on the proposed side of the diff (line 3), and the panel's Comment on a hunk (the second).
		const proposedUri = changeUri(parent, 'proposed', greet);
		await vscode.workspace.openTextDocument(proposedUri);
		const t1 = await vscode.commands.executeCommand<string>(commandIds.commentForTeam, {
			uri: proposedUri,
			line: 3,
			endLine: 3,
			text: firstComment,
		});
		const t2 = await vscode.commands.executeCommand<string>(commandIds.commentOnHunk, {
			runId: parent,
			path: greet,
			hunkId: 'final#1',
			text: secondComment,
		});
		assert.ok(t1 && t2 && t1 !== t2, `two threads: ${t1}, ${t2}`);
		assert.deepEqual(
			api
				.teamThreads(parent)
				.map((thread) => [thread.path, thread.line, thread.endLine, thread.text, thread.resolved]),
			[
				[greet, 3, 3, firstComment, false],
				[greet, 7, 7, secondComment, false],
			],
		);
		assert.equal(
			api.changes.changeSet(parent)?.openComments,
			2,
			'the panel offers Send to Team (2 comments)',
		);

		const since = {
			responses: team.servers.responses.requests.length,
			anthropic: team.servers.anthropic.requests.length,
		};
		const revised = await vscode.commands.executeCommand<FinishedRun | undefined>(commandIds.sendToTeam, {
			runId: parent,
		});
		assert.ok(revised, 'the revision ran');
		assert.equal(revised.result.status, 'completed', JSON.stringify(revised.result.error ?? null));
		const runId = revised.result.runId;
		assert.notEqual(runId, parent);

		// Every agent's requests of the follow-up carry both comments, anchored, with the proposed lines.
		const firstRequests = (['responses', 'anthropic'] as const).map((protocol) => {
			const request = team.servers[protocol].requests
				.slice(since[protocol])
				.find((candidate) => candidate.method === 'POST');
			assert.ok(request, `the ${protocol} agent was asked`);
			return [request.prompt.system, ...request.prompt.texts].join('\n');
		});
		for (const text of firstRequests) {
			assert.ok(text.includes('REVIEW COMMENTS'), text.slice(0, 2000));
			assert.ok(text.includes(firstComment) && text.includes(secondComment), 'both comments');
			assert.ok(text.includes(`id="c1"`) && text.includes(`id="c2"`), 'the core’s ids');
			assert.match(text, /<comment id="c1" path=[^>]*review-loop\/greet\.ts[^>]*lines="3">/, 'c1 anchored');
			assert.match(text, /<comment id="c2" path=[^>]*review-loop\/greet\.ts[^>]*lines="7">/, 'c2 anchored');
			assert.ok(
				text.includes('`Hello, ${name}!`') && text.includes('`Goodbye, ${name}.`'),
				'the proposed lines',
			);
		}

		// The new change set: against the disk (notes.md is accepted: not in it, and untouched).
		const next = await until('the revision’s set pending', () => api.changes.changeSet(runId) ?? undefined);
		assert.deepEqual(
			next.files.map((file) => file.path),
			[greet],
		);
		assert.equal(hash(disk(notes)), acceptedHash, 'the accepted file stays as accepted');
		const marks = next.files[0]!.hunks.map((hunk) => [
			hunk.newStart,
			(hunk.comments ?? []).map((comment) => [comment.commentId, comment.addressed, comment.state]),
		]);
		assert.deepEqual(marks, [
			[3, [['c1', true, 'open']]],
			[7, [['c2', false, 'open']]],
		]);

		// The threads moved to the new proposal with the team's verdict, both still open: the winner's
		// "Addresses: c1" is a model's claim, and the reviewer resolves threads.
		assert.deepEqual(
			api
				.teamThreads(runId)
				.map((thread) => [thread.id, thread.line, thread.resolved, thread.outcome?.addressed]),
			[
				[t1, 3, false, true],
				[t2, 7, false, false],
			],
		);
		assert.equal(api.teamThreads(parent).length, 0);
		const [addressedThread, openThread] = api.teamThreads(runId);
		assert.equal(addressedThread!.thread.state, vscode.CommentThreadState.Unresolved);
		assert.equal(openThread!.thread.state, vscode.CommentThreadState.Unresolved);
		assert.match(String(addressedThread!.thread.label), /Addressed by the team \(c1\)/);
		assert.equal(addressedThread!.thread.uri.toString(), changeUri(runId, 'proposed', greet).toString());

		// The revised set is superseded: not pending, no change set for the panel.
		assert.ok(!api.changes.pendingRunIds().includes(parent), JSON.stringify(api.changes.pendingRunIds()));
		assert.equal(api.changes.changeSet(parent), null);
		const entries = () =>
			readFileSync(join(first.runDir, 'changes-log.jsonl'), 'utf8')
				.trim()
				.split('\n')
				.map((line) => JSON.parse(line) as { kind: string; by?: string; byRun?: string });
		const record = await until('the supersede record', () =>
			entries().length === 2 ? entries() : undefined,
		);
		assert.deepEqual(
			record.map((entry) => [entry.kind, entry.by, entry.byRun ?? null]),
			[
				['accept', 'editor', null],
				['supersede', 'editor', runId],
			],
			'the parent’s record: notes.md accepted, then superseded by the revision',
		);
		assert.equal(api.changes.changeSet(runId)?.openComments, 2, 'both open until the reviewer resolves one');

		// The reviewer agrees with the team on c1 and resolves it: only c2 would be sent again; reopened, both.
		await vscode.commands.executeCommand(commandIds.resolveTeamThread, addressedThread!.thread);
		assert.equal(api.teamThreads(runId)[0]!.resolved, true);
		assert.equal(addressedThread!.thread.state, vscode.CommentThreadState.Resolved);
		assert.equal(api.changes.changeSet(runId)?.openComments, 1, 'one comment left open to send again');
		await vscode.commands.executeCommand(commandIds.reopenTeamThread, addressedThread!.thread);
		assert.equal(api.teamThreads(runId)[0]!.resolved, false);
		assert.equal(api.changes.changeSet(runId)?.openComments, 2);
	});
});
