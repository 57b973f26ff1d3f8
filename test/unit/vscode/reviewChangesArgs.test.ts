import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	checkedOutPullRequest,
	sourceFromArgument,
} from '../../../src/vscode/codeReview/reviewChangesArgs.js';

describe('Review Changes: arguments', () => {
	it('reads the diff a command argument names; anything else asks', () => {
		expect(sourceFromArgument('working')).toBe('working-tree');
		expect(sourceFromArgument('working-tree')).toBe('working-tree');
		expect(sourceFromArgument('staged')).toBe('staged');
		expect(sourceFromArgument('main..HEAD')).toBe('main..HEAD');
		expect(sourceFromArgument({ source: 'origin/main..feature~2' })).toBe('origin/main..feature~2');
		// Source Control resource groups of the git extension.
		expect(sourceFromArgument({ id: 'index', label: 'Staged Changes' })).toBe('staged');
		expect(sourceFromArgument({ id: 'workingTree' })).toBe('working-tree');
		expect(sourceFromArgument({ id: 'merge' })).toBeUndefined();
		expect(sourceFromArgument({ id: 'untracked' })).toBeUndefined();
		// Not a plain range: an option, three dots, a pathspec.
		expect(sourceFromArgument('--output=/tmp/x..HEAD')).toBeUndefined();
		expect(sourceFromArgument('main...HEAD')).toBeUndefined();
		expect(sourceFromArgument('main..HEAD -- :(top)')).toBeUndefined();
		expect(sourceFromArgument(undefined)).toBeUndefined();
		expect(sourceFromArgument({ rootUri: 'file:///x' })).toBeUndefined();
	});

	it("reads the GitHub Pull Requests extension's repository description, checked", () => {
		expect(
			checkedOutPullRequest({
				owner: 'o',
				repositoryName: 'r',
				defaultBranch: 'main',
				pullRequest: { title: 'Fix\n the  loop', url: 'https://x', number: 12, id: 99 },
			}),
		).toEqual({ number: 12, title: 'Fix the loop', defaultBranch: 'main' });
		expect(checkedOutPullRequest({ defaultBranch: 'main' })).toBeUndefined();
		expect(checkedOutPullRequest(undefined)).toBeUndefined();
		expect(
			checkedOutPullRequest({ defaultBranch: '--upload-pack=x', pullRequest: { number: 1, title: 't' } }),
		).toBeUndefined();
		expect(
			checkedOutPullRequest({ defaultBranch: 'main', pullRequest: { number: -1, title: 't' } }),
		).toBeUndefined();
	});
});

describe('Review Changes in the Source Control view (manifest)', () => {
	const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
		contributes: { menus: Record<string, { command: string; when?: string }[]> };
	};
	const entry = (menu: string) =>
		manifest.contributes.menus[menu]?.find((item) => item.command === 'massgen.reviewGitChanges');

	it('is in the git repository title menu and on the Changes and Staged Changes groups, whose ids the command reads', () => {
		expect(entry('scm/title')?.when).toBe('scmProvider == git');
		const when = entry('scm/resourceGroup/context')?.when ?? '';
		const groups = /scmResourceGroup =~ \/(.+)\/$/.exec(when)?.[1];
		expect(groups).toBeDefined();
		const matches = (id: string) => new RegExp(groups!).test(id);
		expect(['index', 'workingTree', 'merge', 'untracked'].filter(matches)).toEqual(['index', 'workingTree']);
		expect(sourceFromArgument({ id: 'index' })).toBe('staged');
		expect(sourceFromArgument({ id: 'workingTree' })).toBe('working-tree');
	});
});
