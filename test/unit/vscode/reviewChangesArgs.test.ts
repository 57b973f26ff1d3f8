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
