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
