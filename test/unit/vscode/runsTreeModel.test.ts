import { describe, expect, it } from 'vitest';
import type { SessionLine, TurnSummary } from '../../../src/core/sessions/sessionTypes.js';
import {
	describeFilter,
	isFiltering,
	matchesFilter,
	noFilter,
} from '../../../src/vscode/pastRuns/runsFilter.js';
import {
	buildRunsTree,
	childrenOf,
	formatCost,
	lookOf,
	relativeTime,
	type SessionNode,
	type TurnNode,
} from '../../../src/vscode/pastRuns/runsTreeModel.js';
import {
	type ActiveRunLine,
	type EndedRunLine,
	endedRowMs,
	type LiveInputs,
	liveGroupDescription,
	liveLook,
	liveRunRows,
	needsUserCount,
	stateText,
} from '../../../src/vscode/pastRuns/liveRunRows.js';

const now = new Date('2026-12-01T12:00:00Z');

function turn(runId: string, minutesAgo: number, extra: Partial<TurnSummary> = {}): TurnSummary {
	return {
		runId,
		sessionId: runId,
		parentRunId: null,
		question: `Question of ${runId}`,
		status: 'completed',
		winner: { agentId: 'alice', label: 'agent1.1' },
		costUsd: 0.0042,
		startedAt: new Date(now.getTime() - minutesAgo * 60_000).toISOString(),
		finalAnswer: `Answer of ${runId}`,
		changes: 'none',
		madeHere: true,
		...extra,
	};
}

// Two turns of one session and a fork from its first turn (as readSessions returns them: newest activity first).
const t1 = turn('t1', 120);
const t2 = turn('t2', 60, { sessionId: 't1', parentRunId: 't1', changes: 'pending', costUsd: 1.5, files: 2 });
const fork = turn('f1', 5, { parentRunId: 't1', status: 'failed', winner: null, costUsd: null });
const main: SessionLine = { id: 't1', forkedFrom: null, turns: [t1, t2] };
const forked: SessionLine = { id: 'f1', forkedFrom: 't1', turns: [fork] };
const folder = { name: 'app', root: '/ws/app', sessions: [forked, main] };

describe('buildRunsTree', () => {
	it('one folder: sessions at the top, newest activity first, each with its turns oldest first', () => {
		const top = buildRunsTree([folder], noFilter, () => false);
		expect(top.map((n) => n.kind)).toEqual(['session', 'session']);
		const [first, second] = top as SessionNode[];
		expect(first!.session.id).toBe('f1');
		expect(childrenOf(second, top).map((n) => (n as TurnNode).turn.runId)).toEqual(['t1', 't2']);
		expect((childrenOf(second, top) as TurnNode[]).map((n) => n.isLast)).toEqual([false, true]);
		expect(childrenOf(childrenOf(second, top)[0], top)).toEqual([]);
	});

	it('several folders: one node per folder that has runs, sessions below', () => {
		const other = {
			name: 'lib',
			root: '/ws/lib',
			sessions: [{ id: 'x', forkedFrom: null, turns: [turn('x', 1)] }],
		};
		const empty = { name: 'docs', root: '/ws/docs', sessions: [] };
		const top = buildRunsTree([folder, other, empty], noFilter, () => false);
		expect(top.map((n) => (n.kind === 'folder' ? n.name : n.kind))).toEqual(['app', 'lib']);
		expect(childrenOf(top[1], top).map((n) => n.id)).toEqual(['/ws/lib#session:x']);
	});

	it('the filter keeps sessions with a matching turn, showing only those turns', () => {
		const failed = buildRunsTree([folder], { statuses: ['failed'], text: '' }, () => false);
		expect(failed.map((n) => n.id)).toEqual(['/ws/app#session:f1']);
		const text = buildRunsTree([folder], { statuses: [], text: 'answer of T2' }, () => false);
		expect(text.map((n) => n.id)).toEqual(['/ws/app#session:t1']);
		expect(childrenOf(text[0], text).map((n) => (n as TurnNode).turn.runId)).toEqual(['t2']);
		expect(buildRunsTree([folder], { statuses: ['timeout'], text: '' }, () => false)).toEqual([]);
	});
});

