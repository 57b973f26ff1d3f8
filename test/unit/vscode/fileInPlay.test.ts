/** Which changed file the first diff opens for: the one in play, not the first in the list. */
import { describe, expect, it } from 'vitest';
import { fileInPlay } from '../../../src/vscode/changes/fileInPlay.js';

const paths = ['README.md', 'docs/guide.md', 'src/app.ts', 'src/util/math.ts'];
const none = { attached: [], question: 'Tidy this project' };

describe('fileInPlay', () => {
	it('the active editor’s file first, even when the question names another', () => {
		expect(fileInPlay(paths, { ...none, activePath: 'src/util/math.ts', question: 'Fix src/app.ts' })).toBe(
			'src/util/math.ts',
		);
	});

	it('an active file that did not change does not count; then the reviewed, then an attached file', () => {
		expect(fileInPlay(paths, { ...none, activePath: 'other.ts', reviewedPath: 'src/app.ts' })).toBe(
			'src/app.ts',
		);
		expect(fileInPlay(paths, { ...none, attached: ['nope.ts', 'docs/guide.md'] })).toBe('docs/guide.md');
	});

	it('a file the question names, by path, then by file name (not inside a longer name)', () => {
		expect(fileInPlay(paths, { ...none, question: 'Document `src/util/math.ts` please' })).toBe(
			'src/util/math.ts',
		);
		expect(fileInPlay(paths, { ...none, question: 'Why does math.ts round down?' })).toBe('src/util/math.ts');
		expect(fileInPlay(paths, { ...none, question: 'Fix mymath.ts and app.tsx' })).toBe('src/app.ts');
	});

	it('else the first file that is not documentation, else the first', () => {
		expect(fileInPlay(paths, none)).toBe('src/app.ts');
		expect(fileInPlay(['b.md', 'a.txt'], none)).toBe('b.md');
		expect(fileInPlay([], none)).toBeUndefined();
	});
});
