import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { PathRefusedError } from '../../../src/core/workspace/pathRefusedError.js';
import type { PathMode, ResolvedPath } from '../../../src/core/workspace/types.js';
import { hashTree, makeTree, removeTrees } from '../../support/tempTree.js';

afterEach(removeTrees);

async function setup() {
	const root = await makeTree({
		'src/a.ts': 'export const a = 1;\n',
		'src/keep.ts': 'keep\n',
		'locked/inner.txt': 'x',
		'.git/config': '[core]\n',
		'sub/.git/config': '[core]\n',
		'.massgen/runs/x': '{}',
		'.env': 'KEY=1\n',
		'.env.production': 'KEY=2\n',
		'.gitignore': 'dist/\n',
	});
	const outside = await makeTree({ 'secret.txt': 'top secret', 'dir/file.txt': 'outside' });
	await symlink(join(outside, 'secret.txt'), join(root, 'link-out.txt'));
	await symlink(join(outside, 'dir'), join(root, 'dir-out'));
	await symlink(join(root, 'src'), join(root, 'src-link'));
	await symlink(join(root, '.git', 'config'), join(root, 'git-link'));
	await symlink(join(root, 'missing-target'), join(root, 'dangling'));
	const workspace = await createWorkspace(root, { protectedPaths: ['src/keep.ts', 'locked'] });
	return { root, outside, workspace };
}

function reasonOf(result: ResolvedPath): string {
	return result.ok ? '(allowed)' : result.reason;
}

