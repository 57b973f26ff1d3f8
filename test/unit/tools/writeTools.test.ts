import { afterEach, describe, expect, it } from 'vitest';
import { createToolbox } from '../../../src/core/tools/createToolbox.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { hashTree, makeTree, removeTrees } from '../../support/tempTree.js';

afterEach(removeTrees);

async function setup() {
	const root = await makeTree({
		'src/a.ts': 'const x = 1;\nconst y = 2;\nconst x2 = 1;\n',
		'src/dup.ts': 'foo();\nfoo();\nfoo();\n',
		'src/keep.ts': 'keep\n',
		'win.txt': 'one\r\ntwo\r\n',
		'.env': 'KEY=1\n',
	});
	const workspace = await createWorkspace(root, { protectedPaths: ['src/keep.ts'] });
	const overlay = workspace.createOverlay();
	const toolbox = createToolbox({ overlay, writable: true });
	const call = (name: string, args: Record<string, unknown>) =>
		toolbox.execute(name, args, new AbortController().signal);
	return { root, overlay, call, before: hashTree(root) };
}

describe('write tools', () => {
	it('write_file creates and overwrites in the overlay only', async () => {
		const { root, overlay, call, before } = await setup();
		expect(await call('write_file', { path: 'new/dir/b.ts', content: 'b\nc\n' })).toEqual({
			text: "created 'new/dir/b.ts' (2 lines)",
			isError: false,
			edit: { path: 'new/dir/b.ts', kind: 'add' },
		});
		expect(await call('write_file', { path: './src\\a.ts', content: 'replaced' })).toEqual({
			text: "wrote 'src/a.ts' (1 line)",
			isError: false,
			edit: { path: 'src/a.ts', kind: 'modify' },
		});
		expect(await overlay.readText('src/a.ts')).toBe('replaced');
		expect(hashTree(root)).toBe(before);
	});

	it('edit_file replaces one exact, unique occurrence', async () => {
		const { overlay, call } = await setup();
		expect(
			await call('edit_file', { path: 'src/a.ts', old_text: 'const y = 2;', new_text: 'const y = 3;' }),
		).toEqual({
			text: "edited 'src/a.ts' at line 2",
			isError: false,
			edit: { path: 'src/a.ts', kind: 'modify' },
		});
		expect(await overlay.readText('src/a.ts')).toBe('const x = 1;\nconst y = 3;\nconst x2 = 1;\n');
		await call('edit_file', { path: 'src/a.ts', old_text: 'y = 3', new_text: '$& $1 $$' });
		expect(await overlay.readText('src/a.ts')).toContain('const $& $1 $$;');
		await call('edit_file', { path: 'win.txt', old_text: 'one\ntwo', new_text: 'uno\ndos' });
		expect(await overlay.readText('win.txt')).toBe('uno\r\ndos\r\n');
	});

	it('edit_file explains missing, ambiguous and empty matches', async () => {
		const { call } = await setup();
		const cases: [Record<string, unknown>, string][] = [
			[{ path: 'src/a.ts', old_text: 'nope', new_text: 'x' }, "edit_file: old_text not found in 'src/a.ts'"],
			[
				{ path: 'src/dup.ts', old_text: 'foo();', new_text: 'bar();' },
				"edit_file: old_text matches 3 times in 'src/dup.ts'; include more context",
			],
			[
				{ path: 'src/a.ts', old_text: ' = 1;', new_text: ' = 5;' },
				"edit_file: old_text matches 2 times in 'src/a.ts'; include more context",
			],
			[{ path: 'src/a.ts', old_text: '', new_text: 'x' }, "edit_file: 'old_text' must not be empty"],
			[{ path: 'missing.ts', old_text: 'a', new_text: 'b' }, "edit_file: 'missing.ts' does not exist"],
			[{ path: 'src/a.ts', old_text: 'a' }, "edit_file: 'new_text' must be a string"],
			[
				{ path: 'src/keep.ts', old_text: 'keep', new_text: 'k' },
				"edit_file: refused: 'src/keep.ts' is a protected path",
			],
		];
		for (const [args, text] of cases) expect(await call('edit_file', args)).toEqual({ text, isError: true });
	});

	it('delete_file records a deletion; deleting again fails', async () => {
		const { root, overlay, call, before } = await setup();
		expect(await call('delete_file', { path: 'src/dup.ts' })).toEqual({
			text: "deleted 'src/dup.ts'",
			isError: false,
			edit: { path: 'src/dup.ts', kind: 'delete' },
		});
		expect(await overlay.readText('src/dup.ts')).toBeNull();
		expect(await call('delete_file', { path: 'src/dup.ts' })).toEqual({
			text: "delete_file: 'src/dup.ts' does not exist",
			isError: true,
		});
		expect(await call('delete_file', { path: 'src' })).toMatchObject({
			text: "delete_file: 'src' is a directory (delete its files one by one)",
		});
		expect(hashTree(root)).toBe(before);
	});

	it('refuses unsafe targets with the path and the reason, leaving the disk untouched', async () => {
		const { root, call, before } = await setup();
		const cases: [string, Record<string, unknown>, string][] = [
			[
				'write_file',
				{ path: '../evil.sh', content: 'x' },
				"write_file: refused: '../evil.sh' is outside the workspace",
			],
			[
				'write_file',
				{ path: '.git/hooks/pre-commit', content: 'x' },
				"write_file: refused: '.git/hooks/pre-commit' is inside .git/ (repository internals are never touched)",
			],
			[
				'write_file',
				{ path: '.env', content: 'x' },
				"write_file: refused: '.env' is a secret path (matches '.env*'): agents never read, list, search, copy or write secret files, and no tool argument can allow it",
			],
			[
				'write_file',
				{ path: 'src/keep.ts', content: 'x' },
				"write_file: refused: 'src/keep.ts' is a protected path",
			],
			['write_file', { path: 'src/a.ts' }, "write_file: 'content' must be a string"],
			['write_file', { path: 'src', content: 'x' }, "write_file: 'src' is a directory"],
			[
				'delete_file',
				{ path: '.massgen/runs/x' },
				"delete_file: refused: '.massgen/runs/x' is inside .massgen/ (MassGen's own run data is never touched)",
			],
		];
		for (const [name, args, text] of cases) expect(await call(name, args)).toEqual({ text, isError: true });
		expect(hashTree(root)).toBe(before);
	});
});
