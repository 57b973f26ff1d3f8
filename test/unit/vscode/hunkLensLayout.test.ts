/**
 * Where a hunk's Accept or Reject lens goes in the proposed document (base + the selected hunks):
 * on the hunk's first line when it is in, where it would go when it is left out. Checked against
 * the proposed text itself, so a wrong shift fails.
 */
import { describe, expect, it } from 'vitest';
import { buildReviewChangeSet, targetOf } from '../../../src/core/changes/changeSet.js';
import { sha256 } from '../../../src/core/workspace/sha256.js';
import { hunkLensSpots } from '../../../src/vscode/changes/hunkLensLayout.js';

const lines = (...items: string[]) => items.map((item) => `${item}\n`).join('');
const base = lines('one', 'two', 'three', 'four', 'five', 'six');
// Hunk 0 inserts two lines before "one", hunk 1 replaces "three" by three lines, hunk 2 removes "five".
const team = lines('zero-a', 'zero-b', 'one', 'two', 'THREE-a', 'THREE-b', 'THREE-c', 'four', 'six');

function file() {
	const set = buildReviewChangeSet({
		runId: 'r1',
		winner: { agentId: 'w', label: 'agent1.final' },
		changes: [{ path: 'a.txt', kind: 'modify', baseHash: sha256(base), base, content: team }],
	});
	return set.files[0]!;
}

function proposedLines(ids: string[]): string[] {
	const target = targetOf(file(), new Set(ids));
	return (target.op === 'write' ? target.text : base).split('\n');
}

describe('hunkLensSpots: the lens line of each hunk in the proposed text', () => {
	it('every hunk in: each lens is on its hunk’s first new line', () => {
		const ids = file().hunks.map((hunk) => hunk.id);
		const spots = hunkLensSpots(file(), new Set(ids));
		const text = proposedLines(ids);
		expect(spots.map((spot) => [spot.id, spot.selected, text[spot.line]])).toEqual([
			['final#0', true, 'zero-a'],
			['final#1', true, 'THREE-a'],
			['final#2', true, 'six'],
		]);
		expect(spots.map((spot) => [spot.oldStart, spot.oldLines, spot.newLines])).toEqual([
			[1, 0, 2],
			[3, 1, 3],
			[5, 1, 0],
		]);
	});

	it('a hunk left out: its lens is where it would go, and the later lenses shift back', () => {
		const spots = hunkLensSpots(file(), new Set(['final#0', 'final#2']));
		const text = proposedLines(['final#0', 'final#2']);
		expect(spots.map((spot) => [spot.id, spot.selected, text[spot.line]])).toEqual([
			['final#0', true, 'zero-a'],
			// Left out: "three" is still there, where the hunk would replace it.
			['final#1', false, 'three'],
			['final#2', true, 'six'],
		]);
	});

	it('nothing in: the lenses are on the base lines', () => {
		const spots = hunkLensSpots(file(), new Set());
		expect(spots.map((spot) => [spot.selected, base.split('\n')[spot.line]])).toEqual([
			[false, 'one'],
			[false, 'three'],
			[false, 'five'],
		]);
	});
});
