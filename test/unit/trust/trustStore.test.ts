import {
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultTrustStorePath, FileTrustStore } from '../../../src/cli/trustStore.js';

const entry = (hash: string) => ({ hash, trustedAt: '2026-01-01T00:00:00.000Z', items: ['  x'] });

describe('the CLI trust store', () => {
	it("lives beside the permission store in the user's config folder", () => {
		expect(defaultTrustStorePath({ XDG_CONFIG_HOME: '/cfg' })).toBe('/cfg/massgen/trusted-folders.json');
		expect(defaultTrustStorePath({ HOME: '/home/u' })).toBe('/home/u/.config/massgen/trusted-folders.json');
	});

	it('is keyed by the real path: a folder link that now points elsewhere finds no entry', () => {
		const base = mkdtempSync(join(tmpdir(), 'massgen-store-'));
		const [a, b] = [join(base, 'a'), join(base, 'b')];
		mkdirSync(a);
		mkdirSync(b);
		const link = join(base, 'repo');
		symlinkSync(a, link);
		const store = new FileTrustStore(join(base, 'cfg', 'massgen', 'trusted-folders.json'));
		store.set(link, entry('h1'));
		expect(store.get(a)?.hash).toBe('h1');
		expect(Object.keys(store.list())).toEqual([a]);
		rmSync(link);
		symlinkSync(b, link);
		expect(store.get(link)).toBeUndefined();
		expect(store.get(join(base, 'missing'))).toBeUndefined();
	});

	it('writes atomically with mode 0600 and leaves no temporary file; removes; survives a hostile file', () => {
		const base = mkdtempSync(join(tmpdir(), 'massgen-store-'));
		const file = join(base, 'trusted-folders.json');
		const store = new FileTrustStore(file);
		store.set(base, entry('h1'));
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(readdirSync(base).filter((name) => name.endsWith('.tmp'))).toEqual([]);
		expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ [base]: entry('h1') });
		expect(store.remove(base)).toBe(true);
		expect(store.remove(base)).toBe(false);
		// A `__proto__` key or junk entries do not poison lookups.
		writeFileSync(file, `{"__proto__": {"hash": "x"}, "${base}": {"hash": 5}, "/z": "junk"}`);
		expect(store.get(base)).toBeUndefined();
		expect(Object.keys(store.list())).toEqual(['__proto__']);
		writeFileSync(file, 'not json');
		expect(store.get(base)).toBeUndefined();
	});
});