describe('lookOf', () => {
	const top = buildRunsTree([folder], noFilter, (id) => id === 't1');
	const [forkNode, mainNode] = top as SessionNode[];
	const [first, second] = mainNode!.children;

	it('a turn: status icon, question, winner, files, outcome, relative time; cost and full date in the tooltip', () => {
		const look = lookOf(second!, now);
		expect(look.label).toBe('Question of t2');
		expect(look.description).toBe('alice · 2 files · changes pending · 1h ago');
		expect(look.tooltip).toContain('Cost: $1.50');
		expect(look.icon).toBe('pass-filled');
		expect(look.tooltip).toContain(`Started ${new Date(t2.startedAt).toLocaleString()}`);
		expect(look.tooltip).toContain('Changes: pending');
		expect(look.contextValue).toBe('turn last changes-pending');
		expect(lookOf(first!, now).contextValue).toBe('turn');
		const accepted = buildRunsTree(
			[{ ...folder, sessions: [{ ...main, turns: [{ ...t1, changes: 'partly-accepted' }] }] }],
			noFilter,
			() => false,
		);
		const acceptedLook = lookOf(childrenOf(accepted[0], accepted)[0]!, now);
		expect(acceptedLook.description).toMatch(/· partly accepted · 2h ago$/);
		expect(acceptedLook.contextValue).toBe('turn last changes-partly-accepted');
		const failed = lookOf(forkNode!.children[0]!, now);
		expect(failed.icon).toBe('error');
		expect(failed.description).toBe('5m ago');
		expect(failed.tooltip).toContain('No winner · Cost: no price');
	});

	it('a session: first question, turn count, pins and forks in icon and context value', () => {
		const pinned = lookOf(mainNode!, now, 'f1');
		expect(pinned.label).toBe('Question of t1');
		expect(pinned.description).toBe('2 turns · 1h ago · pinned');
		expect(pinned.icon).toBe('pinned');
		expect(pinned.contextValue).toBe('session pinned');
		expect(pinned.collapsed).toBe('collapsed');
		const forkLook = lookOf(forkNode!, now, 'f1');
		expect(forkLook.icon).toBe('repo-forked');
		expect(forkLook.contextValue).toBe('session unpinned');
		expect(forkLook.collapsed).toBe('expanded');
		expect(forkLook.tooltip).toContain('Forked from run `t1`');
	});

	it('a run not made on this machine: marked on its row and its session, no Revert Run (no change words)', () => {
		const planted = turn('p1', 1, { madeHere: false, changes: 'accepted' });
		const tree = buildRunsTree(
			[{ ...folder, sessions: [{ id: 'p1', forkedFrom: null, turns: [planted] }] }],
			noFilter,
			() => false,
		);
		const session = lookOf(tree[0]!, now);
		expect(session.description).toMatch(/^not made on this machine · /);
		expect(session.tooltip).toContain('Not made on this machine');
		const row = lookOf(childrenOf(tree[0], tree)[0]!, now);
		expect(row.description).toMatch(/^not made on this machine · /);
		expect(row.contextValue).toBe('turn foreign last');
		// Control: the same run made here offers Revert Run and carries no mark.
		const own = buildRunsTree(
			[{ ...folder, sessions: [{ id: 'p1', forkedFrom: null, turns: [{ ...planted, madeHere: true }] }] }],
			noFilter,
			() => false,
		);
		const ownRow = lookOf(childrenOf(own[0], own)[0]!, now);
		expect(ownRow.contextValue).toBe('turn last changes-accepted');
		expect(ownRow.description).not.toContain('not made');
	});
});

describe('formatting and filter', () => {
	it('relative time and cost', () => {
		expect(relativeTime(now.toISOString(), now)).toBe('just now');
		expect(relativeTime(new Date(now.getTime() - 3 * 86_400_000).toISOString(), now)).toBe('3d ago');
		expect(relativeTime('2026-01-02T00:00:00Z', now)).toBe('2026-01-02');
		expect([formatCost(null), formatCost(0), formatCost(0.0042), formatCost(2)]).toEqual([
			'',
			'$0',
			'$0.0042',
			'$2.00',
		]);
	});

	it('matches status and text (question, answer, run id, winner), and describes itself', () => {
		expect(matchesFilter(t2, { statuses: ['completed'], text: 'ALICE' })).toBe(true);
		expect(matchesFilter(t2, { statuses: ['failed'], text: '' })).toBe(false);
		expect(matchesFilter(t2, { statuses: [], text: 'nothing like it' })).toBe(false);
		expect(isFiltering(noFilter)).toBe(false);
		expect(describeFilter({ statuses: ['failed', 'timeout'], text: ' retry ' })).toBe(
			'failed, timeout · "retry"',
		);
	});
});

