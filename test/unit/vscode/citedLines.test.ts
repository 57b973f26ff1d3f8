import { describe, expect, it } from 'vitest';
import { citedLines, maxCitations } from '../../../src/vscode/chat/citedLines';

describe('citedLines: the path:line citations of an answer', () => {
	it('reads `path:line`, `path:a-b` and `path#La-Lb`, each once, in order of first mention', () => {
		const answer = [
			'The bug is in `src/app.ts:12` (see also src/app.ts:12 and README.md:3-5).',
			'GitHub style: lib/util.js#L7-L9, and once more src/app.ts:12.',
		].join('\n');
		expect(citedLines(answer)).toEqual([
			{ path: 'src/app.ts', start: 12, end: 12 },
			{ path: 'README.md', start: 3, end: 5 },
			{ path: 'lib/util.js', start: 7, end: 9 },
		]);
	});

	it('keeps only relative paths inside the folder: no absolute paths, no `..`, no URLs, no line 0', () => {
		const answer = [
			'/etc/passwd.txt:1',
			'../outside.ts:2',
			'a/../../escape.ts:3',
			'C:\\Windows\\win.ini:4',
			'https://example.com/x.ts:5',
			'file:///tmp/y.ts:6',
			'zero.ts:0',
			'backwards.ts:9-3',
		].join(' ');
		expect(citedLines(answer)).toEqual([]);
	});

	it('folds `./` and stops at the cap', () => {
		expect(citedLines('./src/a.ts:1 .github/ci.yml:2')).toEqual([
			{ path: 'src/a.ts', start: 1, end: 1 },
			{ path: '.github/ci.yml', start: 2, end: 2 },
		]);
		const many = Array.from({ length: 50 }, (_, i) => `f${i}.ts:1`).join(' ');
		expect(citedLines(many)).toHaveLength(maxCitations);
	});
});
