// In-host: Execute Plan (docs/editor.md) on a loopback team (real SDKs against the loopback
// servers). A stored plan of two steps is opened and edited in the editor (unsaved); Execute Plan
// runs step 1 with the plan as the buffer holds it (the servers' logs), the user accepts step 1 in
// the change review: its file is written, its checkbox ticked in the buffer (the user's unsaved
// text kept), and step 2 starts as a follow-up of step 1 (one session). Rejecting step 2 stops
// the execution with the reason in the plan; nothing of step 2 is written. The user edits step 2
// and executes again: it continues at step 2 with the edit. Revert Run then undoes step 1 alone.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { stringify } from 'yaml';
import { renderPlanDocument } from '../../src/core/plans/planDocument';
import { savePlan } from '../../src/core/plans/planStore';
import type { RevertOutcome } from '../../src/vscode/changes/revertAccepted';
import { commandIds } from '../../src/vscode/common/commandIds';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { ExecutePlanStarted } from '../../src/vscode/plans/executePlan';
import type { RunsNode, SessionNode, TurnNode } from '../../src/vscode/pastRuns/runsTreeModel';
import type { FinishedRun } from '../../src/vscode/run/runTypes';
import type { PromptView } from '../servers/types';
import { startLoopbackTeam, type LoopbackTeam } from '../servers/loopbackTeam';
import {
	endRunAndConfig,
	nextFinish,
	rejectPendingChanges,
	snapshotFiles,
	until,
	useConfig,
	workspaceRoot,
} from './hostWaits';

const planId = '20261203-150102-ab12';
const one = 'plan-exec/one.ts';
const two = 'plan-exec/two.ts';
const oneText = 'export const one = 1;\n';
const twoFirst = 'export const two = 2;\n';
const twoSecond = 'export const two = 2; // second try\n';
const allAtOnce = 'plan-exec/all.ts';
const allText = 'export const both = [1, 2];\n';
const promptText = (prompt: PromptView) => [prompt.system, ...prompt.texts].join('\n');
/** The step the run carries out: the last one named (a follow-up's history names the earlier ones first). */
const stepOf = (prompt: PromptView) =>
	[...promptText(prompt).matchAll(/Carry out step (\d) of 2/g)].at(-1)?.[1];