describe('live runs at the top', () => {
	const at = now.getTime();
	const active = (
		ticket: string,
		phase: ActiveRunLine['phase'],
		runId?: string,
		folder = 'app',
	): ActiveRunLine => ({
		ticket,
		runId,
		question: `Question of ${ticket}\nmore`,
		folder: { name: folder },
		phase,
	});
	const inputs = (extra: Partial<LiveInputs> = {}): LiveInputs => ({
		active: [],
		ended: [],
		approvals: () => 0,
		pendingChanges: new Set(),
		inHistory: new Set(),
		multiRoot: false,
		now: at,
		...extra,
	});

	it('two running (one asking for approval), two queued and one starting: rows in the controller’s order with their states and places', () => {
		const rows = liveRunRows(
			inputs({
				active: [
					active('run-1', 'running', 'r1'),
					active('run-2', 'running', 'r2'),
					active('run-4', 'queued'),
					active('run-3', 'queued'),
					active('run-5', 'starting'),
				],
				approvals: (runId) => (runId === 'r2' ? 2 : 0),
			}),
		);
		expect(rows.map((row) => [row.id, row.state, row.place, row.approvals])).toEqual([
			['live:run-1', 'working', undefined, 0],
			['live:run-2', 'approval', undefined, 2],
			['live:run-4', 'queued', { at: 1, of: 2 }, 0],
			['live:run-3', 'queued', { at: 2, of: 2 }, 0],
			['live:run-5', 'starting', undefined, 0],
		]);
		expect(rows.map((row) => stateText(row))).toEqual([
			'working',
			'needs approval (2)',
			'queued (1 of 2)',
			'queued (2 of 2)',
			'starting',
		]);
		const looks = rows.map(liveLook);
		expect(looks.map((look) => look.contextValue)).toEqual([
			'live working hasRun stoppable',
			'live approval hasRun stoppable',
			'live queued canDown',
			'live queued canUp',
			'live starting stoppable',
		]);
		expect(looks[0]!.label).toBe('Question of run-1');
		expect(looks[1]).toMatchObject({ icon: 'shield', description: 'needs approval (2)' });
		expect(looks[0]!.tooltip).toContain('Run `r1`');
		expect(liveGroupDescription(rows)).toBe('2 working · 1 needs approval · 2 queued');
	});

	it('in a multi-root workspace each row names its folder', () => {
		const [row] = liveRunRows(inputs({ active: [active('run-1', 'running', 'r1', 'api')], multiRoot: true }));
		expect(liveLook(row!).description).toBe('working · api');
		expect(liveRunRows(inputs({ active: [active('run-1', 'running', 'r1', 'api')] }))[0]!.folderName).toBe(
			undefined,
		);
	});

	it('ended runs: changes to review while pending; failed and cancelled until the history lists them (or after endedRowMs); a run that answered leaves at once', () => {
		const ended = (runId: string, how: EndedRunLine['ended'], msAgo = 0): EndedRunLine => ({
			ticket: `t-${runId}`,
			runId,
			question: runId,
			folder: { name: 'app' },
			ended: how,
			endedAt: at - msAgo,
		});
		const all = [
			ended('c1', 'changes'),
			ended('c2', 'changes'),
			ended('f1', 'failed'),
			ended('f2', 'failed'),
			ended('x1', 'cancelled', endedRowMs),
			ended('d1', 'done'),
		];
		const rows = liveRunRows(
			inputs({ ended: all, pendingChanges: new Set(['c1']), inHistory: new Set(['f2']) }),
		);
		expect(rows.map((row) => [row.id, row.state])).toEqual([
			['live:t-c1', 'changes'],
			['live:t-f1', 'failed'],
		]);
		expect(liveLook(rows[0]!)).toMatchObject({
			contextValue: 'live changes hasRun',
			description: 'changes to review',
		});
		expect(liveLook(rows[1]!).contextValue).toBe('live failed hasRun');
	});

	it('the tree: one expanded Running group above the sessions, only when there are live rows', () => {
		const rows = liveRunRows(inputs({ active: [active('run-1', 'running', 'r1')] }));
		const top = buildRunsTree([folder], noFilter, () => false, rows);
		expect(top.map((node) => node.kind)).toEqual(['live-group', 'session', 'session']);
		expect(childrenOf(top[0], top)).toEqual(rows);
		expect(childrenOf(rows[0], top)).toEqual([]);
		expect(lookOf(top[0]!, now)).toMatchObject({
			label: 'Running',
			description: '1 working',
			contextValue: 'live-group',
			collapsed: 'expanded',
		});
		expect(lookOf(rows[0]!, now)).toMatchObject({
			collapsed: 'none',
			contextValue: 'live working hasRun stoppable',
		});
		expect(buildRunsTree([folder], noFilter, () => false, []).map((node) => node.kind)).toEqual([
			'session',
			'session',
		]);
	});

	it('the badge counts runs that need the user: a run with approvals and a run with changes, once each', () => {
		expect(needsUserCount(['r1', 'r1', 'r2'], new Set(['r2', 'r3']))).toBe(3);
		expect(needsUserCount([], new Set())).toBe(0);
	});
});
