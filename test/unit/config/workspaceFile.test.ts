/** Which team config is the workspace's: by the path as given or by its real path (real fs, real links). */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isWorkspaceFile } from '../../../src/core/config/workspaceFile.js';

const base = mkdtempSync(join(tmpdir(), 'massgen-wsfile-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const root = join(base, 'repo');
mkdirSync(join(root, '.massgen'), { recursive: true });
writeFileSync(join(root, '.massgen', 'config.yaml'), 'agents: []\n');
const outside = join(base, 'mine.yaml');
writeFileSync(outside, 'agents: []\n');

describe('isWorkspaceFile', () => {
	it('a file below the root is the workspace’s, one beside it is not', () => {
		expect(isWorkspaceFile(root, join(root, '.massgen', 'config.yaml'))).toBe(true);
		expect(isWorkspaceFile(root, outside)).toBe(false);
		expect(isWorkspaceFile(root, join(root, '..', 'mine.yaml'))).toBe(false);
	});

	it('a workspace file reached by an outside path (a link, /proc/self/root) is still the workspace’s', () => {
		const link = join(base, 'link.yaml');
		symlinkSync(join(root, '.massgen', 'config.yaml'), link);
		expect(isWorkspaceFile(root, link)).toBe(true);
		if (process.platform === 'linux') {
			expect(isWorkspaceFile(root, `/proc/self/root${root}/.massgen/config.yaml`)).toBe(true);
		}
	});

	it('on a case-insensitive platform a case variant of the root is still the workspace (it fails with a plain comparison)', () => {
		const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
		Object.defineProperty(process, 'platform', { value: 'darwin' });
		try {
			expect(isWorkspaceFile(root, join(root.toUpperCase(), '.massgen', 'config.yaml'))).toBe(true);
			expect(isWorkspaceFile(root.toUpperCase(), outside)).toBe(false);
		} finally {
			Object.defineProperty(process, 'platform', platform);
		}
		// Control: Linux file names are case-sensitive, so there the variant is another file.
		expect(isWorkspaceFile(root, join(root.toUpperCase(), '.massgen', 'config.yaml'))).toBe(false);
	});

	it('a workspace on a package of a repository: the repository root’s config is the workspace’s too (not the user’s own)', () => {
		const repo = join(base, 'mono');
		const pkg = join(repo, 'packages', 'app');
		mkdirSync(join(repo, '.git'), { recursive: true });
		mkdirSync(join(repo, '.massgen'), { recursive: true });
		mkdirSync(pkg, { recursive: true });
		writeFileSync(join(repo, '.massgen', 'config.yaml'), 'agents: []\n');
		expect(isWorkspaceFile(pkg, join(pkg, '..', '..', '.massgen', 'config.yaml'))).toBe(true);
		// Control: a file beside the repository is not its.
		expect(isWorkspaceFile(pkg, outside)).toBe(false);
	});
});
