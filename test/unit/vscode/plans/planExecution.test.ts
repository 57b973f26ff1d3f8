import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventEmitter } from 'vscode';
import type { FileChange } from '../../../../src/contract/fileChange.js';
import type { RunResult } from '../../../../src/contract/runResult.js';
import { recordFile } from '../../../../src/core/changes/acceptRecord.js';
import { appendChangeLog } from '../../../../src/core/runStore/changeLog.js';
import { RunLogWriter } from '../../../../src/core/runStore/runLog.js';
import type { TurnSummary } from '../../../../src/core/sessions/sessionTypes.js';
import { isPlanProgressView, type PlanProgressView } from '../../../../src/protocol/planProgress.js';
import { noFilter } from '../../../../src/vscode/pastRuns/runsFilter.js';
import { buildRunsTree, lookOf, type SessionNode } from '../../../../src/vscode/pastRuns/runsTreeModel.js';
import type { PlanDocument, PlanStep } from '../../../../src/core/plans/planDocument.js';
import { lastPlanRun } from '../../../../src/core/plans/planRequests.js';
import { planRunName } from '../../../../src/vscode/plans/planRunName.js';
import { changedSpan } from '../../../../src/vscode/plans/planText.js';
import { stepDecision } from '../../../../src/vscode/plans/stepDecision.js';
import type { ChangeSetChange } from '../../../../src/vscode/run/runTypes.js';
import { settle } from '../../../support/settle.js';
import { makeWorkspaceDir } from '../../../support/tempTree.js';

describe('changedSpan: a mark is applied to an open plan as an edit of only what changed', () => {
	it('replaces just the differing span, keeping the rest of the buffer (the user unsaved text) as it is', () => {
		const before = '# Plan\n\n- [ ] **One**\n  my unsaved note\n- [ ] **Two**\n';
		const after = '# Plan\n\n- [x] **One**\n  my unsaved note\n  - Run: r1\n- [ ] **Two**\n';
		const span = changedSpan(before, after);
		expect(before.slice(0, span.start) + span.insert + before.slice(span.end)).toBe(after);
		expect(span.start).toBe(before.indexOf('[ ]') + 1);
		expect(before.slice(span.end)).toBe('\n- [ ] **Two**\n');
	});

	it('is empty for equal texts and whole for texts with nothing in common', () => {
		expect(changedSpan('same', 'same')).toEqual({ start: 4, end: 4, insert: '' });
		expect(changedSpan('abc', 'xyz')).toEqual({ start: 0, end: 3, insert: 'xyz' });
	});
});

describe('isPlanProgressView: the webview takes only a well-formed plan progress', () => {
	const view: PlanProgressView = {
		planId: 'p',
		title: 'Add a flag',
		current: 2,
		steps: [
			{ index: 1, title: 'Parse', state: 'done' },
			{ index: 2, title: 'Print', state: 'review' },
		],
		runIds: ['r1', 'r2'],
		allAtOnce: false,
	};

	it('accepts a progress view and refuses broken ones', () => {
		expect(isPlanProgressView(view)).toBe(true);
		expect(isPlanProgressView({ ...view, steps: [{ index: 1, title: 'x', state: 'exploded' }] })).toBe(false);
		expect(isPlanProgressView({ ...view, runIds: [1] })).toBe(false);
		expect(isPlanProgressView({ ...view, current: '2' })).toBe(false);
		expect(isPlanProgressView({ ...view, steps: Array(201).fill(view.steps[0]) })).toBe(false);
		expect(isPlanProgressView(null)).toBe(false);
	});
});

describe('the Runs view names a plan run by its part in the plan and offers Execute Plan on it', () => {
	const base: TurnSummary = {
		runId: 'r1',
		sessionId: 'p1',
		parentRunId: 'p1',
		question: 'Carry out step 2 of the plan .massgen/plans/p1.md: Print the lines',
		status: 'completed',
		winner: null,
		costUsd: null,
		startedAt: '2026-12-01T11:00:00Z',
		finalAnswer: null,
		changes: 'accepted',
		files: 1,
		madeHere: true,
	};

	it('labels planning, step and all-steps runs, and only a plan run gets the plan word', () => {
		expect(planRunName({ kind: 'planning', planId: 'p1', depth: 'medium', task: 'Add a flag\nmore' })).toBe(
			'Plan: Add a flag',
		);
		expect(planRunName({ kind: 'all', planId: 'p1', of: 5 })).toBe('Plan, all 5 steps');
		const step = { ...base, plan: { kind: 'step' as const, planId: 'p1', step: 2, of: 5, title: 'Print' } };
		const plain = { ...base, runId: 'r2' };
		const top = buildRunsTree(
			[{ name: 'ws', root: '/ws', sessions: [{ id: 'p1', forkedFrom: null, turns: [step, plain] }] }],
			noFilter,
			() => false,
		);
		const [stepNode, plainNode] = (top[0] as SessionNode).children;
		const now = new Date('2026-12-01T12:00:00Z');
		const stepLook = lookOf(stepNode!, now);
		expect(stepLook.label).toBe('Plan step 2 of 5: Print');
		expect(stepLook.contextValue.split(' ')).toContain('plan');
		expect(stepLook.contextValue.split(' ')).toContain('changes-accepted');
		const plainLook = lookOf(plainNode!, now);
		expect(plainLook.label).toBe(base.question);
		expect(plainLook.contextValue.split(' ')).not.toContain('plan');
		// The session is named by its first turn: a plan's session by the plan's words.
		expect(lookOf(top[0]!, now).label).toBe('Plan step 2 of 5: Print');
	});
});

