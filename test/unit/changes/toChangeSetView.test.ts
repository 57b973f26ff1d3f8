import { describe, expect, it } from 'vitest';
import { buildReviewChangeSet } from '../../../src/core/changes/changeSet.js';
import { sha256 } from '../../../src/core/workspace/sha256.js';
import { MAX_HUNK_LINES } from '../../../src/protocol/changeSetView.js';
import { toChangeSetView } from '../../../src/vscode/changes/toChangeSetView.js';

const base = 'a\nb\nc\nd\ne\n';
const winner = base.replace('b\n', 'B\n').replace('e\n', 'e\nf\n');
const answers = [
	{
		agentId: 'alice',
		label: 'agent1.2',
		changes: [{ path: 'x.txt', kind: 'modify' as const, baseHash: sha256(base), base, content: winner }],
	},
	{
		agentId: 'bob',
		label: 'agent2.1',
		changes: [
			{
				path: 'x.txt',
				kind: 'modify' as const,
				baseHash: sha256(base),
				base,
				content: base.replace('b\n', 'B\n'),
			},
		],
	},
	{
		agentId: 'carol',
		label: 'agent3.1',
		changes: [
			{
				path: 'x.txt',
				kind: 'modify' as const,
				baseHash: sha256(base),
				base,
				content: base.replace('d\n', 'D\n'),
			},
		],
	},
];
const set = buildReviewChangeSet({
	runId: '20250102-030405-ab12',
	winner: { agentId: 'alice', label: 'agent1.2' },
	changes: [
		{ path: 'x.txt', kind: 'modify', baseHash: sha256(base), base, content: winner },
		{
			path: 'big.txt',
			kind: 'add',
			baseHash: null,
			base: null,
			content: 'line\n'.repeat(MAX_HUNK_LINES + 5),
		},
	],
	answers,
});

describe('toChangeSetView', () => {
	it('gives 1-based hunks with diff lines, agents, sources, selection and +/- counts of the selection', () => {
		const view = toChangeSetView({
			set,
			files: set.files,
			answers,
			selected: (path) => new Set(path === 'x.txt' ? ['final#0', 'alt#0'] : ['final#0']),
			userEdit: (path) => (path === 'x.txt' ? 'conflict' : 'none'),
		});
		expect(view).toMatchObject({
			runId: '20250102-030405-ab12',
			winner: { agentId: 'alice', label: 'agent1.2' },
			agentCount: 3,
		});
		const [x] = view.files;
		expect(x).toMatchObject({
			path: 'x.txt',
			kind: 'modify',
			userEdit: 'conflict',
			added: 2,
			removed: 2,
			renamedFrom: null,
		});
		expect(x!.hunks).toEqual([
			{
				id: 'final#0',
				oldStart: 2,
				oldLines: 1,
				newStart: 2,
				newLines: 1,
				lines: ['-b', '+B'],
				truncated: 0,
				selected: true,
				agents: ['alice', 'bob'],
				sources: ['agent1.2', 'agent2.1'],
				replaces: [],
			},
			{
				id: 'final#1',
				oldStart: 6,
				oldLines: 0,
				newStart: 6,
				newLines: 1,
				lines: ['+f'],
				truncated: 0,
				selected: false,
				agents: ['alice'],
				sources: ['agent1.2'],
				replaces: [],
			},
		]);
		expect(x!.alternatives).toEqual([
			{
				id: 'alt#0',
				oldStart: 4,
				oldLines: 1,
				newStart: 4,
				newLines: 1,
				lines: ['-d', '+D'],
				truncated: 0,
				selected: true,
				agents: ['carol'],
				sources: ['agent3.1'],
				replaces: [],
			},
		]);
	});

	it('caps the lines of a long hunk and says how many were left out', () => {
		const view = toChangeSetView({
			set,
			files: set.files,
			answers,
			selected: () => new Set(['final#0']),
			userEdit: () => 'none',
		});
		const big = view.files[1]!.hunks[0]!;
		expect(big.lines).toHaveLength(MAX_HUNK_LINES);
		expect(big.truncated).toBe(5);
		expect(view.files[1]!.added).toBe(MAX_HUNK_LINES + 5);
	});

	it('is plain JSON', () => {
		const view = toChangeSetView({
			set,
			files: set.files,
			answers,
			selected: () => new Set(),
			userEdit: () => 'none',
		});
		expect(JSON.parse(JSON.stringify(view))).toEqual(view);
	});
});
