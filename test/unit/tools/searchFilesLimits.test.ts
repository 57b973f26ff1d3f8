/** search_files against what a model (or a hostile workspace) can throw at it: none of it may hang. */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolbox } from '../../../src/core/tools/createToolbox.js';
import { ripgrepOnPath } from '../../../src/core/util/ripgrepBinary.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { makeTree, removeTrees } from '../../support/tempTree.js';

afterEach(removeTrees);

async function searchIn(root: string, ripgrep?: string, now?: () => number) {
	const overlay = (await createWorkspace(root, { ripgrep })).createOverlay();
	const toolbox = createToolbox({ overlay, writable: false, ...(now ? { now } : {}) });
	return (args: Record<string, unknown>, signal = new AbortController().signal) =>
		toolbox.execute('search_files', args, signal);
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
	const started = performance.now();
	const value = await run();
	return { value, ms: performance.now() - started };
}

/** Engine-neutral cases run on the walker and on ripgrep; the walker's own bounds below run on it alone. */
const engines = [
	['walker', undefined],
	['ripgrep', ripgrepOnPath() ?? 'rg (not on PATH: install ripgrep)'],
] as const;

describe.each(engines)('search_files patterns with the %s', (_engine, ripgrep) => {
	// With RegExp each of these takes minutes (exponential or high-polynomial backtracking).
	it.each([
		['^(a+)+$', `${'a'.repeat(41)}!`],
		['(a|aa)+$', `${'a'.repeat(60)}!`],
		['(.*a){20}', 'a'.repeat(200)],
		['^(\\w+\\s?)*$', `${'word '.repeat(40)}!`],
	])('catastrophic pattern %s on an adversarial line answers within 1 s', async (pattern, line) => {
		const search = await searchIn(await makeTree({ 'evil.txt': `${line}\n`, 'ok.txt': 'fine\n' }), ripgrep);
		const { value, ms } = await timed(() => search({ pattern }));
		expect(ms).toBeLessThan(1000);
		expect(value.isError).toBe(false);
	});

	it('matches what RegExp matches for ordinary patterns, and JavaScript \\u escapes', async () => {
		const search = await searchIn(
			await makeTree({ 'a.ts': 'function  main() {}\nconst é = 1;\nTODO later\n' }),
			ripgrep,
		);
		expect((await search({ pattern: 'function\\s+main' })).text).toBe('a.ts:1: function  main() {}');
		expect((await search({ pattern: '\\u00e9' })).text).toBe('a.ts:2: const é = 1;');
		expect((await search({ pattern: '(?i)todo' })).text).toBe('a.ts:3: TODO later');
		expect((await search({ pattern: '(?<=const )\\S' })).text).toBe('a.ts:2: const é = 1;');
		// An escaped backslash before `u` stays literal: this searches for the text `\u00e9`.
		const literal = await searchIn(await makeTree({ 'b.txt': 'escape \\u00e9 here\n' }), ripgrep);
		expect((await literal({ pattern: '\\\\u00e9' })).text).toBe('b.txt:1: escape \\u00e9 here');
	});

	it.each([
		['(a)\\1', /backreferences .* not supported .*RE2/],
		['foo(?=bar)', /lookahead .* not supported .* 'foo\(\?=bar\)' → 'foobar'/],
		['a++', /possessive quantifiers .* not supported/],
		['(a{1000}){1000}', /invalid repeat count/],
		// RE2 needs 78 s for this one on a 1 MB line of words (its DFA overflows; 6,000 steps a character).
		['(\\w+\\s?){1000}$', /too complex \(6003 RE2 instructions, at most 2000\): use smaller repeat counts/],
	])('unsupported syntax %s is a clear tool error', async (pattern, message) => {
		const search = await searchIn(await makeTree({ 'a.txt': 'a\n' }), ripgrep);
		const outcome = await search({ pattern });
		expect(outcome.isError).toBe(true);
		expect(outcome.text).toMatch(/^search_files: /);
		expect(outcome.text).toMatch(message);
	});
});

