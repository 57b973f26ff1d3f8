import { truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolbox } from '../../../src/core/tools/createToolbox.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { makeTree, removeTrees } from '../../support/tempTree.js';

afterEach(removeTrees);

const signal = new AbortController().signal;

async function setup(options: { writable?: boolean; maxReadBytes?: number } = {}) {
	const root = await makeTree({
		'README.md': '# hi\n',
		'src/a.ts': 'export const a = 1;\n',
		'src/empty.ts': '',
		'big.txt': 'x'.repeat(100) + 'é'.repeat(50),
		'image.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]),
		'.env.local': 'KEY=1\n',
		'.git/config': '[core]\n',
	});
	const workspace = await createWorkspace(root, { maxReadBytes: options.maxReadBytes });
	const overlay = workspace.createOverlay();
	const toolbox = createToolbox({ overlay, writable: options.writable ?? false });
	const call = (name: string, args: Record<string, unknown>) => toolbox.execute(name, args, signal);
	return { root, overlay, toolbox, call };
}

describe('toolbox', () => {
	it('offers read tools only, unless writable or given answers', async () => {
		const { overlay, toolbox } = await setup();
		expect(toolbox.definitions.map((tool) => tool.name)).toEqual([
			'read_file',
			'list_directory',
			'search_files',
		]);
		expect(toolbox.has('write_file')).toBe(false);
		const full = createToolbox({
			overlay,
			writable: true,
			answers: new Map([['agent1', { edits: new Map() }]]),
		});
		expect(full.definitions.map((tool) => tool.name)).toEqual([
			'read_file',
			'list_directory',
			'search_files',
			'write_file',
			'edit_file',
			'delete_file',
			'view_answer_changes',
		]);
		expect(createToolbox({ overlay, writable: false, answers: new Map() }).has('view_answer_changes')).toBe(
			false,
		);
		for (const definition of full.definitions) {
			expect(definition.parameters).toMatchObject({ type: 'object' });
			expect(definition.description.length).toBeGreaterThan(20);
		}
		expect(full.definitions.find((tool) => tool.name === 'edit_file')?.parameters).toMatchObject({
			required: ['path', 'old_text', 'new_text'],
		});
	});

	it('reports unknown or unavailable tools and bad arguments as errors, never throwing', async () => {
		const { call } = await setup();
		expect(await call('write_file', { path: 'x', content: 'y' })).toEqual({
			text: "unknown tool 'write_file'; available tools: read_file, list_directory, search_files",
			isError: true,
		});
		expect(await call('read_file', {})).toEqual({
			text: "read_file: 'path' must be a string",
			isError: true,
		});
		expect(await call('read_file', { path: 42 })).toEqual({
			text: "read_file: 'path' must be a string",
			isError: true,
		});
		expect(await call('read_file', null as unknown as Record<string, unknown>)).toMatchObject({
			isError: true,
		});
		expect(await call('list_directory', { path: null })).toMatchObject({ isError: false });
	});

	it('returns an error outcome when the call is already cancelled', async () => {
		const { toolbox } = await setup();
		const controller = new AbortController();
		controller.abort();
		expect(await toolbox.execute('read_file', { path: 'README.md' }, controller.signal)).toEqual({
			text: 'read_file: cancelled',
			isError: true,
		});
	});
});

