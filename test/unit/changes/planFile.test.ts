import { describe, expect, it } from 'vitest';
import { buildReviewChangeSet, targetOf } from '../../../src/core/changes/changeSet.js';
import { planFile } from '../../../src/core/changes/planFile.js';
import { sha256 } from '../../../src/core/workspace/sha256.js';
import type { FileChange } from '../../../src/contract/fileChange.js';

const lines = (...items: string[]) => items.map((item) => `${item}\n`).join('');
const base = lines('alpha', 'beta', 'gamma', 'delta', 'epsilon');
const final = base.replace('beta', 'BETA');

function plan(change: FileChange, current: string | null, selected = ['final#0']) {
	const set = buildReviewChangeSet({
		runId: 'r',
		winner: { agentId: 'w', label: 'agent1.final' },
		changes: [change],
	});
	const file = set.files[0]!;
	return planFile(file, targetOf(file, new Set(selected)), current, sha256, {
		ours: 'Yours',
		theirs: 'MassGen',
	});
}

const modify: FileChange = { path: 'a.txt', kind: 'modify', baseHash: sha256(base), base, content: final };

describe('planFile: the base-hash check', () => {
	it('applies when the current text is the base the agents read', () => {
		expect(plan(modify, base)).toEqual({
			path: 'a.txt',
			outcome: 'apply',
			op: { kind: 'write', text: final, create: false },
		});
	});

	it('skips a file with nothing selected and one that already is the target', () => {
		expect(plan(modify, base, [])).toEqual({ path: 'a.txt', outcome: 'skip' });
		expect(plan(modify, final)).toEqual({ path: 'a.txt', outcome: 'already' });
	});

	it('merges automatically when the user changed other lines', () => {
		const current = base.replace('epsilon', 'EPSILON');
		expect(plan(modify, current)).toEqual({
			path: 'a.txt',
			outcome: 'merged',
			op: { kind: 'write', text: final.replace('epsilon', 'EPSILON'), create: false },
		});
	});

	it('reports an overlap as a conflict whose resolution carries conflict markers', () => {
		const result = plan(modify, base.replace('beta', 'bravo'));
		expect(result).toMatchObject({ outcome: 'conflict', reason: 'overlap', conflicts: 1 });
		expect(
			result.outcome === 'conflict' && result.resolution?.kind === 'write' && result.resolution.text,
		).toBe(
			lines(
				'alpha',
				'<<<<<<< Yours',
				'bravo',
				'=======',
				'BETA',
				'>>>>>>> MassGen',
				'gamma',
				'delta',
				'epsilon',
			),
		);
	});

	it('a file deleted since the run is a conflict whose resolution recreates it', () => {
		expect(plan(modify, null)).toEqual({
			path: 'a.txt',
			outcome: 'conflict',
			reason: 'deleted',
			resolution: { kind: 'write', text: final, create: true },
			conflicts: 1,
		});
	});
});

describe('planFile: adds and deletes', () => {
	const add: FileChange = {
		path: 'new/dir/b.txt',
		kind: 'add',
		baseHash: null,
		base: null,
		content: 'new\n',
	};
	const del: FileChange = { path: 'a.txt', kind: 'delete', baseHash: sha256(base), base, content: null };

	it('creates an added file that does not exist yet', () => {
		expect(plan(add, null)).toEqual({
			path: 'new/dir/b.txt',
			outcome: 'apply',
			op: { kind: 'write', text: 'new\n', create: true },
		});
	});

	it('an added file that appeared meanwhile is a conflict (or already done when equal)', () => {
		expect(plan(add, 'other\n')).toMatchObject({ outcome: 'conflict', reason: 'exists' });
		expect(plan(add, 'new\n')).toEqual({ path: 'new/dir/b.txt', outcome: 'already' });
	});

	it('deletes an unchanged file; a changed one is a conflict that keeps the file; a gone one is done', () => {
		expect(plan(del, base)).toEqual({ path: 'a.txt', outcome: 'apply', op: { kind: 'delete' } });
		expect(plan(del, base + 'x\n')).toEqual({
			path: 'a.txt',
			outcome: 'conflict',
			reason: 'modified',
			resolution: null,
			conflicts: 1,
		});
		expect(plan(del, null)).toEqual({ path: 'a.txt', outcome: 'already' });
	});
});
