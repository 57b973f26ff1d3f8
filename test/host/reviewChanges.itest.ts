// In-host: "MassGen: Review Changes" on a real git repository made in the test workspace, reviewed by
// four agents on the loopback servers (four SDKs): the working tree, the staged changes, a branch
// range and the pull request (GitHub Pull Requests absent: from git). The diff reaches every agent;
// findings become threads on the diff's new side; one agent's findings are set apart; the winner's
// fix waits in the change review.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { openGitRepo } from '../../src/core/context/gitRevision';
import { diffSourceItems } from '../../src/vscode/codeReview/diffSourcePick';
import { pullRequestExtensionId } from '../../src/vscode/codeReview/pullRequests';
import { reviewScheme } from '../../src/vscode/codeReview/reviewSides';
import { commandIds } from '../../src/vscode/common/commandIds';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { FinishedRun } from '../../src/vscode/run/runTypes';
import { startLoopbackTeam, type LoopbackTeam } from '../servers/loopbackTeam';
import type { PromptView } from '../servers/types';
import { until, useConfig } from './hostWaits';

const dir = 'review-changes';
const file = `${dir}/calc.ts`;
const lines = (count: number, extra: (i: number) => string | undefined = () => undefined) =>
	Array.from({ length: count }, (_, i) => extra(i + 1) ?? `export const value${i + 1} = ${i + 1};`);
const base = `${lines(20).join('\n')}\n`;
/** The change every review is about: line 2 reads past the end (every agent says so). */
const changed = (marker: string) =>
	`${lines(20, (n) => (n === 2 ? `for (let i = 0; i <= values.length; i++) total += values[i]; // ${marker}` : undefined)).join('\n')}\n`;
const fixed = `${lines(20, (n) => (n === 2 ? 'for (let i = 0; i < values.length; i++) total += values[i];' : undefined)).join('\n')}\n`;

/** Each model's findings: the loop bound (all four), and one of its own on a line of its own. */
const own: Record<string, { line: number; message: string }> = {
	'gpt-5-mini': { line: 8, message: 'value8 shadows nothing but its name says little about its purpose.' },
	'claude-haiku-4-5': { line: 11, message: 'Consider freezing value11 so callers cannot reassign it.' },
	'gemini-2.5-flash': { line: 14, message: 'The constant value14 duplicates a literal used elsewhere.' },
	'loopback-chat': { line: 17, message: 'Exported value17 lacks documentation comments entirely.' },
};
const findings = (prompt: PromptView) =>
	[
		'My review of the diff.',
		'',
		'```findings',
		JSON.stringify([
			{
				path: file,
				line: 2,
				severity: 'error',
				title: 'Loop reads past the end',
				message: `Off-by-one (seen by ${prompt.model}): the loop runs while i <= values.length and reads past the end of values.`,
			},
			{ path: file, severity: 'info', ...own[prompt.model] },
			// A path outside the diff (and the workspace) is listed, never opened.
			{ path: '../../etc/passwd', line: 1, severity: 'warning', message: 'Outside the diff.' },
		]),
		'```',
	].join('\n');

