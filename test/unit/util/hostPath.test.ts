/** The PATH host tools are found on leaves out what the workspace controls (real fs, real links). */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hostEnvironment, hostPath } from '../../../src/core/util/hostPath.js';

const base = mkdtempSync(join(tmpdir(), 'massgen-hostpath-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const root = join(base, 'repo');
const bins = join(root, 'node_modules', '.bin');
mkdirSync(bins, { recursive: true });
const tools = join(base, 'tools');
mkdirSync(tools);
const linkToBins = join(base, 'looks-outside');
symlinkSync(bins, linkToBins);

describe('hostPath', () => {
	it('keeps system folders and drops workspace folders, relative entries and links into the workspace', () => {
		const path = [
			'/usr/local/bin',
			bins,
			'.',
			'',
			'bin',
			join(root, '.venv', 'bin'),
			linkToBins,
			tools,
			'/usr/bin',
		];
		expect(hostPath(path.join(delimiter), root).split(delimiter)).toEqual([
			'/usr/local/bin',
			tools,
			'/usr/bin',
		]);
	});

	it('also when the workspace itself is reached through a link', () => {
		const rootLink = join(base, 'repo-link');
		symlinkSync(root, rootLink);
		expect(hostPath([bins, tools].join(delimiter), rootLink)).toBe(tools);
	});

	it('hostEnvironment changes PATH only', () => {
		const env = { PATH: [bins, tools].join(delimiter), HOME: '/home/u', OPENAI_API_KEY: 'k' };
		expect(hostEnvironment(env, root)).toEqual({ PATH: tools, HOME: '/home/u', OPENAI_API_KEY: 'k' });
		expect(hostEnvironment({ HOME: '/home/u' }, root)).toEqual({ HOME: '/home/u' });
	});

	it('a package of a monorepo: the repository root’s folders and any node_modules/.bin are left out too', () => {
		const repo = join(base, 'mono');
		const pkg = join(repo, 'packages', 'app');
		mkdirSync(join(repo, '.git'), { recursive: true });
		mkdirSync(join(repo, 'node_modules', '.bin'), { recursive: true });
		mkdirSync(join(repo, 'scripts'), { recursive: true });
		mkdirSync(pkg, { recursive: true });
		const elsewhere = join(base, 'other', 'node_modules', '.bin');
		const path = [join(repo, 'node_modules', '.bin'), join(repo, 'scripts'), elsewhere, tools].join(
			delimiter,
		);
		expect(hostPath(path, pkg)).toBe(tools);
	});
});
