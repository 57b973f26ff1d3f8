import { describe, expect, it } from 'vitest';
import type { ChangeSetView, HunkView } from '../../../../src/protocol/changeSetView.js';
import { placeThreads, withComments } from '../../../../src/vscode/reviewLoop/hunkComments.js';
import { revisionPlan } from '../../../../src/vscode/reviewLoop/revisionRequest.js';
import {
	maxThreadsPerRun,
	type TeamThread,
	threadText,
} from '../../../../src/vscode/reviewLoop/teamThread.js';

const text = (...lines: string[]) => lines.map((line) => `${line}\n`).join('');

function thread(
	id: string,
	path: string,
	line: number,
	endLine: number,
	words: string[],
	extra: Partial<TeamThread> = {},
): TeamThread {
	return {
		id,
		runId: 'run-1',
		path,
		range: { line, endLine },
		anchoredText: text('a', 'b', 'c', 'd', 'e', 'f'),
		comments: words,
		resolved: false,
		...extra,
	};
}

function hunk(id: string, newStart: number, newLines: number): HunkView {
	return {
		id,
		oldStart: newStart,
		oldLines: 1,
		newStart,
		newLines,
		lines: [],
		truncated: 0,
		selected: true,
		agents: ['a'],
		sources: ['agent1.final'],
		replaces: [],
	};
}

describe('revisionPlan: what Send to Team asks of the core', () => {
	const files = [
		{ path: 'src/a.ts', content: text('a', 'b', 'c', 'd', 'e', 'f') },
		{ path: 'src/gone.ts', content: null },
	];

	it('sends every open thread on a proposal file with its anchor, words and id; leaves out the others', () => {
		const plan = revisionPlan('run-1', files, [
			thread('t1', 'src/a.ts', 2, 3, ['rename this', ' and test it ']),
			thread('t2', 'src/gone.ts', 1, 1, ['keep the file']),
			thread('t3', 'README.md', 1, 1, ['not in the proposal']),
		]);
		expect(plan.revision).toEqual({
			fromRunId: 'run-1',
			files,
			comments: [
				{ id: 't1', path: 'src/a.ts', line: 2, endLine: 3, text: 'rename this\n\nand test it' },
				{ id: 't2', path: 'src/gone.ts', line: 1, endLine: 1, text: 'keep the file' },
			],
		});
		expect(plan.left.map((t) => t.id)).toEqual(['t3']);
	});

	it("maps a thread's lines onto the text sent when it differs from the text the reviewer saw", () => {
		// The user's own edit of the file on disk (two lines above) is merged into what is sent.
		const sentText = text('x', 'y', 'a', 'b', 'c', 'd', 'e', 'f');
		const plan = revisionPlan(
			'run-1',
			[{ path: 'src/a.ts', content: sentText }],
			[thread('t1', 'src/a.ts', 2, 3, ['rename b and c'])],
		);
		expect(plan.revision.comments).toEqual([
			{ id: 't1', path: 'src/a.ts', line: 4, endLine: 5, text: 'rename b and c' },
		]);
	});

	it('never sends more comments than the core takes, and caps each text', () => {
		const many = Array.from({ length: maxThreadsPerRun + 5 }, (_, i) =>
			thread(`t${i}`, 'src/a.ts', 1, 1, ['x']),
		);
		expect(revisionPlan('run-1', files, many).revision.comments).toHaveLength(maxThreadsPerRun);
		expect(threadText({ comments: ['y'.repeat(5000)] })).toHaveLength(4000);
	});
});

describe('withComments: the panel view marks which comments each hunk has, and what a revision made of them', () => {
	const view: ChangeSetView = {
		runId: 'run-2',
		winner: null,
		agentCount: 3,
		files: [
			{
				path: 'src/a.ts',
				kind: 'modify',
				renamedFrom: null,
				added: 2,
				removed: 2,
				userEdit: 'none',
				hunks: [hunk('final#0', 2, 1), hunk('final#1', 5, 1)],
				alternatives: [],
			},
		],
	};
	const final = text('a', 'b', 'c', 'd', 'e', 'f');

	it('puts each thread on the hunk its lines overlap, with its verdict, and counts the open ones', () => {
		const threads = [
			thread('t1', 'src/a.ts', 2, 2, ['one'], {
				resolved: true,
				outcome: { commentId: 'c1', addressed: true, fromRunId: 'run-1' },
			}),
			thread('t2', 'src/a.ts', 5, 5, ['two'], {
				outcome: { commentId: 'c2', addressed: false, fromRunId: 'run-1' },
			}),
		];
		const shown = withComments(
			view,
			placeThreads(threads, () => final),
		);
		expect(shown.openComments).toBe(1);
		expect(shown.files[0]!.hunks[0]!.comments).toEqual([
			{ id: 't1', text: 'one', state: 'resolved', commentId: 'c1', addressed: true },
		]);
		expect(shown.files[0]!.hunks[1]!.comments).toEqual([
			{ id: 't2', text: 'two', state: 'open', commentId: 'c2', addressed: false },
		]);
	});

	it('places a thread through the proposed text when hunks are unticked (its lines differ from the winner’s)', () => {
		// Proposed lacks the winner's line 2 ('b'): the thread on proposed line 4 ('e') is on winner line 5.
		const proposed = text('a', 'c', 'd', 'e', 'f');
		const placed = placeThreads(
			[thread('t1', 'src/a.ts', 4, 4, ['here'], { anchoredText: proposed })],
			() => final,
		);
		expect(placed[0]!.now).toEqual({ line: 5, endLine: 5 });
		const shown = withComments(view, placed);
		expect(shown.files[0]!.hunks[1]!.comments?.map((c) => c.id)).toEqual(['t1']);
		expect(shown.files[0]!.hunks[0]!.comments).toBeUndefined();
	});

	it('leaves a thread of a file the set does not hold unplaced', () => {
		expect(placeThreads([thread('t1', 'other.ts', 1, 1, ['x'])], () => undefined)[0]!.now).toBeNull();
	});
});