describe('Workspace.resolve', () => {
	const refusals: [string, PathMode, string][] = [
		['../x', 'read', "refused: '../x' is outside the workspace"],
		['../../etc/passwd', 'read', "refused: '../../etc/passwd' is outside the workspace"],
		['src/../../x', 'write', "refused: 'src/../../x' is outside the workspace"],
		['..\\x', 'read', "refused: '../x' is outside the workspace"],
		['/etc/passwd', 'read', "refused: '/etc/passwd' is outside the workspace"],
		[
			'.git/config',
			'read',
			"refused: '.git/config' is inside .git/ (repository internals are never touched)",
		],
		['.git', 'read', "refused: '.git' is inside .git/ (repository internals are never touched)"],
		[
			'sub/.git/config',
			'write',
			"refused: 'sub/.git/config' is inside .git/ (repository internals are never touched)",
		],
		['a/.git/x', 'write', "refused: 'a/.git/x' is inside .git/ (repository internals are never touched)"],
		[
			'.GIT/config',
			'read',
			"refused: '.GIT/config' is inside .git/ (repository internals are never touched)",
		],
		[
			'.massgen/runs/x',
			'read',
			"refused: '.massgen/runs/x' is inside .massgen/ (MassGen's own run data is never touched)",
		],
		[
			'.env',
			'read',
			"refused: '.env' is a secret path (matches '.env*'): agents never read, list, search, copy or write secret files, and no tool argument can allow it",
		],
		[
			'.env',
			'write',
			"refused: '.env' is a secret path (matches '.env*'): agents never read, list, search, copy or write secret files, and no tool argument can allow it",
		],
		[
			'.env.production',
			'read',
			"refused: '.env.production' is a secret path (matches '.env*'): agents never read, list, search, copy or write secret files, and no tool argument can allow it",
		],
		[
			'config/.env.local',
			'write',
			"refused: 'config/.env.local' is a secret path (matches '.env*'): agents never read, list, search, copy or write secret files, and no tool argument can allow it",
		],
		['src/keep.ts', 'write', "refused: 'src/keep.ts' is a protected path"],
		['./src//keep.ts', 'write', "refused: './src//keep.ts' is a protected path"],
		['locked/inner.txt', 'write', "refused: 'locked/inner.txt' is a protected path"],
		['locked/new.txt', 'write', "refused: 'locked/new.txt' is a protected path"],
		['link-out.txt', 'read', "refused: 'link-out.txt' resolves outside the workspace through a symlink"],
		[
			'dir-out/file.txt',
			'read',
			"refused: 'dir-out/file.txt' resolves outside the workspace through a symlink",
		],
		[
			'dir-out/new.txt',
			'write',
			"refused: 'dir-out/new.txt' resolves outside the workspace through a symlink",
		],
		['dangling', 'write', "refused: 'dangling' is a symlink that cannot be resolved"],
		['', 'read', 'refused: the path is empty'],
	];
	for (const [path, mode, reason] of refusals) {
		it(`refuses ${mode} of '${path}'`, async () => {
			const { workspace } = await setup();
			expect(reasonOf(await workspace.resolve(path, mode))).toBe(reason);
		});
	}

	it('refuses an absolute path outside the root and a symlink into .git/', async () => {
		const { workspace, outside } = await setup();
		expect(reasonOf(await workspace.resolve(join(outside, 'secret.txt'), 'read'))).toBe(
			`refused: '${join(outside, 'secret.txt')}' is outside the workspace`,
		);
		expect(reasonOf(await workspace.resolve('git-link', 'read'))).toMatch(
			/^refused: 'git-link' is inside \.git\//,
		);
	});

	it('allows relative, absolute, backslashed and in-root symlinked paths', async () => {
		const { root, workspace } = await setup();
		expect(await workspace.resolve('src/a.ts', 'read')).toEqual({
			ok: true,
			path: 'src/a.ts',
			absolute: join(workspace.root, 'src/a.ts'),
		});
		expect(await workspace.resolve(join(root, 'src', 'a.ts'), 'write')).toMatchObject({
			ok: true,
			path: 'src/a.ts',
		});
		expect(await workspace.resolve('src\\new\\b.ts', 'write')).toMatchObject({
			ok: true,
			path: 'src/new/b.ts',
		});
		expect(await workspace.resolve('./src/../src/a.ts', 'read')).toMatchObject({
			ok: true,
			path: 'src/a.ts',
		});
		expect(await workspace.resolve('src-link/a.ts', 'read')).toMatchObject({
			ok: true,
			path: 'src-link/a.ts',
		});
		expect(await workspace.resolve('.', 'read')).toMatchObject({ ok: true, path: '.' });
		expect(await workspace.resolve('.gitignore', 'write')).toMatchObject({ ok: true });
		expect(await workspace.resolve('src/keep.ts', 'read')).toMatchObject({ ok: true });
		expect(await workspace.resolve('.environment.md', 'read')).toMatchObject({ ok: true });
	});

	it('overlay listings hide refused entries and links that lead out', async () => {
		const { workspace } = await setup();
		const names = (await workspace.createOverlay().list('.')).map((entry) => `${entry.name}:${entry.kind}`);
		expect(names).toEqual([
			'.gitignore:file',
			'locked:directory',
			'src:directory',
			'src-link:directory',
			'sub:directory',
		]);
	});

	it('rejects protected paths outside the root at creation', async () => {
		const root = await makeTree();
		await expect(createWorkspace(root, { protectedPaths: ['../elsewhere'] })).rejects.toThrow(
			/outside the workspace/,
		);
	});

	it('overlay operations on refused paths throw PathRefusedError and never touch the disk', async () => {
		const { root, outside, workspace } = await setup();
		const before = [hashTree(root), hashTree(outside)];
		const overlay = workspace.createOverlay();
		const attempts: [string, () => Promise<unknown>][] = [
			['../x', () => overlay.write('../x', 'pwned')],
			['/etc/passwd', () => overlay.write('/etc/passwd', 'pwned')],
			['link-out.txt', () => overlay.write('link-out.txt', 'pwned')],
			['link-out.txt', () => overlay.readText('link-out.txt')],
			['dir-out/x', () => overlay.write('dir-out/x', 'pwned')],
			['.git/config', () => overlay.delete('.git/config')],
			['.env', () => overlay.readText('.env')],
			['src/keep.ts', () => overlay.delete('src/keep.ts')],
			['.massgen', () => overlay.list('.massgen')],
		];
		for (const [path, attempt] of attempts) {
			const error = await attempt().then(
				() => null,
				(caught: unknown) => caught,
			);
			expect(PathRefusedError.is(error), path).toBe(true);
			expect((error as PathRefusedError).reason).toContain(`'${path}'`);
		}
		await overlay.write('src/a.ts', 'changed');
		await overlay.write('brand/new/file.ts', 'new');
		await overlay.delete('.gitignore');
		await overlay.changes();
		expect([hashTree(root), hashTree(outside)]).toEqual(before);
	});
});
