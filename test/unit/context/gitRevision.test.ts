/**
 * What Review Changes reads of git besides the diff (`openGitRepo`): a file's text in the index or a
 * commit, relative to a workspace folder that is a subfolder of the repository; merge bases; the
 * default branch. On a repository whose config names programs, none of them runs.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AttachmentError } from '../../../src/core/context/attachment.js';
import { openGitRepo, rangeSides } from '../../../src/core/context/gitRevision.js';
import { makeWorkspaceDir } from '../../fakes/team.js';

const git = (cwd: string, ...args: string[]) =>
	execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, stdio: 'pipe' })
		.toString()
		.trim();

/** main: sub/a.txt "one"; branch feature: "one two" committed, "one two three" staged, "four" unstaged. */
function repository(): string {
	const root = makeWorkspaceDir({ 'sub/a.txt': 'one\n', 'top.txt': 'top\n' });
	git(root, 'init', '-q', '-b', 'main');
	git(root, 'add', '-A');
	git(root, 'commit', '-qm', 'base');
	git(root, 'checkout', '-qb', 'feature');
	writeFileSync(join(root, 'sub/a.txt'), 'one\ntwo\n');
	git(root, 'commit', '-qam', 'two');
	writeFileSync(join(root, 'sub/a.txt'), 'one\ntwo\nthree\n');
	git(root, 'add', 'sub/a.txt');
	writeFileSync(join(root, 'sub/a.txt'), 'one\ntwo\nthree\nfour\n');
	return root;
}

describe('openGitRepo', () => {
	it('reads a file in the index and in commits, relative to the workspace folder', async () => {
		const root = repository();
		const repo = await openGitRepo(join(root, 'sub'));
		expect(await repo.fileAt(':', 'a.txt')).toBe('one\ntwo\nthree\n');
		expect(await repo.fileAt('HEAD', 'a.txt')).toBe('one\ntwo\n');
		expect(await repo.fileAt('main', 'a.txt')).toBe('one\n');
		expect(await repo.fileAt('HEAD', 'missing.txt')).toBeUndefined();
		// Not a revision (an option, a pathspec magic): nothing is read.
		expect(await repo.fileAt('--output=/tmp/x', 'a.txt')).toBeUndefined();
		expect(await repo.fileAt('HEAD', '')).toBeUndefined();
	});

	it('finds the merge base and the default branch', async () => {
		const root = repository();
		const repo = await openGitRepo(root);
		expect(await repo.mergeBase('main', 'HEAD')).toBe(git(root, 'rev-parse', 'main'));
		expect(await repo.mergeBase('no-such-branch', 'HEAD')).toBeUndefined();
		expect(await repo.mergeBase('-o', 'HEAD')).toBeUndefined();
		expect(await repo.defaultBranch()).toBe('main');
		git(root, 'branch', '-m', 'main', 'trunk');
		expect(await repo.defaultBranch()).toBe('trunk');
		expect(rangeSides('main..HEAD')).toEqual(['main', 'HEAD']);
	});

	it('refuses a folder outside any repository', async () => {
		const root = mkdtempSync(join(tmpdir(), 'massgen-norepo-'));
		await expect(openGitRepo(root)).rejects.toSatisfy(
			(error: unknown) => AttachmentError.is(error) && /not in a git repository/.test(error.message),
		);
	});

	it('runs none of the programs a hostile config names (fsmonitor, filters, textconv, pager)', async () => {
		const root = repository();
		const markers = mkdtempSync(join(tmpdir(), 'massgen-gitrev-markers-'));
		const run = (name: string, then = 'true') => `"touch ${markers}/${name}; ${then}"`;
		writeFileSync(join(root, '.gitattributes'), '*.txt filter=evil diff=evil\n');
		appendFileSync(
			join(root, '.git', 'config'),
			[
				'[core]',
				`\tfsmonitor = ${run('fsmonitor', 'false')}`,
				`\tpager = ${run('pager', 'cat')}`,
				'[filter "evil"]',
				`\tclean = ${run('clean', 'cat')}`,
				`\tsmudge = ${run('smudge', 'cat')}`,
				'\trequired = true',
				'[diff "evil"]',
				`\ttextconv = ${run('textconv', 'cat')}`,
				'',
			].join('\n'),
		);
		const repo = await openGitRepo(root);
		expect(await repo.fileAt(':', 'sub/a.txt')).toBe('one\ntwo\nthree\n');
		expect(await repo.fileAt('main', 'sub/a.txt')).toBe('one\n');
		expect(await repo.mergeBase('main', 'HEAD')).toBeDefined();
		expect(await repo.defaultBranch()).toBe('main');
		expect(readdirSync(markers)).toEqual([]);
		// Control: plain git runs the filter the config names (the attack is live).
		execFileSync('git', ['status', '--porcelain'], { cwd: root, stdio: 'pipe' });
		expect(existsSync(join(markers, 'fsmonitor')) || existsSync(join(markers, 'clean'))).toBe(true);
	});
});
