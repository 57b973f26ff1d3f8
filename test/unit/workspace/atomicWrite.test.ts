/**
 * `atomicWrite`: a reader never sees a partial file, the mode survives, a link planted at the
 * target or at the temporary name is never followed, and no temporary file outlives a failure.
 */
import { chmodSync, lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeTeamConfigFile } from '../../../src/core/team/writeTeamConfig.js';
import { atomicWrite, NotARegularFileError } from '../../../src/core/util/atomicWrite.js';
import { makeTree, removeTrees } from '../../support/tempTree.js';

/** The next temporary names `atomicWrite` draws (tests plant links there); empty = random as usual. */
const plantedSuffixes: Buffer[] = [];
vi.mock('node:crypto', async (original) => {
	const real = await original<typeof import('node:crypto')>();
	return {
		...real,
		randomBytes: (size: number) => plantedSuffixes.shift() ?? real.randomBytes(size),
	};
});

/** Makes the next rename fail once (a full disk, a folder that vanished): the failure path. */
let failNextRename = false;
/** A file system without hard links (FAT, some network shares). */
let noHardLinks = false;
vi.mock('node:fs/promises', async (original) => {
	const real = await original<typeof import('node:fs/promises')>();
	return {
		...real,
		link: async (from: string, to: string) => {
			if (noHardLinks) throw Object.assign(new Error('EPERM: injected'), { code: 'EPERM' });
			return real.link(from, to);
		},
		rename: async (from: string, to: string) => {
			if (failNextRename) {
				failNextRename = false;
				throw Object.assign(new Error('EIO: injected'), { code: 'EIO' });
			}
			return real.rename(from, to);
		},
	};
});

afterEach(removeTrees);

const names = (root: string) => readdirSync(root).sort();

