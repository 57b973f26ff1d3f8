import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInside, isRootOrInside, readOrNull } from '../../../src/core/util/paths.js';

describe('isInside', () => {
	it('is strict: the root itself is not inside', () => {
		expect(isInside('/a/b', '/a/b/c.yaml')).toBe(true);
		expect(isInside('/a/b', '/a/b')).toBe(false);
		expect(isInside('/a/b', '/a/b/')).toBe(false);
	});

	it('compares path segments after resolving, not prefixes', () => {
		expect(isInside('/a/b', '/a/bc/x.yaml')).toBe(false);
		expect(isInside('/a/b', '/a/b/../c/x.yaml')).toBe(false);
		expect(isInside('/a/b', '/a')).toBe(false);
		expect(isInside('/a/b/', '/a/b/./c')).toBe(true);
	});
});

describe('isRootOrInside', () => {
	// Moved from chooseTeamConfig.test.ts (its `isInside(file, root)` took the file first).
	it('compares path segments, not prefixes', () => {
		expect(isRootOrInside('/a/b', '/a/b/c.yaml')).toBe(true);
		expect(isRootOrInside('/a/b', '/a/b')).toBe(true);
		expect(isRootOrInside('/a/b', '/a/bc/x.yaml')).toBe(false);
		expect(isRootOrInside('/a/b', '/a/b/../c/x.yaml')).toBe(false);
	});

	it('counts the root however it is spelled', () => {
		expect(isRootOrInside('/a/b', '/a/b/')).toBe(true);
		expect(isRootOrInside('/a/b', '/a/b/c/..')).toBe(true);
		expect(isRootOrInside('/a/b', '/a')).toBe(false);
	});
});

describe('readOrNull', () => {
	let dir: string;
	beforeAll(async () => {
		dir = await mkdtemp(join(tmpdir(), 'massgen-paths-'));
		await writeFile(join(dir, 'f.txt'), 'héllo\n', 'utf8');
		await mkdir(join(dir, 'sub'));
	});
	afterAll(() => rm(dir, { recursive: true, force: true }));

	it('reads UTF-8 text', async () => {
		expect(await readOrNull(join(dir, 'f.txt'))).toBe('héllo\n');
	});

	it('is null when there is no readable file', async () => {
		expect(await readOrNull(join(dir, 'missing.txt'))).toBeNull();
		expect(await readOrNull(join(dir, 'f.txt', 'below'))).toBeNull();
		expect(await readOrNull(join(dir, 'sub'))).toBeNull();
	});
});