describe('Review Changes (in VS Code, git repository, loopback servers)', function () {
	this.timeout(90_000);
	let api: MassGenApi;
	let team: LoopbackTeam;
	let configDir: string;
	let root: string;
	const git = (...args: string[]) =>
		execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: root, stdio: 'pipe' })
			.toString()
			.trim();
	const requestCounts = () =>
		Object.fromEntries(Object.entries(team.servers).map(([protocol, s]) => [protocol, s.requests.length]));
	/** Every server's first request since `seen` (each agent's first call of the run). */
	const firstRequests = (seen: Record<string, number>) =>
		Object.entries(team.servers).map(([protocol, server]) => {
			const first = server.firstModelRequest(seen[protocol] ?? 0);
			assert.ok(first, `${protocol}: a request`);
			return { protocol, text: first.prompt.texts.join('\n') };
		});
	const review = async (arg: unknown) => {
		const seen = requestCounts();
		const run = await vscode.commands.executeCommand<FinishedRun | undefined>(
			commandIds.reviewGitChanges,
			arg,
		);
		assert.ok(run, 'the review ran');
		assert.equal(run.result.status, 'completed', run.result.error);
		const listed = await until('the findings shown', () => {
			const current = api.diffReview.findings();
			return current.some((item) => item.runId === run.result.runId && item.thread) ? current : undefined;
		});
		return { run, seen, listed };
	};
	/** The threads: one agreed on line 2 by all four, the winner's own one apart, nothing outside the diff. */
	const checkThreads = (listed: ReturnType<MassGenApi['diffReview']['findings']>, uri: vscode.Uri) => {
		const agreed = listed.filter((item) => !item.single);
		const single = listed.filter((item) => item.single);
		const line2 = agreed.find((item) => item.finding.line === 2 && item.finding.path === file);
		assert.ok(line2?.thread, 'the agreed finding has a thread');
		assert.equal(line2.thread.label, 'High · raised by 4 of 4 agents');
		assert.equal(line2.thread.thread.uri.toString(), uri.toString());
		assert.equal(line2.thread.thread.range?.start.line, 1);
		assert.equal(line2.thread.thread.collapsibleState, vscode.CommentThreadCollapsibleState.Expanded);
		const body = line2.thread.thread.comments[0]!.body;
		assert.equal(typeof body, 'string', 'plain text, never Markdown');
		// The title, the winning review's reason, then each other agent's own words.
		const parts = (body as string).split('\n\n');
		assert.equal(parts[0], 'Loop reads past the end');
		assert.match(parts[1]!, /^Off-by-one \(seen by [\w.-]+\): the loop runs/);
		assert.equal(parts.length, 5);
		for (const part of parts.slice(2)) assert.match(part, /^\w+_agent: Off-by-one \(seen by [\w.-]+\)/);
		// Each agent's own finding is set apart, the winner's without the "not in the winning review" mark.
		assert.deepEqual(
			single.map((item) => item.finding.line).sort((a, b) => a - b),
			[8, 11, 14, 17],
		);
		assert.equal(single.filter((item) => item.finding.inWinner).length, 1);
		for (const item of single) {
			assert.match(
				item.thread?.label ?? '',
				/^Low · raised by 1 of 4 agents · single agent( · not in the winning review)?$/,
			);
			assert.equal(item.thread?.thread.collapsibleState, vscode.CommentThreadCollapsibleState.Collapsed);
			const expected = Object.values(own).find((finding) => finding.line === item.finding.line);
			assert.equal(item.finding.message, expected?.message);
			assert.equal(item.thread?.thread.uri.toString(), uri.toString());
		}
		const outside = listed.find((item) => item.finding.path === '../../etc/passwd');
		assert.ok(outside, 'a finding outside the diff is listed');
		assert.equal(outside.thread, undefined, 'and has no thread');
	};
	const workspaceFile = () => vscode.Uri.file(join(root, file));

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		api = await extension.activate();
		const folder = vscode.workspace.workspaceFolders?.[0];
		assert.ok(folder, 'the test window has a workspace folder');
		root = folder.uri.fsPath;
		// The workspace folder becomes a repository holding only this suite's folder.
		rmSync(join(root, '.git'), { recursive: true, force: true });
		mkdirSync(join(root, dir), { recursive: true });
		writeFileSync(join(root, file), base);
		git('init', '-q', '-b', 'main');
		git('add', file);
		git('commit', '-qm', 'base');
		git('checkout', '-qb', 'feature');
		team = await startLoopbackTeam({
			auto: {
				answer: findings,
				presentation: findings,
				presentationWrites: [{ path: file, content: fixed }],
			},
		});
		configDir = mkdtempSync(join(tmpdir(), 'massgen-review-changes-'));
		writeFileSync(join(configDir, 'team.yaml'), team.configYaml());
		await useConfig(join(configDir, 'team.yaml'));
	});

	afterEach(async () => {
		for (const runId of api.changes.pendingRunIds()) await api.changes.reject(runId);
		await vscode.commands.executeCommand(commandIds.clearReviewComments);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	after(async () => {
		await useConfig(undefined);
		await team?.close();
		rmSync(configDir, { recursive: true, force: true });
		rmSync(join(root, '.git'), { recursive: true, force: true });
		rmSync(join(root, dir), { recursive: true, force: true });
	});

	it('the working tree: the diff reaches every agent; threads on the file’s lines; one agent’s finding apart; the fix pending', async () => {
		writeFileSync(join(root, file), changed('working'));
		const { run, seen, listed } = await review('working');
		assert.equal(run.request.kind, 'review');
		assert.deepEqual(run.request.diffReview, {
			source: 'working-tree',
			label: 'the working tree changes',
			files: [file],
		});
		for (const { protocol, text } of firstRequests(seen)) {
			assert.ok(
				text.includes('<attachment kind="diff" source="working-tree">'),
				`${protocol}: the diff attached`,
			);
			assert.ok(text.includes(`+++ b/${file}`), `${protocol}: the changed file`);
			assert.ok(
				text.includes('+for (let i = 0; i <= values.length; i++) total += values[i]; // working'),
				`${protocol}: the added line`,
			);
		}
		checkThreads(listed, workspaceFile());
		// The winner's fix waits in the change review; nothing was written.
		const view = await until(
			'the fix as a change set',
			() => api.changes.changeSet(run.result.runId) ?? undefined,
		);
		assert.deepEqual(
			view.files.map((f) => `${f.kind} ${f.path}`),
			[`modify ${file}`],
		);
		assert.equal(readFileSync(join(root, file), 'utf8'), changed('working'));
		// Reveal opens the file at the finding, its thread expanded.
		const single = listed.find((item) => item.single)!;
		await api.diffReview.reveal(single);
		assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), workspaceFile().toString());
		assert.equal(vscode.window.activeTextEditor?.selection.active.line, single.finding.line - 1);
		assert.equal(single.thread?.thread.collapsibleState, vscode.CommentThreadCollapsibleState.Expanded);
	});

	it('the staged changes: threads on a read-only new side (the index) when the file has changed since', async () => {
		writeFileSync(join(root, file), changed('staged'));
		git('add', file);
		// Unstaged edits on top: the workspace file is not the index's text.
		writeFileSync(join(root, file), `// an unstaged first line\n${changed('staged')}`);
		const { run, seen, listed } = await review({ id: 'index' });
		assert.equal(run.request.diffReview?.source, 'staged');
		for (const { protocol, text } of firstRequests(seen)) {
			assert.ok(text.includes('<attachment kind="diff" source="staged">'), `${protocol}: the staged diff`);
			assert.ok(text.includes('// staged'), `${protocol}: the staged line`);
			assert.ok(!text.includes('an unstaged first line'), `${protocol}: not the unstaged edit`);
		}
		const line2 = listed.find((item) => item.finding.line === 2)!;
		const uri = line2.side!.uri;
		assert.equal(uri.scheme, reviewScheme);
		assert.equal(uri.authority, 'new');
		checkThreads(listed, uri);
		assert.equal((await vscode.workspace.openTextDocument(uri)).getText(), changed('staged'));
		// Reveal opens the index against HEAD as a diff, the finding's line on its new side.
		await api.diffReview.reveal(line2);
		const left = line2.side!.diff!.left;
		assert.equal((await vscode.workspace.openTextDocument(left)).getText(), base);
		await until(
			'the diff editor of the new side',
			() =>
				vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff &&
				(
					vscode.window.tabGroups.activeTabGroup.activeTab.input as vscode.TabInputTextDiff
				).modified.toString() === uri.toString(),
		);
		git('reset', '-q', '--hard');
	});

	it('a branch range main..HEAD: threads on the workspace file when it is the new side’s text', async () => {
		writeFileSync(join(root, file), changed('range'));
		git('commit', '-qam', 'the loop');
		const { run, seen, listed } = await review('main..HEAD');
		assert.equal(run.request.diffReview?.source, 'main..HEAD');
		for (const { protocol, text } of firstRequests(seen)) {
			assert.ok(text.includes('<attachment kind="diff" source="main..HEAD">'), `${protocol}: the range`);
			assert.ok(text.includes('// range'), `${protocol}: the committed line`);
		}
		checkThreads(listed, workspaceFile());
	});

	it('the pull request with GitHub Pull Requests absent: the picker says so, and the branch since main is reviewed from git', async () => {
		assert.equal(vscode.extensions.getExtension(pullRequestExtensionId), undefined, 'not installed here');
		const items = await diffSourceItems(vscode.Uri.file(root), await openGitRepo(root));
		const pr = items.find((item) => item.choice === 'pull-request');
		assert.equal(pr?.label, '$(git-pull-request) Pull Request (from git)');
		assert.match(
			pr?.detail ?? '',
			/GitHub Pull Requests extension is not installed: reviews this branch since main \(merge base\) with git/,
		);
		assert.equal(items.find((item) => item.choice === 'range')?.description, 'main..HEAD');
		// main moves on after the branch left it: the pull request's diff is from the merge base.
		const mergeBase = git('rev-parse', 'main');
		git('checkout', '-q', 'main');
		writeFileSync(join(root, `${dir}/other.ts`), 'export const onMain = 1;\n');
		git('add', `${dir}/other.ts`);
		git('commit', '-qm', 'on main');
		git('checkout', '-q', 'feature');
		const { run, seen } = await review('pull-request');
		assert.deepEqual(run.request.diffReview, {
			source: `${mergeBase}..HEAD`,
			label: 'this branch since main',
			files: [file],
		});
		for (const { protocol, text } of firstRequests(seen)) {
			assert.ok(text.includes('// range'), `${protocol}: the branch's change`);
			assert.ok(!text.includes('onMain'), `${protocol}: not main's later change`);
		}
	});

	it('nothing to review starts no run', async () => {
		const seen = requestCounts();
		const run = await vscode.commands.executeCommand<FinishedRun | undefined>(
			commandIds.reviewGitChanges,
			'staged',
		);
		assert.equal(run, undefined);
		assert.deepEqual(requestCounts(), seen);
	});
});