describe('atomicWrite', () => {
	it('keeps the mode of the file it replaces (an executable script stays executable)', async () => {
		const root = await makeTree({ 'run.sh': '#!/bin/sh\necho old\n' });
		chmodSync(join(root, 'run.sh'), 0o755);
		await atomicWrite(join(root, 'run.sh'), '#!/bin/sh\necho new\n');
		expect(lstatSync(join(root, 'run.sh')).mode & 0o7777).toBe(0o755);
		expect(readFileSync(join(root, 'run.sh'), 'utf8')).toBe('#!/bin/sh\necho new\n');
		expect(names(root)).toEqual(['run.sh']);
	});

	it('refuses a symlink at the target and leaves what it points to alone', async () => {
		const root = await makeTree({ 'outside.txt': 'theirs\n' });
		symlinkSync(join(root, 'outside.txt'), join(root, 'app.js'));
		await expect(atomicWrite(join(root, 'app.js'), 'mine\n')).rejects.toBeInstanceOf(NotARegularFileError);
		expect(readFileSync(join(root, 'outside.txt'), 'utf8')).toBe('theirs\n');
		expect(lstatSync(join(root, 'app.js')).isSymbolicLink()).toBe(true);
		expect(names(root)).toEqual(['app.js', 'outside.txt']);
	});

	it('skips a link planted at the temporary name instead of writing through it', async () => {
		const root = await makeTree({ 'app.js': 'old\n', 'victim.txt': 'untouched\n' });
		const suffix = Buffer.from('aaaaaaaaaaaa', 'hex');
		const planted = join(root, `.app.js.${suffix.toString('hex')}.massgen-tmp`);
		symlinkSync(join(root, 'victim.txt'), planted);
		plantedSuffixes.push(suffix);
		await atomicWrite(join(root, 'app.js'), 'new\n');
		expect(readFileSync(join(root, 'app.js'), 'utf8')).toBe('new\n');
		expect(readFileSync(join(root, 'victim.txt'), 'utf8')).toBe('untouched\n');
		// Control: the planted name was really drawn (and left as it was).
		expect(plantedSuffixes).toEqual([]);
		expect(lstatSync(planted).isSymbolicLink()).toBe(true);
	});

	it('removes its temporary file when the rename fails, and the target keeps its text', async () => {
		const root = await makeTree({ 'app.js': 'old\n' });
		failNextRename = true;
		await expect(atomicWrite(join(root, 'app.js'), 'new\n')).rejects.toThrow('EIO');
		expect(readFileSync(join(root, 'app.js'), 'utf8')).toBe('old\n');
		expect(names(root)).toEqual(['app.js']);
	});

	it("'create' never replaces a file that exists", async () => {
		const root = await makeTree({ 'config.yaml': 'mine\n' });
		await expect(atomicWrite(join(root, 'config.yaml'), 'new\n', { flag: 'create' })).rejects.toMatchObject({
			code: 'EEXIST',
		});
		expect(readFileSync(join(root, 'config.yaml'), 'utf8')).toBe('mine\n');
		await atomicWrite(join(root, 'fresh.yaml'), 'new\n', { flag: 'create', mode: 0o640 });
		expect(readFileSync(join(root, 'fresh.yaml'), 'utf8')).toBe('new\n');
		expect(lstatSync(join(root, 'fresh.yaml')).mode & 0o777).toBe(0o640 & ~process.umask());
		expect(names(root)).toEqual(['config.yaml', 'fresh.yaml']);
	});

	it("'create' without hard links: still never replaces a file that exists, and leaves no temporary file", async () => {
		noHardLinks = true;
		try {
			const root = await makeTree({ 'config.yaml': 'mine\n' });
			await expect(atomicWrite(join(root, 'config.yaml'), 'new\n', { flag: 'create' })).rejects.toMatchObject(
				{
					code: 'EEXIST',
				},
			);
			await atomicWrite(join(root, 'fresh.yaml'), 'new\n', { flag: 'create' });
			expect(readFileSync(join(root, 'config.yaml'), 'utf8')).toBe('mine\n');
			expect(readFileSync(join(root, 'fresh.yaml'), 'utf8')).toBe('new\n');
			expect(names(root)).toEqual(['config.yaml', 'fresh.yaml']);
		} finally {
			noHardLinks = false;
		}
	});

	it('a reader polling the file during large rewrites only ever sees a whole version', async () => {
		const root = await makeTree();
		const file = join(root, 'big.txt');
		// Different lengths: an in-place rewrite would show a truncated file or one version's tail after the other.
		const versions = ['a'.repeat(3 << 20), 'b'.repeat(2 << 20) + '\n'];
		writeFileSync(file, versions[0]!);
		let writing = true;
		const seen = new Set<number>();
		let reads = 0;
		const reader = (async () => {
			while (writing) {
				const text = await readFile(file, 'utf8');
				reads++;
				seen.add(versions.indexOf(text));
			}
		})();
		for (let i = 0; i < 30; i++) await atomicWrite(file, versions[(i + 1) % 2]!);
		writing = false;
		await reader;
		expect(reads).toBeGreaterThan(0);
		expect([...seen].every((index) => index >= 0)).toBe(true);
		expect(names(root)).toEqual(['big.txt']);
	});

	it("massgen init's config write goes through it: a repository's config.yaml link is refused, not followed", async () => {
		const root = await makeTree({ 'home/.bashrc': 'export PATH\n', 'repo/.massgen/keep': '' });
		symlinkSync(join(root, 'home/.bashrc'), join(root, 'repo/.massgen/config.yaml'));
		for (const overwrite of [false, true]) {
			await expect(
				writeTeamConfigFile(join(root, 'repo/.massgen/config.yaml'), 'agents: []\n', overwrite),
			).rejects.toBeInstanceOf(NotARegularFileError);
		}
		expect(readFileSync(join(root, 'home/.bashrc'), 'utf8')).toBe('export PATH\n');
		expect(names(join(root, 'repo/.massgen'))).toEqual(['config.yaml', 'keep']);
		// Control: a plain file there is replaced when told to, and keeps its mode.
		writeFileSync(join(root, 'repo/.massgen/team.yaml'), 'old\n', { mode: 0o600 });
		expect(await writeTeamConfigFile(join(root, 'repo/.massgen/team.yaml'), 'new\n', true)).toBe('written');
		expect(lstatSync(join(root, 'repo/.massgen/team.yaml')).mode & 0o777).toBe(0o600);
	});
});
