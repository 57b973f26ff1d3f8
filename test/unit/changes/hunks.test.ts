import { describe, expect, it } from 'vitest';
import {
	applyHunks,
	HunkApplyError,
	hunkDiffLines,
	hunksOverlap,
	sameHunk,
	splitHunks,
	splitLines,
} from '../../../src/core/changes/hunks.js';

const base = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten']
	.map((l) => `${l}\n`)
	.join('');
// Three separate blocks: a replaced line, an insertion, a deletion at the end.
const next = base.replace('two\n', 'TWO\n').replace('five\n', 'five\nfive and a half\n').replace('ten\n', '');

describe('splitHunks', () => {
	it('finds one hunk per block of consecutive changed lines, with 0-based base and new positions', () => {
		const hunks = splitHunks(base, next);
		expect(
			hunks.map(({ oldStart, oldLines, newStart, newLines }) => [oldStart, oldLines, newStart, newLines]),
		).toEqual([
			[1, 1, 1, 1],
			[5, 0, 5, 1],
			[9, 1, 10, 0],
		]);
		expect(hunks.map((hunk) => [hunk.removed, hunk.added])).toEqual([
			['two\n', 'TWO\n'],
			['', 'five and a half\n'],
			['ten\n', ''],
		]);
	});

	it('finds nothing for equal texts and one hunk for a whole new or removed text', () => {
		expect(splitHunks(base, base)).toEqual([]);
		expect(splitHunks('', 'a\nb\n')).toEqual([
			{ oldStart: 0, oldLines: 0, newStart: 0, newLines: 2, removed: '', added: 'a\nb\n' },
		]);
		expect(splitHunks('a\nb\n', '')).toEqual([
			{ oldStart: 0, oldLines: 2, newStart: 0, newLines: 0, removed: 'a\nb\n', added: '' },
		]);
	});

	it('keeps CRLF line endings and a missing final newline exactly', () => {
		const crlf = 'a\r\nb\r\nc\r\n';
		const [hunk] = splitHunks(crlf, 'a\r\nB\r\nc\r\n');
		expect(hunk).toMatchObject({ removed: 'b\r\n', added: 'B\r\n' });
		const [eof] = splitHunks('a\nb', 'a\nb\n');
		expect(eof).toMatchObject({ oldStart: 1, removed: 'b', added: 'b\n' });
	});

	it('renders a hunk as unified-diff body lines', () => {
		expect(hunkDiffLines(splitHunks(base, next)[0]!)).toEqual(['-two', '+TWO']);
	});
});

describe('applyHunks', () => {
	const hunks = splitHunks(base, next);

	it('rebuilds the new text from all hunks and the base from none', () => {
		expect(applyHunks(base, hunks)).toBe(next);
		expect(applyHunks(base, [])).toBe(base);
	});

	it('applies every subset to the exact expected text', () => {
		const [replace, insert, remove] = hunks;
		expect(applyHunks(base, [insert!])).toBe(base.replace('five\n', 'five\nfive and a half\n'));
		expect(applyHunks(base, [replace!, remove!])).toBe(base.replace('two\n', 'TWO\n').replace('ten\n', ''));
		expect(applyHunks(base, [remove!, replace!])).toBe(applyHunks(base, [replace!, remove!]));
		expect(applyHunks(base, [replace!, insert!])).toBe(
			base.replace('two\n', 'TWO\n').replace('five\n', 'five\nfive and a half\n'),
		);
	});

	it('handles CRLF texts and a missing final newline without normalising', () => {
		const from = 'a\r\nb\r\nc';
		const to = 'A\r\nb\r\nc\r\nd';
		const crlf = splitHunks(from, to);
		expect(crlf).toHaveLength(2);
		expect(applyHunks(from, crlf)).toBe(to);
		expect(applyHunks(from, [crlf[1]!])).toBe('a\r\nb\r\nc\r\nd');
		expect(applyHunks(from, [crlf[0]!])).toBe('A\r\nb\r\nc');
	});

	it('refuses overlapping hunks and hunks that do not match the base', () => {
		const a = splitHunks(base, base.replace('two\nthree\n', 'x\n'))[0]!;
		const b = splitHunks(base, base.replace('three\n', 'y\n'))[0]!;
		expect(() => applyHunks(base, [a, b])).toThrow(HunkApplyError);
		expect(() => applyHunks('other\n', [a])).toThrow(/does not match the base/);
	});
});

describe('hunksOverlap and sameHunk', () => {
	const at = (oldStart: number, oldLines: number, added = 'x\n') => ({
		oldStart,
		oldLines,
		newStart: 0,
		newLines: 1,
		removed: '',
		added,
	});

	it('treats touching ranges and insertions at a range edge as separate', () => {
		expect(hunksOverlap(at(1, 2), at(3, 1))).toBe(false);
		expect(hunksOverlap(at(1, 2), at(2, 1))).toBe(true);
		expect(hunksOverlap(at(1, 2), at(1, 0))).toBe(false);
		expect(hunksOverlap(at(1, 2), at(3, 0))).toBe(false);
		expect(hunksOverlap(at(1, 2), at(2, 0))).toBe(true);
		expect(hunksOverlap(at(4, 0), at(4, 0))).toBe(true);
		expect(hunksOverlap(at(4, 0), at(5, 0))).toBe(false);
	});

	it('compares position and text, ignoring trailing whitespace and line endings', () => {
		expect(sameHunk(at(1, 1, 'a  \r\n'), at(1, 1, 'a\n'))).toBe(true);
		expect(sameHunk(at(1, 1, 'a\n'), at(2, 1, 'a\n'))).toBe(false);
		expect(sameHunk(at(1, 1, 'a\n'), at(1, 1, ' a\n'))).toBe(false);
	});

	it('splits lines keeping their endings', () => {
		expect(splitLines('')).toEqual([]);
		expect(splitLines('a\r\nb\nc')).toEqual(['a\r\n', 'b\n', 'c']);
	});
});
