/**
 * The run snapshot holds what the team touched, not the tree: listings and searches (either engine)
 * read files without capturing them: only the files an agent read are held (and, as `absent`, the
 * folders the tools listed: the walker lists every folder it enters).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createToolbox } from '../../../src/core/tools/createToolbox.js';
import { ripgrepOnPath } from '../../../src/core/util/ripgrepBinary.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { makeTree, removeTrees } from '../../support/tempTree.js';

afterEach(removeTrees);

const engines = [
	['walker', undefined],
	['ripgrep', ripgrepOnPath() ?? 'rg (not on PATH: install ripgrep)'],
] as const;

describe.each(engines)('the run snapshot with the %s', (_engine, ripgrep) => {
	it('captures nothing for listings, and of searches over 60 files only the files whose lines they showed', async () => {
		const files: Record<string, string> = { '.gitignore': 'dist/\n', 'dist/out.js': 'needle\n' };
		for (let i = 0; i < 60; i++) files[`src/m${i % 6}/f${i}.ts`] = `export const needle${i} = ${i};\n`;
		const workspace = await createWorkspace(await makeTree(files), { ripgrep });
		const toolbox = createToolbox({ overlay: workspace.createOverlay(), writable: false });
		const run = (name: string, args: Record<string, unknown>) =>
			toolbox.execute(name, args, new AbortController().signal);

		const found = await run('search_files', { pattern: 'needle\\d+ = 5;' });
		expect(found.text).toBe('src/m5/f5.ts:1: export const needle5 = 5;');
		expect((await run('search_files', { pattern: 'needle', path: 'src/m1' })).text.split('\n')).toHaveLength(
			10,
		);
		expect((await run('list_directory', { path: 'src' })).text).toBe('m0/\nm1/\nm2/\nm3/\nm4/\nm5/');
		await run('read_file', { path: 'src/m0/f0.ts' });

		// Text is held only for the file read_file read and the 11 whose lines a search showed (their base
		// from then on); the rest are folders the tools listed (a few bytes each).
		const captured = [...workspace.runSnapshot.captured()];
		const shown = ['src/m5/f5.ts', ...Array.from({ length: 10 }, (_, i) => `src/m1/f${i * 6 + 1}.ts`)];
		expect(
			captured
				.filter(([, entry]) => entry.kind !== 'absent')
				.map(([path]) => path)
				.sort(),
		).toEqual([...shown, 'src/m0/f0.ts'].sort());
		const folders = captured.filter(([, entry]) => entry.kind === 'absent').map(([path]) => path);
		expect(folders).toEqual(expect.arrayContaining(['.', 'src', 'src/m1']));
		expect(folders.every((path) => !path.endsWith('.ts') && !path.endsWith('.gitignore'))).toBe(true);
	});
});
