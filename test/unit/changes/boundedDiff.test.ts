import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffLines, formatPatch, structuredPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { boundedDiffLines, boundedStructuredPatch } from '../../../src/core/util/boundedDiff.js';

const lines = (count: number, make: (i: number) => string) =>
	Array.from({ length: count }, (_, i) => `${make(i)}\n`).join('');
const base = lines(50_000, (i) => `line ${i} of a generated file`);
/** One write_file of 5,000 new lines over it, keeping the first and last lines: 18 s with plain diffLines. */
const rewrite = `${'line 0 of a generated file\n'}${lines(5_000, (i) => `new ${i}`)}line 49999 of a generated file`;

/** `git apply` of `patch` to `before` in a scratch repository; returns the file afterwards. */
function gitApply(before: string, patch: string): string {
	const dir = mkdtempSync(join(tmpdir(), 'massgen-diff-'));
	try {
		execFileSync('git', ['init', '-q'], { cwd: dir });
		writeFileSync(join(dir, 'f.txt'), before);
		writeFileSync(join(dir, 'p.diff'), patch);
		execFileSync('git', ['apply', 'p.diff'], { cwd: dir });
		return readFileSync(join(dir, 'f.txt'), 'utf8');
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

describe('bounded line diffs', () => {
	it('small diffs are exactly what jsdiff finds', () => {
		const a = 'one\ntwo\nthree\nfour\n';
		const b = 'one\n2\nthree\nfour\nfive';
		expect(boundedDiffLines(a, b)).toEqual(diffLines(a, b));
		expect(boundedStructuredPatch('a/f', 'b/f', a, b, 3)).toEqual(
			structuredPatch('a/f', 'b/f', a, b, undefined, undefined, { context: 3 }),
		);
	});

	it('a huge rewrite gives a coarse but exact diff, fast', () => {
		// Coarse: one removed and one added block (its time bound: test/bench/timeBounds.bench.ts).
		const parts = boundedDiffLines(base, rewrite);
		expect(
			parts
				.filter((part) => !part.added)
				.map((part) => part.value)
				.join(''),
		).toBe(base);
		expect(
			parts
				.filter((part) => !part.removed)
				.map((part) => part.value)
				.join(''),
		).toBe(rewrite);
		expect(parts.map((part) => [part.added, part.removed, part.count])).toEqual([
			[false, false, 1],
			// The last line differs too: the rewrite's has no newline.
			[false, true, 49_999],
			[true, false, 5_001],
		]);
	});

	it('the coarse patch applies with git, also where the last line has no newline', () => {
		const patch = boundedStructuredPatch('a/f.txt', 'b/f.txt', base, rewrite, 3);
		expect(patch.hunks).toHaveLength(1);
		expect(gitApply(base, formatPatch(patch))).toBe(rewrite);
		const reversed = boundedStructuredPatch('a/f.txt', 'b/f.txt', rewrite, base, 3);
		expect(gitApply(rewrite, formatPatch(reversed))).toBe(base);
	});
});
