import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinSecretPaths, secretPaths } from '../../../src/core/workspace/secretPaths.js';
import {
	listFilesWithRipgrep,
	WorkspaceFileList,
	workspaceEntries,
} from '../../../src/vscode/context/workspaceFileList.js';

// The real ripgrep (apt's; VS Code ships the same binary under its appRoot).
const rg = '/usr/bin/rg';

let root: string;
const write = (path: string, text = 'x') => {
	mkdirSync(dirname(join(root, path)), { recursive: true });
	writeFileSync(join(root, path), text);
};

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), 'massgen-files-'));
	write('.gitignore', 'dist/\n*.log\n');
	write('src/core/orchestrator.ts');
	write('src/vscode/view.ts');
	write('README.md');
	write('.github/workflows/ci.yml');
	write('dist/extension.js');
	write('debug.log');
	write('node_modules/x/index.js');
	write('.env', 'API_KEY=sk-123');
	write('config/.env.local', 'TOKEN=1');
	write('.ssh/id_rsa', 'key');
	write('keys/server.pem', 'pem');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('workspace file list (# completion)', () => {
	it('lists files as rg --files does: .gitignore respected, hidden files in, node_modules out', async () => {
		const files = await listFilesWithRipgrep(rg, root);
		expect(files.sort()).toEqual(
			[
				'.env',
				'.github/workflows/ci.yml',
				'.gitignore',
				'.ssh/id_rsa',
				'README.md',
				'config/.env.local',
				'keys/server.pem',
				'src/core/orchestrator.ts',
				'src/vscode/view.ts',
			].sort(),
		);
	});

	it('never offers a secret path, nor a secret folder, and adds the folders above each file that is not secret', async () => {
		const entries = workspaceEntries(await listFilesWithRipgrep(rg, root), builtinSecretPaths);
		const paths = entries.map((entry) => `${entry.path}${entry.folder ? '/' : ''}`).sort();
		expect(paths).toEqual(
			[
				'.github/',
				'.github/workflows/',
				'.github/workflows/ci.yml',
				'.gitignore',
				'README.md',
				'src/',
				'src/core/',
				'src/core/orchestrator.ts',
				'src/vscode/',
				'src/vscode/view.ts',
			].sort(),
		);
		const user = workspaceEntries(['src/a.ts', 'private/notes.md'], secretPaths(['private']));
		expect(user.map((entry) => entry.path)).toEqual(['src/a.ts', 'src']);
	});

	it('matches fuzzily, best first, and offers top-level entries for an empty query', async () => {
		const list = new WorkspaceFileList(
			() => listFilesWithRipgrep(rg, root),
			() => builtinSecretPaths,
		);
		expect((await list.search('orch', 5)).map((entry) => entry.path)).toEqual(['src/core/orchestrator.ts']);
		expect((await list.search('vsview', 5))[0]).toEqual({ path: 'src/vscode/view.ts', folder: false });
		expect((await list.search('src', 2)).map((entry) => entry.path)).toEqual(['src', 'src/core']);
		expect(await list.search('.env', 10)).toEqual([]);
		expect(await list.search('id_rsa', 10)).toEqual([]);
		expect((await list.search('', 10)).map((entry) => entry.path)).toEqual([
			'.github',
			'src',
			'.gitignore',
			'README.md',
		]);
	});

	it('reads the workspace once, and again after invalidate', async () => {
		let listings = 0;
		const list = new WorkspaceFileList(
			() => {
				listings += 1;
				return listFilesWithRipgrep(rg, root);
			},
			() => builtinSecretPaths,
		);
		await list.search('a', 5);
		await list.search('b', 5);
		expect(listings).toBe(1);
		write('src/added.ts');
		expect(await list.search('added', 5)).toEqual([]);
		list.invalidate();
		expect((await list.search('added', 5)).map((entry) => entry.path)).toEqual(['src/added.ts']);
		expect(listings).toBe(2);
	});

	it('stops at the limit, and a failed listing is retried at the next search', async () => {
		expect(await listFilesWithRipgrep(rg, root, 2)).toHaveLength(2);
		await expect(listFilesWithRipgrep(join(root, 'no-rg'), root)).rejects.toThrow();
		let fail = true;
		const list = new WorkspaceFileList(
			() => (fail ? Promise.reject(new Error('rg is gone')) : Promise.resolve(['a.ts'])),
			() => builtinSecretPaths,
		);
		await expect(list.search('a', 5)).rejects.toThrow('rg is gone');
		fail = false;
		expect(await list.search('a', 5)).toEqual([{ path: 'a.ts', folder: false }]);
	});
});
