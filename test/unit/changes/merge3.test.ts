import { describe, expect, it } from 'vitest';
import { merge3 } from '../../../src/core/changes/merge3.js';

const lines = (...items: string[]) => items.map((item) => `${item}\n`).join('');
const base = lines(
	'import a',
	'',
	'function f() {',
	'  return 1;',
	'}',
	'',
	'function g() {',
	'  return 2;',
	'}',
);

describe('merge3', () => {
	it('applies both sides when their hunks do not overlap', () => {
		const ours = base.replace('import a\n', 'import a\nimport b\n');
		const theirs = base.replace('  return 2;', '  return 3;');
		expect(merge3(base, ours, theirs)).toEqual({
			clean: true,
			conflicts: 0,
			text: ours.replace('  return 2;', '  return 3;'),
		});
	});

	it('takes a change made on both sides once', () => {
		const both = base.replace('  return 1;', '  return 10;');
		const theirs = both.replace('  return 2;', '  return 20;');
		expect(merge3(base, both, theirs)).toMatchObject({ clean: true, text: theirs });
	});

	it('merges changes on neighbouring lines, and an insertion right next to a change', () => {
		const ours = base.replace('  return 1;', '  return 10;');
		const theirs = base
			.replace('}\n\nfunction g', '}\n// g\n\nfunction g')
			.replace('function f() {', 'function f(): number {');
		const merged = merge3(base, ours, theirs);
		expect(merged.clean).toBe(true);
		expect(merged.text).toContain('function f(): number {\n  return 10;\n}\n// g\n');
	});

	it('wraps overlapping changes in conflict markers and keeps the clean ones', () => {
		const ours = base.replace('  return 1;', '  return 11;').replace('import a', 'import aa');
		const theirs = base.replace('  return 1;', '  return 12;').replace('  return 2;', '  return 22;');
		const merged = merge3(base, ours, theirs, { ours: 'Yours', theirs: 'MassGen run r1' });
		expect(merged.clean).toBe(false);
		expect(merged.conflicts).toBe(1);
		expect(merged.text).toBe(
			lines(
				'import aa',
				'',
				'function f() {',
				'<<<<<<< Yours',
				'  return 11;',
				'=======',
				'  return 12;',
				'>>>>>>> MassGen run r1',
				'}',
				'',
				'function g() {',
				'  return 22;',
				'}',
			),
		);
	});

	it('groups chained overlaps into one conflict region', () => {
		const ours = base.replace('function f() {\n  return 1;\n', 'function f(x) {\n  return x;\n');
		const theirs = base.replace('  return 1;\n}\n', '  return 1 + 1;\n};\n');
		const merged = merge3(base, ours, theirs);
		expect(merged.conflicts).toBe(1);
		expect(merged.text).toContain(
			'<<<<<<< Current\nfunction f(x) {\n  return x;\n}\n=======\nfunction f() {\n  return 1 + 1;\n};\n>>>>>>> MassGen\n',
		);
	});

	it('treats two different insertions at the same place as a conflict', () => {
		const ours = base.replace('\nfunction g', '\n// mine\nfunction g');
		const theirs = base.replace('\nfunction g', '\n// theirs\nfunction g');
		const merged = merge3(base, ours, theirs);
		expect(merged.clean).toBe(false);
		expect(merged.text).toContain('<<<<<<< Current\n// mine\n=======\n// theirs\n>>>>>>> MassGen\n');
	});

	it('ends a conflict side without a final newline on its own line, and keeps CRLF markers', () => {
		const merged = merge3('a\nb', 'a\nc', 'a\nd');
		expect(merged.text).toBe('a\n<<<<<<< Current\nc\n=======\nd\n>>>>>>> MassGen\n');
		const crlf = merge3('a\r\nb\r\n', 'a\r\nc\r\n', 'a\r\nd\r\n');
		expect(crlf.text).toBe('a\r\n<<<<<<< Current\r\nc\r\n=======\r\nd\r\n>>>>>>> MassGen\r\n');
	});

	it('returns the base unchanged when neither side changed it', () => {
		expect(merge3(base, base, base)).toEqual({ clean: true, text: base, conflicts: 0 });
	});

	// Two teams' applies to one file (line 3 and line 7) once conflicted: not here — the second apply
	// planned against the original and was then checked against the first's write, or read the file
	// half written (test/unit/changes/concurrentApply.test.ts). Every pair of distinct lines merges.
	it('merges single-line edits of any two distinct lines, whichever side is on disk, in any line endings', () => {
		for (const eol of ['\n', '\r\n']) {
			for (const finalEol of [true, false]) {
				const original = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
				const text = (edits: Record<number, string>) =>
					original.map((line, i) => edits[i] ?? line).join(eol) + (finalEol ? eol : '');
				for (let a = 0; a < 10; a++) {
					for (let b = 0; b < 10; b++) {
						if (a === b) continue;
						const merged = text({ [a]: 'team A', [b]: 'team B' });
						expect(merge3(text({}), text({ [a]: 'team A' }), text({ [b]: 'team B' }))).toEqual({
							clean: true,
							conflicts: 0,
							text: merged,
						});
					}
				}
			}
		}
	});

	it('a half-written file on disk would conflict with an edit past where it stops (why writes are atomic)', () => {
		const original = Array.from({ length: 10 }, (_, i) => `line ${i + 1}\n`);
		const torn = original.slice(0, 5).join('');
		const theirs = original.map((line, i) => (i === 6 ? 'team B\n' : line)).join('');
		expect(merge3(original.join(''), torn, theirs).clean).toBe(false);
	});
});
