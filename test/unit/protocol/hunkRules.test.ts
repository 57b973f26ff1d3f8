import { describe, expect, it } from 'vitest';
import { isDefaultSelection, toggleHunk } from '../../../src/contract/hunkRules.js';

// Hunks as the panel sees them (HunkView): only ids and base ranges, no text.
const winner = [
	{ id: 'final#0', oldStart: 1, oldLines: 2 },
	{ id: 'final#1', oldStart: 6, oldLines: 1 },
];
const alternatives = [
	{ id: 'alt#0', oldStart: 2, oldLines: 1 },
	{ id: 'alt#1', oldStart: 3, oldLines: 0 },
];
const all = [...winner, ...alternatives];

describe('hunk rules shared by the host and the panel', () => {
	it('switching an alternative on switches off the winner hunk it overlaps, and back', () => {
		let selected = toggleHunk(all, new Set(['final#0', 'final#1']), 'alt#0', true);
		expect([...selected].sort()).toEqual(['alt#0', 'final#1']);
		// An insertion right after final#0's lines overlaps nothing.
		selected = toggleHunk(all, selected, 'alt#1', true);
		expect([...selected].sort()).toEqual(['alt#0', 'alt#1', 'final#1']);
		selected = toggleHunk(all, selected, 'final#0', true);
		expect([...selected].sort()).toEqual(['alt#1', 'final#0', 'final#1']);
		expect([...toggleHunk(all, selected, 'final#1', false)].sort()).toEqual(['alt#1', 'final#0']);
		expect([...toggleHunk(all, selected, 'nope', true)].sort()).toEqual([...selected].sort());
	});

	it('the default selection is every winner hunk and no alternative', () => {
		expect(isDefaultSelection(winner, new Set(['final#0', 'final#1']))).toBe(true);
		expect(isDefaultSelection(winner, new Set(['final#0']))).toBe(false);
		expect(isDefaultSelection(winner, new Set(['final#0', 'alt#1']))).toBe(false);
		expect(isDefaultSelection(winner, new Set(['final#0', 'final#1', 'alt#1']))).toBe(false);
	});
});