describe('Execute Plan: step by step, each step reviewed, stop on reject, continue after an edit (loopback team)', function () {
	this.timeout(180_000);
	let api: MassGenApi;
	let team: LoopbackTeam;
	let dir: string;
	let planUri: vscode.Uri;
	const root = () => workspaceRoot();
	const disk = (path: string) => readFileSync(join(root(), path), 'utf8');
	const postsSince = (since: { responses: number; anthropic: number }) =>
		(['responses', 'anthropic'] as const).flatMap((protocol) =>
			team.servers[protocol].requests.slice(since[protocol]).filter((request) => request.method === 'POST'),
		);
	const mark = () => ({
		responses: team.servers.responses.requests.length,
		anthropic: team.servers.anthropic.requests.length,
	});
	const execute = async () => {
		const started = await vscode.commands.executeCommand<ExecutePlanStarted | undefined>(
			commandIds.executePlan,
			{ uri: planUri, mode: 'steps' },
		);
		assert.ok(started, 'Execute Plan started');
		return started;
	};
	const sessionOf = (run: FinishedRun) =>
		(
			JSON.parse(readFileSync(join(run.runDir, 'result.json'), 'utf8')) as {
				session?: { id: string; parentRunId: string | null };
			}
		).session;
	const planDoc = () =>
		vscode.workspace.textDocuments.find((doc) => doc.uri.toString() === planUri.toString());

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		api = await extension.activate();
		await rejectPendingChanges(api);
		team = await startLoopbackTeam({
			auto: {
				answer: (prompt) => `Step ${stepOf(prompt) ?? '?'} carried out.`,
				presentationWrites: (prompt) => {
					if (promptText(prompt).includes('Carry out the plan attached above')) {
						return [{ path: allAtOnce, content: allText }];
					}
					const step = stepOf(prompt);
					if (step === '1') return [{ path: one, content: oneText }];
					if (step === '2') {
						return [{ path: two, content: promptText(prompt).includes('second try') ? twoSecond : twoFirst }];
					}
					return [];
				},
			},
		});
		dir = mkdtempSync(join(tmpdir(), 'massgen-execute-plan-'));
		writeFileSync(join(dir, 'team.yaml'), stringify({ agents: team.agents.slice(0, 2) }));
		await useConfig(join(dir, 'team.yaml'));
		planUri = vscode.Uri.file(await savePlan(root(), planId, planText(planId)));
	});

	const planText = (id: string) =>
		renderPlanDocument(
			{
				id,
				task: 'Add two constants',
				depth: 'medium',
				run: id,
				created: '2026-12-03T15:01:02.000Z',
				agents: 2,
			},
			{
				title: 'Add two constants',
				of: 2,
				others: [],
				steps: [
					{
						title: 'Write one.ts',
						files: [one],
						risk: 'low',
						riskNote: 'a new file',
						verify: 'read it',
						details: 'Export the constant one.',
						agents: ['openai_agent', 'claude_agent'],
					},
					{
						title: 'Write two.ts',
						files: [two],
						risk: 'low',
						riskNote: 'a new file',
						verify: 'read it',
						details: 'Export the constant two.',
						agents: ['openai_agent'],
					},
				],
			},
		);

	after(async () => {
		await rejectPendingChanges(api);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		await endRunAndConfig(api);
		for (const path of ['plan-exec', '.massgen/plans']) {
			rmSync(join(root(), path), { recursive: true, force: true });
		}
		await team.close();
		rmSync(dir, { recursive: true, force: true });
	});

	let step1: FinishedRun;
	let step2: FinishedRun;

	/** The plan's progress once its steps are in `states` (the panel's view of the execution). */
	const inReview = (id: string, states: readonly string[]) =>
		until(`plan ${id}'s steps ${states.join(', ')}`, () => {
			const view = api.plans.views().find((candidate) => candidate.planId === id);
			return view && view.steps.map((step) => step.state).join() === states.join() ? view : undefined;
		});

	it('runs step 1 with the plan as the editor holds it (unsaved edit); accepting it writes the file, ticks the step and starts step 2 in the same session', async () => {
		const doc = await vscode.workspace.openTextDocument(planUri);
		await vscode.window.showTextDocument(doc);
		const edit = new vscode.WorkspaceEdit();
		const at = doc.getText().indexOf('Export the constant one.');
		assert.ok(at > 0, doc.getText());
		edit.insert(planUri, doc.positionAt(at), 'The user says: name it edited-by-user. ');
		assert.ok(await vscode.workspace.applyEdit(edit));
		assert.equal(doc.isDirty, true);

		const since = mark();
		const finished = nextFinish(api);
		await execute();
		step1 = await finished;
		assert.equal(step1.result.status, 'completed', JSON.stringify(step1.result.error ?? null));
		assert.deepEqual(step1.result.plan, {
			kind: 'step',
			planId,
			step: 1,
			of: 2,
			title: 'Write one.ts',
		});
		const asked = postsSince(since);
		assert.ok(asked.length >= 2, 'both agents were asked');
		for (const request of asked.slice(0, 2)) {
			const text = promptText(request.prompt);
			assert.match(text, /Carry out step 1 of 2 of the plan/);
			assert.ok(text.includes('edited-by-user'), 'the unsaved edit of the plan reached the team');
		}
		const runId = step1.result.runId;
		await until('step 1 pending review', () => api.changes.changeSet(runId) ?? undefined);
		// The change set is pending a moment before the execution learns its run ended: wait for both.
		const reviewing = await inReview(planId, ['review', 'todo']);
		assert.equal(reviewing.current, 1);
		assert.deepEqual(
			reviewing.steps.map((step) => step.state),
			['review', 'todo'],
		);
		assert.ok(!existsSync(join(root(), one)), 'nothing written before the accept');

		const next = nextFinish(api);
		await api.changes.accept({ runId });
		assert.equal(disk(one), oneText);
		step2 = await next;
		assert.deepEqual(step2.result.plan, { kind: 'step', planId, step: 2, of: 2, title: 'Write two.ts' });
		// Ticked in the buffer, with the user's unsaved text kept.
		const text = planDoc()!.getText();
		assert.match(text, /- \[x\] \*\*Write one\.ts\*\*/);
		assert.ok(text.includes(`- Run: ${runId}`));
		assert.ok(text.includes('edited-by-user'));
		// One session: step 2 follows step 1.
		assert.equal(sessionOf(step2)?.parentRunId, runId);
	});

	it('rejecting step 2 stops the execution with the reason in the plan; nothing of step 2 is written', async () => {
		const runId = step2.result.runId;
		await until('step 2 pending review', () => api.changes.changeSet(runId) ?? undefined);
		const before = snapshotFiles(root());
		const executing = await inReview(planId, ['done', 'review']);
		assert.deepEqual(
			executing?.steps.map((step) => step.state),
			['done', 'review'],
		);
		await api.changes.reject(runId);
		const text = await until('step 2 marked stopped', () => {
			const now = planDoc()?.getText() ?? '';
			return now.includes('> Stopped:') ? now : undefined;
		});
		assert.match(text, /- \[ \] \*\*Write two\.ts\*\*[^]*- Run: \S+[^]*> Stopped: its changes were rejected/);
		assert.ok(!existsSync(join(root(), two)), 'step 2 wrote nothing');
		const after = snapshotFiles(root());
		assert.deepEqual(after, before, 'no file of the workspace changed');
		const stopped = await until('the progress says stopped', () =>
			api.plans.views().find((view) => view.planId === planId && view.current === null),
		);
		assert.deepEqual(
			stopped.steps.map((step) => [step.state, step.note ?? '']),
			[
				['done', ''],
				['stopped', 'its changes were rejected'],
			],
		);
	});

	it('after an edit of step 2, Execute Plan continues at step 2 with the edit, and the plan completes', async () => {
		const doc = planDoc()!;
		const edit = new vscode.WorkspaceEdit();
		const at = doc.getText().indexOf('Export the constant two.');
		edit.insert(planUri, doc.positionAt(at), 'This is the second try. ');
		assert.ok(await vscode.workspace.applyEdit(edit));
		assert.ok(await doc.save());
		assert.match(disk(`.massgen/plans/${planId}.md`), /- \[x\] \*\*Write one\.ts\*\*/, 'saved with the tick');

		const since = mark();
		const finished = nextFinish(api);
		const started = await execute();
		const retry = await finished;
		assert.deepEqual(retry.result.plan, { kind: 'step', planId, step: 2, of: 2, title: 'Write two.ts' });
		const asked = postsSince(since);
		const text = promptText(asked[0]!.prompt);
		assert.equal(stepOf(asked[0]!.prompt), '2', 'step 1 is not run again');
		assert.ok(text.includes('second try'), 'the edited step reached the team');
		await until('the retry pending review', () => api.changes.changeSet(retry.result.runId) ?? undefined);
		await api.changes.accept({ runId: retry.result.runId });
		const end = await started.end;
		assert.deepEqual(end, { ended: 'complete', steps: 1 });
		assert.equal(disk(two), twoSecond);
		const plan = planDoc()!.getText();
		assert.match(plan, /- \[x\] \*\*Write two\.ts\*\*/);
		assert.ok(!plan.includes('> Stopped:'), 'the stop note is gone once the step ran again');
		// The plan's runs are one session line in the Runs view, named by their part in the plan.
		api.runsView.provider.refresh();
		const top = (await api.runsView.provider.getChildren()) as RunsNode[];
		const session = top.find(
			(node): node is SessionNode =>
				node.kind === 'session' && node.session.turns.some((turn) => turn.runId === step1.result.runId),
		);
		assert.ok(session, 'the session of step 1');
		const sessions = [step1, step2, retry].map((run) => JSON.stringify(sessionOf(run)));
		const turns = (await api.runsView.provider.getChildren(session)) as TurnNode[];
		assert.deepEqual(
			turns.map((turn) => turn.runId),
			[step1.result.runId, step2.result.runId, retry.result.runId],
			sessions.join(' '),
		);
		const labels = turns.map((turn) => String(api.runsView.provider.getTreeItem(turn).label));
		assert.deepEqual(labels, [
			'Plan step 1 of 2: Write one.ts',
			'Plan step 2 of 2: Write two.ts',
			'Plan step 2 of 2: Write two.ts',
		]);
	});

	it('Revert Run undoes one step: step 1 goes, step 2 stays', async () => {
		const outcome = (await vscode.commands.executeCommand(
			commandIds.revertRun,
			step1.result.runId,
		)) as RevertOutcome;
		assert.equal(outcome.status, 'reverted', JSON.stringify(outcome));
		await until('one.ts removed', () => !existsSync(join(root(), one)));
		assert.equal(disk(two), twoSecond, "step 2's file is as step 2 wrote it");
	});

	it('all steps as one run: one run carries every open step; accepting it ticks them all with its id', async () => {
		const id = '20261203-160000-cd34';
		const uri = vscode.Uri.file(await savePlan(root(), id, planText(id)));
		const finished = nextFinish(api);
		const started = await vscode.commands.executeCommand<ExecutePlanStarted | undefined>(
			commandIds.executePlan,
			{ uri, mode: 'all' },
		);
		assert.ok(started);
		const run = await finished;
		assert.deepEqual(run.result.plan, { kind: 'all', planId: id, of: 2 });
		await until('the run pending review', () => api.changes.changeSet(run.result.runId) ?? undefined);
		assert.equal((await inReview(id, ['review', 'todo'])).allAtOnce, true);
		await api.changes.accept({ runId: run.result.runId });
		assert.deepEqual(await started.end, { ended: 'complete', steps: 2 });
		assert.equal(disk(allAtOnce), allText);
		const plan = readFileSync(uri.fsPath, 'utf8');
		assert.match(plan, /- \[x\] \*\*Write one\.ts\*\*/);
		assert.match(plan, /- \[x\] \*\*Write two\.ts\*\*/);
		assert.equal(plan.split(`- Run: ${run.result.runId}`).length, 3, 'both steps name the run');
	});

	it('a file outside .massgen/plans is not a plan: refused, no run, the file untouched (whoever calls the command)', async () => {
		// A plan-shaped document elsewhere (a crafted link, another extension): Execute Plan would tick it.
		const elsewhere = join(root(), 'plan-exec', 'not-a-plan.md');
		writeFileSync(elsewhere, planText('20261203-161000-ef56'));
		const before = readFileSync(elsewhere, 'utf8');
		let started = 0;
		const listener = api.runs.onDidFinishRun(() => started++);
		try {
			const refused = await vscode.commands.executeCommand<ExecutePlanStarted | undefined>(
				commandIds.executePlan,
				{ uri: vscode.Uri.file(elsewhere), mode: 'steps' },
			);
			assert.equal(refused, undefined);
			assert.equal(api.runs.isRunning, false, 'no run started');
			assert.equal(started, 0);
			assert.equal(readFileSync(elsewhere, 'utf8'), before);
		} finally {
			listener.dispose();
		}
	});
});
