import { describe, expect, it } from 'vitest';
import { buildReviewChangeSet } from '../../../src/core/changes/changeSet.js';
import { hunkAgreement, normaliseWhitespace } from '../../../src/core/changes/hunkAgreement.js';
import { splitHunks } from '../../../src/core/changes/hunks.js';
import { sha256 } from '../../../src/core/workspace/sha256.js';

const at = (oldStart: number, oldLines: number, added: string) => ({ oldStart, oldLines, added });

describe('hunkAgreement', () => {
	it('same: equal after normalising whitespace (indentation, inner runs, blank lines, CRLF)', () => {
		expect(
			hunkAgreement(at(3, 1, '\tif (x) {\n  y();\n}\n'), at(3, 1, 'if (x)   {\r\n\n    y();\n}\n')),
		).toBe('same');
		expect(hunkAgreement(at(3, 0, ''), at(3, 0, ''))).toBe('same');
	});

	it('similar: the same lines changed the same way except for a name', () => {
		const own = at(13, 0, "    throw new RangeError('n must be positive');\n");
		const other = at(13, 0, "  throw new Error('n must be positive');\n");
		expect(hunkAgreement(own, other)).toBe('similar');
	});

	it('not agreement: other lines, a different number, string or operator, or many names changed', () => {
		const own = at(13, 0, "throw new RangeError('n must be positive');\n");
		expect(hunkAgreement(own, at(14, 0, "throw new RangeError('n must be positive');\n"))).toBeNull();
		expect(hunkAgreement(own, at(13, 1, "throw new RangeError('n must be positive');\n"))).toBeNull();
		expect(hunkAgreement(own, at(13, 0, "throw new RangeError('n must be > 0');\n"))).toBeNull();
		expect(hunkAgreement(at(0, 1, 'const a = 10;\n'), at(0, 1, 'const a = 11;\n'))).toBeNull();
		expect(hunkAgreement(at(0, 1, 'if (a < b) go();\n'), at(0, 1, 'if (a > b) go();\n'))).toBeNull();
		// Two of five tokens renamed is more than one in four.
		expect(hunkAgreement(at(0, 1, 'foo(bar);\n'), at(0, 1, 'baz(qux);\n'))).toBeNull();
		// A short line has no room for a rename: `return x` and `return y` differ.
		expect(hunkAgreement(at(0, 1, 'return x\n'), at(0, 1, 'return y\n'))).toBeNull();
	});

	it('normaliseWhitespace keeps what is inside a line apart from runs of blanks', () => {
		expect(normaliseWhitespace('  a  b\t c \r\n\n d\n')).toBe('a b c\nd');
	});
});

describe('consensus in the review change set', () => {
	const base = ['function check(n) {', '  if (n < 0) {', '  }', '  return n;', '}', ''].join('\n');
	const withThrow = (line: string) => base.replace('  if (n < 0) {\n', `  if (n < 0) {\n${line}\n`);
	const modify = (content: string) => ({
		path: 'src/check.js',
		kind: 'modify' as const,
		baseHash: sha256(base),
		base,
		content,
	});

	it('counts an indentation-only difference as the same change and a renamed error class as similar', () => {
		const winner = withThrow("    throw new RangeError('n must not be negative');");
		const set = buildReviewChangeSet({
			runId: 'r1',
			winner: { agentId: 'architect', label: 'agent1.final' },
			changes: [modify(winner)],
			answers: [
				{
					agentId: 'reviewer',
					label: 'agent2.1',
					changes: [modify(withThrow("\tthrow new RangeError('n must not be negative');"))],
				},
				{
					agentId: 'tester',
					label: 'agent3.1',
					changes: [modify(withThrow("    throw new Error('n must not be negative');"))],
				},
			],
		});
		const [hunk] = set.files[0]!.hunks;
		expect(splitHunks(base, winner)).toHaveLength(1);
		expect(hunk!.agreeing).toEqual(['reviewer']);
		expect(hunk!.similar).toEqual(['tester']);
		// Both stay alternatives: their text differs (indentation can matter), so the user may take either.
		expect(set.files[0]!.alternatives.map((alt) => alt.from.map((from) => from.agentId))).toEqual([
			['reviewer'],
			['tester'],
		]);
	});
});
