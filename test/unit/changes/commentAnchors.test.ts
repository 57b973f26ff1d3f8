/** A comment's lines carried onto the revised text, and the hunks of the new set that answer it. */
import { describe, expect, it } from 'vitest';
import { commentsOfHunk, type ReviewComment } from '../../../src/contract/revision.js';
import { mapRange } from '../../../src/core/changes/commentAnchors.js';
import { splitHunks } from '../../../src/core/changes/hunks.js';

const text = (...lines: string[]) => lines.map((line) => `${line}\n`).join('');
const ten = text('1', '2', '3', '4', '5', '6', '7', '8', '9', '10');

describe('mapRange', () => {
	it('moves lines below an insertion or a deletion by its size', () => {
		const inserted = text('0a', '0b', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10');
		expect(mapRange(ten, inserted, { line: 7, endLine: 8 })).toEqual({ line: 9, endLine: 10 });
		const deleted = text('1', '4', '5', '6', '7', '8', '9', '10');
		expect(mapRange(ten, deleted, { line: 7, endLine: 7 })).toEqual({ line: 5, endLine: 5 });
	});

	it('maps lines inside a replaced block onto its replacement, and deleted lines onto the line after them', () => {
		const replaced = text('1', '2', 'three', 'three more', 'and more', '4', '5', '6', '7', '8', '9', '10');
		expect(mapRange(ten, replaced, { line: 3, endLine: 3 })).toEqual({ line: 3, endLine: 5 });
		const gone = text('1', '2', '5', '6', '7', '8', '9', '10');
		expect(mapRange(ten, gone, { line: 3, endLine: 4 })).toEqual({ line: 3, endLine: 3 });
	});

	it('leaves lines before any change where they were', () => {
		expect(mapRange(ten, ten.replace('9\n', 'nine\n'), { line: 2, endLine: 4 })).toEqual({
			line: 2,
			endLine: 4,
		});
	});
});

describe('commentsOfHunk', () => {
	const comment = (id: string, line: number, endLine = line): ReviewComment => ({
		id,
		path: 'a.ts',
		line,
		endLine,
		text: id,
		addressed: true,
		now: { line, endLine },
	});

	it('gives a hunk the comments on its new lines or right beside them, in that file only', () => {
		const [hunk] = splitHunks(ten, ten.replace('5\n6\n', 'five\nsix\n'));
		const comments = [
			comment('on', 5),
			comment('before', 4),
			comment('after', 7),
			comment('far', 9),
			comment('top', 1, 2),
		];
		expect(commentsOfHunk(comments, 'a.ts', hunk!).map((c) => c.id)).toEqual(['on', 'before', 'after']);
		expect(commentsOfHunk(comments, 'b.ts', hunk!)).toEqual([]);
	});

	it('gives a deletion the comment that now sits where the lines were', () => {
		const [hunk] = splitHunks(ten, ten.replace('5\n6\n', ''));
		expect(hunk!.newLines).toBe(0);
		const mapped = mapRange(ten, ten.replace('5\n6\n', ''), { line: 5, endLine: 6 });
		const gone: ReviewComment = { ...comment('gone', 5, 6), now: mapped };
		expect(commentsOfHunk([gone, comment('far', 9)], 'a.ts', hunk!).map((c) => c.id)).toEqual(['gone']);
	});

	it('gives no hunk a comment whose file is gone', () => {
		const [hunk] = splitHunks(ten, ten.replace('5\n', 'five\n'));
		expect(commentsOfHunk([{ ...comment('x', 5), now: null }], 'a.ts', hunk!)).toEqual([]);
	});
});
