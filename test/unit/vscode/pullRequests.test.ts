// Review Changes' pull request through the GitHub Pull Requests extension's API, by its shape only
// (the extension cannot be installed offline): present and answering, absent, without the method,
// failing, with no pull request checked out.
import { afterEach, describe, expect, it } from 'vitest';
import * as vscode from 'vscode';
import { pullRequestExtensionId, pullRequestOf } from '../../../src/vscode/codeReview/pullRequests.js';

const fake = (vscode as unknown as { extensions: { installed: Map<string, unknown> } }).extensions;
const folder = vscode.Uri.file('/repo');

function install(exports: unknown, isActive = false): { asked: unknown[] } {
	const asked: unknown[] = [];
	const api =
		typeof exports === 'object' && exports !== null && 'answer' in exports
			? {
					getRepositoryDescription: async (uri: unknown) => {
						asked.push(uri);
						return (exports as { answer: unknown }).answer;
					},
				}
			: exports;
	fake.installed.set(pullRequestExtensionId, { isActive, exports: api, activate: async () => api });
	return { asked };
}

describe('pullRequestOf (GitHub Pull Requests API shape)', () => {
	afterEach(() => fake.installed.clear());

	it('absent extension: absent (Review Changes falls back to git)', async () => {
		expect(await pullRequestOf(folder)).toEqual({ state: 'absent' });
	});

	it("the checked-out pull request and the repository's default branch, for the folder asked", async () => {
		const { asked } = install({
			answer: {
				owner: 'o',
				repositoryName: 'r',
				defaultBranch: 'main',
				pullRequest: { title: 'Fix the loop', url: 'https://github.com/o/r/pull/7', number: 7, id: 1 },
			},
		});
		expect(await pullRequestOf(folder)).toEqual({
			state: 'found',
			pr: { number: 7, title: 'Fix the loop', defaultBranch: 'main' },
		});
		expect(asked).toEqual([folder]);
	});

	it('no pull request checked out: none', async () => {
		install({ answer: { owner: 'o', repositoryName: 'r', defaultBranch: 'main' } }, true);
		expect(await pullRequestOf(folder)).toEqual({ state: 'none' });
	});

	it('an older API without getRepositoryDescription, or one that throws: absent', async () => {
		install({ registerGitProvider: () => undefined });
		expect(await pullRequestOf(folder)).toEqual({ state: 'absent' });
		fake.installed.set(pullRequestExtensionId, {
			isActive: false,
			exports: undefined,
			activate: async () => {
				throw new Error('activation failed');
			},
		});
		expect(await pullRequestOf(folder)).toEqual({ state: 'absent' });
	});

	it('an answer of another shape (a branch that is an option) is not a pull request', async () => {
		install({
			answer: { defaultBranch: '--upload-pack=touch /tmp/x', pullRequest: { number: 1, title: 't' } },
		});
		expect(await pullRequestOf(folder)).toEqual({ state: 'none' });
	});
});
