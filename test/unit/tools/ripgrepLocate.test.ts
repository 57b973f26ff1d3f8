/** Where a run finds its ripgrep: the editor's bundled one, `MASSGEN_RIPGREP`, or `rg` on PATH. */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ripgrepInEditor, ripgrepOnPath } from '../../../src/core/util/ripgrepBinary.js';
import { makeTree, removeTrees } from '../../support/tempTree.js';

afterEach(removeTrees);

async function binaryAt(path: string): Promise<string> {
	await mkdir(join(path, '..'), { recursive: true });
	await writeFile(path, '#!/bin/sh\n');
	await chmod(path, 0o755);
	return path;
}

describe('locating ripgrep', () => {
	it('finds the editor’s @vscode/ripgrep under its appRoot, unpacked from asar or not', async () => {
		const plain = await makeTree();
		const rg = await binaryAt(join(plain, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg'));
		expect(ripgrepInEditor(plain)).toBe(rg);
		const asar = await makeTree();
		const unpacked = await binaryAt(
			join(asar, 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', 'rg'),
		);
		expect(ripgrepInEditor(asar)).toBe(unpacked);
		expect(ripgrepInEditor(await makeTree())).toBeNull();
	});

	it('finds the editor’s @vscode/ripgrep-universal binary for this platform and architecture', async () => {
		const root = await makeTree();
		const universal = join(root, 'node_modules', '@vscode', 'ripgrep-universal', 'bin');
		const linuxX64 = await binaryAt(join(universal, 'linux-x64', 'rg'));
		const linuxArm64 = await binaryAt(join(universal, 'linux-arm64', 'rg'));
		const windows = await binaryAt(join(universal, 'win32-x64', 'rg.exe'));
		expect(ripgrepInEditor(root, 'linux', 'x64')).toBe(linuxX64);
		expect(ripgrepInEditor(root, 'linux', 'arm64')).toBe(linuxArm64);
		expect(ripgrepInEditor(root, 'win32', 'x64')).toBe(windows);
		expect(ripgrepInEditor(root, 'darwin', 'arm64')).toBeNull();
		const unpacked = await makeTree();
		const rg = await binaryAt(
			join(
				unpacked,
				'node_modules.asar.unpacked',
				'@vscode',
				'ripgrep-universal',
				'bin',
				'darwin-arm64',
				'rg',
			),
		);
		expect(ripgrepInEditor(unpacked, 'darwin', 'arm64')).toBe(rg);
	});

	it('takes MASSGEN_RIPGREP first (none = the walker), then the first rg on PATH', async () => {
		const empty = await makeTree();
		const withRg = await makeTree();
		const rg = await binaryAt(join(withRg, 'rg'));
		const PATH = [empty, withRg].join(delimiter);
		expect(ripgrepOnPath({ PATH })).toBe(rg);
		expect(ripgrepOnPath({ PATH: empty })).toBeNull();
		expect(ripgrepOnPath({ PATH, MASSGEN_RIPGREP: 'none' })).toBeNull();
		expect(ripgrepOnPath({ PATH, MASSGEN_RIPGREP: '/opt/rg' })).toBe('/opt/rg');
	});
});