describe('read_file', () => {
	it('reads text, including the overlay’s own edits', async () => {
		const { call, overlay } = await setup();
		expect(await call('read_file', { path: 'src/a.ts' })).toEqual({
			text: 'export const a = 1;\n',
			isError: false,
		});
		await overlay.write('src/a.ts', 'changed\n');
		expect((await call('read_file', { path: './src/a.ts' })).text).toBe('changed\n');
		expect((await call('read_file', { path: 'src/empty.ts' })).text).toBe("('src/empty.ts' is empty)");
	});

	it('explains missing files, directories, binaries, secrets and escapes', async () => {
		const { call } = await setup();
		const errors: [string, string][] = [
			['nope.ts', "read_file: 'nope.ts' does not exist"],
			['src', "read_file: 'src' is a directory (use list_directory)"],
			['image.png', "read_file: 'image.png' is a binary file (only text files can be read)"],
			[
				'.env.local',
				"read_file: refused: '.env.local' is a secret path (matches '.env*'): agents never read, list, search, copy or write secret files, and no tool argument can allow it",
			],
			[
				'.git/config',
				"read_file: refused: '.git/config' is inside .git/ (repository internals are never touched)",
			],
			['../outside', "read_file: refused: '../outside' is outside the workspace"],
		];
		for (const [path, text] of errors) {
			expect(await call('read_file', { path })).toEqual({ text, isError: true });
		}
	});

	it('truncates files over maxReadBytes with a note, without splitting characters', async () => {
		const { call } = await setup({ maxReadBytes: 105 });
		const { text, isError } = await call('read_file', { path: 'big.txt' });
		expect(isError).toBe(false);
		expect(
			text.startsWith(
				`${'x'.repeat(100)}éé\n\n[line 1 of 1 in 'big.txt' has 200 bytes; only the first 105 are shown.`,
			),
		).toBe(true);
	});

	it('reads line ranges with offset/limit and says which lines it shows', async () => {
		const root = await makeTree({
			'log.txt': Array.from({ length: 10 }, (_, i) => `line ${i + 1}\n`).join(''),
		});
		const toolbox = createToolbox({
			overlay: (await createWorkspace(root)).createOverlay(),
			writable: false,
		});
		const read = (args: Record<string, unknown>) =>
			toolbox.execute('read_file', { path: 'log.txt', ...args }, signal);
		expect((await read({ offset: 3, limit: 2 })).text).toBe(
			"line 3\nline 4\n\n[lines 3-4 of 10 in 'log.txt'. Read on with offset: 5.]",
		);
		expect((await read({ offset: 9 })).text).toBe("line 9\nline 10\n\n[lines 9-10 of 10 in 'log.txt'.]");
		expect((await read({ limit: 1 })).text).toBe(
			"line 1\n\n[lines 1-1 of 10 in 'log.txt'. Read on with offset: 2.]",
		);
		expect(await read({ offset: 11 })).toEqual({
			text: "read_file: 'log.txt' has 10 line(s); offset 11 is past the end",
			isError: true,
		});
		expect((await read({ offset: 0 })).isError).toBe(true);
		expect((await read({ limit: 1.5 })).isError).toBe(true);
	});

	it('refuses a 200 MB file without loading it', async () => {
		const root = await makeTree({});
		// Sparse: 200 MB long, no disk used. It used to be read whole (890 MB RSS).
		await writeFile(join(root, 'dump.sql'), '');
		await truncate(join(root, 'dump.sql'), 200 * 1024 * 1024);
		const toolbox = createToolbox({
			overlay: (await createWorkspace(root)).createOverlay(),
			writable: false,
		});
		const rssBefore = process.memoryUsage().rss;
		const outcome = await toolbox.execute('read_file', { path: 'dump.sql' }, signal);
		expect(process.memoryUsage().rss - rssBefore).toBeLessThan(50 * 1024 * 1024);
		expect(outcome.isError).toBe(true);
		expect(outcome.text).toMatch(
			/^read_file: 'dump\.sql' is 200\.0 MiB \(209715200 bytes\), over the 8\.0 MiB limit/,
		);
	});

	it('shows whole lines up to the cap of a large file, then tells how to read on', async () => {
		const lines = Array.from({ length: 50_000 }, (_, i) => `row ${String(i + 1).padStart(5, '0')}\n`);
		const root = await makeTree({ 'data.csv': lines.join('') });
		const workspace = await createWorkspace(root, { maxReadBytes: 1000 });
		const toolbox = createToolbox({ overlay: workspace.createOverlay(), writable: false });
		const first = await toolbox.execute('read_file', { path: 'data.csv' }, signal);
		// 10 bytes a line: 100 whole lines fit in 1,000 bytes.
		expect(first.text).toBe(
			`${lines.slice(0, 100).join('')}\n[lines 1-100 of 50000 in 'data.csv'. Read on with offset: 101.]`,
		);
		const next = await toolbox.execute('read_file', { path: 'data.csv', offset: 49_999 }, signal);
		expect(next.text).toBe("row 49999\nrow 50000\n\n[lines 49999-50000 of 50000 in 'data.csv'.]");
	});
});

describe('list_directory', () => {
	it('lists the root by default, folders with a slash, overlay edits merged', async () => {
		const { call, overlay } = await setup({ writable: true });
		expect(await call('list_directory', {})).toEqual({
			text: 'README.md\nbig.txt\nimage.png\nsrc/',
			isError: false,
		});
		await overlay.write('docs/intro.md', 'hi\n');
		await overlay.delete('big.txt');
		expect((await call('list_directory', { path: '.' })).text).toBe('README.md\ndocs/\nimage.png\nsrc/');
		expect((await call('list_directory', { path: 'src' })).text).toBe('a.ts\nempty.ts');
	});

	it('explains missing paths, files and refusals', async () => {
		const { call } = await setup();
		expect(await call('list_directory', { path: 'nope' })).toEqual({
			text: "list_directory: 'nope' does not exist",
			isError: true,
		});
		expect((await call('list_directory', { path: 'README.md' })).text).toBe(
			"list_directory: 'README.md' is a file, not a directory",
		);
		expect((await call('list_directory', { path: '.git' })).text).toBe(
			"list_directory: refused: '.git' is inside .git/ (repository internals are never touched)",
		);
	});
});
