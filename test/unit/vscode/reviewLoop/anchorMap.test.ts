import { describe, expect, it } from 'vitest';
import { lineCount, mapRange } from '../../../../src/vscode/reviewLoop/anchorMap.js';
import { placeThreads } from '../../../../src/vscode/reviewLoop/hunkComments.js';
import type { TeamThread } from '../../../../src/vscode/reviewLoop/teamThread.js';

const text = (...lines: string[]) => lines.map((line) => `${line}\n`).join('');

describe('mapRange: a thread keeps its lines when its proposed text re-renders', () => {
	const before = text('a', 'b', 'c', 'd', 'e');

	it('counts lines as diffLines does', () => {
		expect(lineCount('')).toBe(0);
		expect(lineCount('a')).toBe(1);
		expect(lineCount('a\n')).toBe(1);
		expect(lineCount('a\nb')).toBe(2);
	});

	it('keeps a range on unchanged text', () => {
		expect(mapRange(before, before, { line: 2, endLine: 3 })).toEqual({ line: 2, endLine: 3 });
	});

	it('moves a range down past lines inserted above it, and up past lines removed above it', () => {
		expect(mapRange(before, text('x', 'y', 'a', 'b', 'c', 'd', 'e'), { line: 4, endLine: 5 })).toEqual({
			line: 6,
			endLine: 7,
		});
		expect(mapRange(before, text('c', 'd', 'e'), { line: 4, endLine: 4 })).toEqual({ line: 2, endLine: 2 });
	});

	it('maps lines inside a replaced block onto the whole replacement', () => {
		const after = text('a', 'B1', 'B2', 'B3', 'd', 'e');
		expect(mapRange(before, after, { line: 2, endLine: 3 })).toEqual({ line: 2, endLine: 4 });
	});

	it('collapses removed lines onto the line now in their place, and grows over lines inserted inside', () => {
		expect(mapRange(before, text('a', 'd', 'e'), { line: 2, endLine: 3 })).toEqual({ line: 2, endLine: 2 });
		expect(mapRange(before, text('a', 'b', 'new', 'c', 'd', 'e'), { line: 2, endLine: 3 })).toEqual({
			line: 2,
			endLine: 4,
		});
	});

	it('stays inside the new text when the end of the file went, and has no place in an empty text', () => {
		expect(mapRange(before, text('a', 'b'), { line: 4, endLine: 5 })).toEqual({ line: 2, endLine: 2 });
		expect(mapRange(before, '', { line: 1, endLine: 1 })).toBeUndefined();
	});

	it('handles a last line without a newline', () => {
		expect(mapRange('a\nb', 'x\na\nb', { line: 2, endLine: 2 })).toEqual({ line: 3, endLine: 3 });
	});
});

describe('placing many threads on a file a model rewrote', () => {
	it('makes one bounded diff for all of them (unbounded, one each: 30,000 rewritten lines cost seconds per thread)', () => {
		const before = Array.from({ length: 30_000 }, (_, i) => `const a${i} = ${i};\n`).join('');
		const after = Array.from({ length: 30_000 }, (_, i) => `let b${i} = '${i}';\n`).join('');
		const threads: TeamThread[] = Array.from({ length: 100 }, (_, i) => ({
			id: `t${i}`,
			runId: 'run-1',
			path: 'big.ts',
			range: { line: 100 + i, endLine: 100 + i },
			anchoredText: before,
			comments: ['why?'],
			resolved: false,
		}));
		const start = performance.now();
		const placed = placeThreads(threads, () => after);
		const ms = performance.now() - start;
		// The whole file was replaced: every thread lands on the replacement.
		expect(placed.every(({ now }) => now !== null && now.line === 1)).toBe(true);
		expect(ms).toBeLessThan(3_000);
	});
});