describe("stepDecision: what the user made of a step's change set, from the run's record", () => {
	const change: FileChange = { path: 'a.ts', kind: 'add', baseHash: null, base: null, content: 'x\n' };

	async function run(root: string, runId: string): Promise<void> {
		const result: RunResult = {
			runId,
			question: 'step',
			status: 'completed',
			winner: { agentId: 'alice', label: 'agent1.1' },
			answers: [],
			votes: [],
			finalAnswer: 'done',
			changes: [change],
			usage: [],
			durationMs: 1,
		};
		const log = await RunLogWriter.create(root, runId);
		await log.finish({ result, configYaml: '', patch: '' });
		await log.close();
	}

	const runDir = (root: string, runId: string) => join(root, '.massgen', 'runs', runId);
	const accept = (root: string, runId: string) =>
		appendChangeLog(runDir(root, runId), {
			kind: 'accept',
			by: 'editor',
			partial: false,
			files: [recordFile('a.ts', null, 'x\n')],
		});
	const R1 = '20261201-100000-aaaa';
	const R2 = '20261201-100100-aaab';

	it('waits while the set is pending (a selection change is no decision), then reads the accept', async () => {
		const root = await makeWorkspaceDir();
		await run(root, R1);
		const changes = new EventEmitter<ChangeSetChange>();
		let decided: unknown;
		const waiting = stepDecision({ onDidChangeChangeSet: changes.event }, root, R1).then(
			(d) => (decided = d),
		);
		await settle();
		changes.fire({ runId: R1, changeSet: { runId: R1 } as never });
		changes.fire({ runId: R2, changeSet: null });
		await settle();
		expect(decided).toBeUndefined();
		await accept(root, R1);
		changes.fire({ runId: R1, changeSet: null });
		await waiting;
		expect(decided).toEqual({ runId: R1, outcome: 'accepted' });
	});

	it('a reject stops the step; a decision recorded before the wait is read at once', async () => {
		const root = await makeWorkspaceDir();
		await run(root, R1);
		await appendChangeLog(runDir(root, R1), { kind: 'reject', by: 'editor', paths: ['a.ts'] });
		expect(
			await stepDecision({ onDidChangeChangeSet: new EventEmitter<ChangeSetChange>().event }, root, R1),
		).toEqual({
			runId: R1,
			outcome: 'rejected',
		});
	});

	it('follows a Send to Team revision that superseded the step to the revising run', async () => {
		const root = await makeWorkspaceDir();
		await run(root, R1);
		await run(root, R2);
		const changes = new EventEmitter<ChangeSetChange>();
		const waiting = stepDecision({ onDidChangeChangeSet: changes.event }, root, R1);
		await settle();
		await appendChangeLog(runDir(root, R1), { kind: 'supersede', by: 'editor', byRun: R2 });
		changes.fire({ runId: R1, changeSet: null });
		await settle();
		await accept(root, R2);
		changes.fire({ runId: R2, changeSet: null });
		expect(await waiting).toEqual({ runId: R2, outcome: 'accepted' });
	});

	it('nothing pending any more yet nothing recorded: undecided (the execution stops rather than guess)', async () => {
		const root = await makeWorkspaceDir();
		await run(root, R1);
		const changes = new EventEmitter<ChangeSetChange>();
		const waiting = stepDecision({ onDidChangeChangeSet: changes.event }, root, R1);
		await settle();
		changes.fire({ runId: R1, changeSet: null });
		expect(await waiting).toEqual({ runId: R1, outcome: 'undecided' });
	});
});

describe('lastPlanRun: the run a step follows, so the plan and its steps stay one session line', () => {
	const step = (index: number, runId: string | null, done = runId !== null): PlanStep => ({
		index,
		title: `Step ${index}`,
		agreement: null,
		body: '',
		done,
		runId,
		stopped: null,
		line: index * 3,
	});
	const doc = (...steps: PlanStep[]): PlanDocument => ({
		meta: { id: 'P', task: 't', depth: 'medium', run: 'P', created: '2026-12-01T00:00:00Z', agents: 2 },
		title: 't',
		steps,
		body: '',
	});

	it('the planning run first, then the last step before with a run, then the step itself once it stopped', () => {
		expect(lastPlanRun(doc(step(1, null), step(2, null)), 1)).toBe('P');
		expect(lastPlanRun(doc(step(1, 'R1'), step(2, null)), 2)).toBe('R1');
		expect(lastPlanRun(doc(step(1, 'R1'), step(2, 'R2', false), step(3, null)), 2)).toBe('R2');
		expect(lastPlanRun(doc(step(1, 'R1'), step(2, null), step(3, 'R3')), 2)).toBe('R1');
		expect(lastPlanRun(doc(step(1, 'R1'), step(2, 'R2'), step(3, null)), undefined)).toBe('R2');
	});
});
