import { afterEach, describe, expect, it } from 'vitest';
import { createToolbox } from '../../../src/core/tools/createToolbox.js';
import { ripgrepOnPath } from '../../../src/core/util/ripgrepBinary.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { makeTree, removeTrees } from '../../support/tempTree.js';

afterEach(removeTrees);

/** Every case runs on both engines: the tool's own walker, and ripgrep reading the disk. */
const engines = [
	['walker', undefined],
	['ripgrep', ripgrepOnPath() ?? 'rg (not on PATH: install ripgrep)'],
] as const;

describe.each(engines)('search_files with the %s', (_engine, ripgrep) => {
	async function setup(files: Record<string, string | Uint8Array>) {
		const workspace = await createWorkspace(await makeTree(files), { ripgrep });
		const overlay = workspace.createOverlay();
		const toolbox = createToolbox({ overlay, writable: true });
		const search = async (args: Record<string, unknown>) =>
			toolbox.execute('search_files', args, new AbortController().signal);
		return { overlay, search };
	}

	it('finds matches as path:line: text, honouring root and nested .gitignore files', async () => {
		const { search } = await setup({
			'.gitignore': 'dist/\n*.log\n!keep.log\n',
			'src/main.ts': 'const needle = 1;\nno match\n  return needle;\r\n',
			'src/.gitignore': 'generated.ts\n',
			'src/generated.ts': 'needle in generated\n',
			'src/sub/deep.ts': 'deep needle\n',
			'dist/out.js': 'needle in dist\n',
			'debug.log': 'needle in log\n',
			'keep.log': 'needle kept\n',
			'node_modules/pkg/index.js': 'needle in node_modules\n',
			'.git/config': 'needle in git\n',
			'.massgen/runs/x.json': 'needle in massgen\n',
			'blob.bin': new Uint8Array([...Buffer.from('needle'), 0, 1, 2]),
		});
		expect(await search({ pattern: 'needle' })).toEqual({
			text: [
				'keep.log:1: needle kept',
				'src/main.ts:1: const needle = 1;',
				'src/main.ts:3:   return needle;',
				'src/sub/deep.ts:1: deep needle',
			].join('\n'),
			isError: false,
		});
	});

	it('searches a subfolder or a single file, and sees the overlay', async () => {
		const { search, overlay } = await setup({ 'a/x.ts': 'foo\n', 'b/y.ts': 'foo\nfoo bar\n' });
		await overlay.write('a/new.ts', 'foo from overlay\n');
		await overlay.delete('a/x.ts');
		expect((await search({ pattern: 'foo', path: 'a' })).text).toBe('a/new.ts:1: foo from overlay');
		expect((await search({ pattern: 'foo\\s+bar', path: 'b/y.ts' })).text).toBe('b/y.ts:2: foo bar');
		expect((await search({ pattern: 'zzz' })).text).toBe('no matches for /zzz/ in the workspace');
		expect((await search({ pattern: 'zzz', path: 'b' })).text).toBe("no matches for /zzz/ in 'b'");
	});

	it('searches an explicitly named ignored folder', async () => {
		const { search } = await setup({
			'node_modules/pkg/index.js': 'needle\n',
			'.gitignore': 'build/\n',
			'build/x.js': 'needle\n',
		});
		expect((await search({ pattern: 'needle' })).text).toBe('no matches for /needle/ in the workspace');
		expect((await search({ pattern: 'needle', path: 'node_modules/pkg' })).text).toBe(
			'node_modules/pkg/index.js:1: needle',
		);
		expect((await search({ pattern: 'needle', path: 'build' })).text).toBe('build/x.js:1: needle');
	});

	it('caps the results with a truncation note', async () => {
		const { search } = await setup({
			'many.txt': Array.from({ length: 250 }, (_, i) => `hit ${i}`).join('\n'),
		});
		const lines = (await search({ pattern: '^hit' })).text.split('\n');
		expect(lines).toHaveLength(201);
		expect(lines[199]).toBe('many.txt:200: hit 199');
		expect(lines[200]).toBe('(truncated: more than 200 matches; narrow the pattern or the path)');
	});

	it('reports invalid regexes, bad paths and missing arguments as errors', async () => {
		const { search } = await setup({ 'a.txt': 'a\n' });
		const invalid = await search({ pattern: 'foo(' });
		expect(invalid.isError).toBe(true);
		expect(invalid.text).toMatch(/^search_files: invalid regular expression \/foo\(\/: /);
		expect(await search({ pattern: 'a', path: '../..' })).toEqual({
			text: "search_files: refused: '../..' is outside the workspace",
			isError: true,
		});
		expect(await search({ pattern: 'a', path: 'missing' })).toEqual({
			text: "search_files: 'missing' does not exist",
			isError: true,
		});
		expect(await search({})).toEqual({ text: "search_files: 'pattern' must be a string", isError: true });
	});
});