describe('search_files limits of the walker', () => {
	it('does not follow symlink loops, and says so', async () => {
		const root = await makeTree({ 'src/x.txt': 'needle\n' });
		await symlink('.', join(root, 'a'));
		await symlink('.', join(root, 'b'));
		await symlink('..', join(root, 'src', 'up'));
		const search = await searchIn(root);
		const { value, ms } = await timed(() => search({ pattern: 'needle' }));
		expect(ms).toBeLessThan(5000);
		expect(value.text).toBe(
			"src/x.txt:1: needle\n(search cut: did not follow 3 linked folder(s): name one in 'path' to search it; narrow the search with 'path')",
		);
		// Named explicitly, a linked folder is searched (its own links still are not followed).
		expect((await search({ pattern: 'needle', path: 'a/src' })).text).toMatch(/^a\/src\/x\.txt:1: needle\n/);
	});

	it('skips folders past 64 levels in a 1,500-deep tree and says where', async () => {
		const root = await makeTree({ 'top.txt': 'needle\n' });
		const deep = join(root, ...Array.from({ length: 1500 }, () => 'd'));
		await mkdir(deep, { recursive: true });
		await makeTreeFile(join(deep, 'bottom.txt'));
		const search = await searchIn(root);
		const { value, ms } = await timed(() => search({ pattern: 'needle' }));
		expect(ms).toBeLessThan(10_000);
		expect(value.text.split('\n')[0]).toBe('top.txt:1: needle');
		expect(value.text).toContain(
			`skipped folders more than 64 levels deep, e.g. '${Array(65).fill('d').join('/')}'`,
		);
	});

	it('stops after 50,000 files and folders with a message', async () => {
		const root = await makeTree();
		// 300 folders × 170 empty files = 51,300 entries: one past the cap is enough.
		for (let dir = 0; dir < 300; dir++) {
			await mkdir(join(root, `f${dir}`));
			await Promise.all(
				Array.from({ length: 170 }, (_, file) => makeTreeFile(join(root, `f${dir}`, `${file}.txt`), '')),
			);
		}
		// The tools' clock stands still: the entry cap, not the 30 s time limit, ends the walk however slow the machine.
		const search = await searchIn(root, undefined, () => 0);
		const { value } = await timed(() => search({ pattern: 'needle' }));
		expect(value.text).toBe(
			"no matches for /needle/ in the workspace\n(search cut: stopped after 50000 files and folders (the limit); narrow the search with 'path')",
		);
		// Making 51,300 files took over 60 s on a loaded machine.
	}, 240_000);

	it('yields to the event loop and stops when cancelled', async () => {
		const root = await makeTree();
		for (let dir = 0; dir < 40; dir++) {
			await Promise.all(
				Array.from({ length: 100 }, (_, file) => makeTreeFile(join(root, `f${dir}`, `${file}.txt`), 'hay\n')),
			);
		}
		const search = await searchIn(root);
		const controller = new AbortController();
		// Timers run during the search (it yields), and the third one cancels it.
		let ticks = 0;
		const timer = setInterval(() => ++ticks === 3 && controller.abort(), 5);
		const { value, ms } = await timed(() => search({ pattern: 'needle' }, controller.signal));
		clearInterval(timer);
		expect(value).toEqual({ text: 'search_files: cancelled', isError: true });
		expect(ms).toBeLessThan(1000);
		expect(ticks).toBeGreaterThanOrEqual(3);
	});

	it('skips files too large to read and says so; named, such a file is a clear error', async () => {
		// Over the run snapshot's 8 MiB cap: never loaded (read_file would refuse it too).
		const search = await searchIn(
			await makeTree({
				'huge.log': 'needle\n'.repeat(1_400_000),
				'small.txt': 'needle\n',
				'mid.txt': 'x\n'.repeat(600_000),
			}),
		);
		expect((await search({ pattern: 'needle' })).text).toBe(
			'small.txt:1: needle\n(search cut: skipped 1 file(s) over 1 MB (read them in parts: read_file offset/limit); ' +
				"skipped 1 file(s) too large to read at all; narrow the search with 'path')",
		);
		const named = await search({ pattern: 'needle', path: 'huge.log' });
		expect(named.isError).toBe(true);
		expect(named.text).toMatch(
			/^search_files: 'huge\.log' is 9\.3 MiB \(9800000 bytes\), over the 8\.0 MiB limit/,
		);
	});

	it('bounds the work on a long line for a complex pattern and says the line was clipped', async () => {
		const search = await searchIn(await makeTree({ 'min.js': `${'word '.repeat(200_000)}\n` }));
		const { value, ms } = await timed(() => search({ pattern: '(\\w+\\s?){300}$' }));
		// Defence in depth: patterns over 2,000 instructions are refused (at 6,000, RE2 took 78 s on this
		// line); below, a line is matched on at most 1M / program-size characters.
		expect(ms).toBeLessThan(3000);
		expect(value.text).toMatch(/1 long line\(s\) were searched only in their first \d+ characters/);
	});
});

async function makeTreeFile(path: string, text = 'needle\n'): Promise<void> {
	await mkdir(join(path, '..'), { recursive: true });
	await writeFile(path, text);
}
