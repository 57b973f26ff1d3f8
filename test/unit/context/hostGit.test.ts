/**
 * `--attach-diff` on a repository whose `.git/config` and `.gitattributes` were written by someone
 * else: every program git could be made to run on `git diff` leaves a marker file when it runs.
 * Control: the same repository with plain `git diff` runs them (the attack is live), and the
 * hardened diff still holds the change.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
	appendFileSync,
	chmodSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AttachmentError } from '../../../src/core/context/attachment.js';
import { gitDiff } from '../../../src/core/context/gitDiff.js';
import { makeWorkspaceDir } from '../../fakes/team.js';

const git = (cwd: string, ...args: string[]) =>
	execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
		cwd,
		stdio: 'pipe',
	}).toString();

/** A committed repository with `a.txt` changed since. */
function repository(files: Record<string, string> = {}): string {
	const root = makeWorkspaceDir({ 'a.txt': 'one\n', ...files });
	git(root, 'init', '-q');
	git(root, 'add', '-A');
	git(root, 'commit', '-qm', 'base');
	writeFileSync(join(root, 'a.txt'), 'one\ntwo\n');
	// An old timestamp makes git compare contents (and so run the clean filter) on the next diff.
	execFileSync('touch', ['-d', '2001-01-01', join(root, 'a.txt')]);
	return root;
}

/** Every git setting that names a program, each leaving its own marker in `markers`. */
function plant(root: string, markers: string): void {
	const run = (name: string, then = 'true') => `"touch ${markers}/${name}; ${then}"`;
	writeFileSync(join(root, '.gitattributes'), '*.txt filter=evil diff=evil\n');
	appendFileSync(
		join(root, '.git', 'config'),
		[
			'[core]',
			`\tfsmonitor = ${run('fsmonitor', 'false')}`,
			`\tpager = ${run('pager', 'cat')}`,
			`\thooksPath = ${join(root, 'hooks')}`,
			'[filter "evil"]',
			`\tclean = ${run('clean', 'cat')}`,
			`\tsmudge = ${run('smudge', 'cat')}`,
			`\tprocess = ${run('process', 'false')}`,
			'\trequired = true',
			'[diff "evil"]',
			`\ttextconv = ${run('textconv', 'cat')}`,
			`\tcommand = ${run('diff-command')}`,
			'[diff]',
			`\texternal = ${run('external')}`,
			'',
		].join('\n'),
	);
	mkdirSync(join(root, 'hooks'));
	for (const hook of ['post-index-change', 'pre-commit', 'reference-transaction']) {
		writeFileSync(join(root, 'hooks', hook), `#!/bin/sh\ntouch ${markers}/hook-${hook}\n`);
		chmodSync(join(root, 'hooks', hook), 0o755);
	}
}

const refuseNothing = () => null;

describe('git on a hostile repository (gitDiff)', () => {
	it('runs none of the programs its config names, and still attaches the diff', async () => {
		const root = repository();
		const markers = mkdtempSync(join(tmpdir(), 'massgen-git-markers-'));
		plant(root, markers);
		for (const source of ['working-tree', 'staged'] as const) {
			const diff = await gitDiff(root, source, refuseNothing);
			if (source === 'working-tree') expect(diff.text).toMatch(/\+two\n/);
		}
		expect(readdirSync(markers)).toEqual([]);

		// Control: git as it is runs them (the same repository, the same diff).
		// (The planted filter process fails and is required: past it, the other programs are reached.)
		const noProcess = ['-c', 'filter.evil.process=', '-c', 'filter.evil.required=false'];
		for (const args of [['status'], [...noProcess, 'diff'], [...noProcess, 'diff', '--no-ext-diff']]) {
			spawnSync('git', args, { cwd: root, stdio: 'ignore' });
		}
		expect(readdirSync(markers).sort()).toEqual(
			expect.arrayContaining(['diff-command', 'fsmonitor', 'hook-post-index-change', 'textconv']),
		);
	});

	it('refuses a .git file pointing into another repository; a linked worktree of its own still works', async () => {
		const other = repository({ 'private.txt': 'the other repository\n' });
		const root = makeWorkspaceDir({ 'a.txt': 'x\n' });
		writeFileSync(join(root, '.git'), `gitdir: ${join(other, '.git')}\n`);
		const error = await gitDiff(root, 'working-tree', refuseNothing).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(AttachmentError);
		expect((error as Error).message).toMatch(/git directory .* is outside it/);

		// Control: `git worktree add` makes the same kind of .git file, linked back.
		const linked = join(mkdtempSync(join(tmpdir(), 'massgen-git-wt-')), 'wt');
		git(other, 'worktree', 'add', '-q', linked);
		writeFileSync(join(linked, 'a.txt'), 'changed in the worktree\n');
		expect((await gitDiff(linked, 'working-tree', refuseNothing)).text).toContain('+changed in the worktree');
	});

	it('refuses a core.worktree that moves the working tree away from the workspace', async () => {
		const root = repository();
		const elsewhere = makeWorkspaceDir({ 'a.txt': 'somebody else\n' });
		git(root, 'config', 'core.worktree', elsewhere);
		const error = await gitDiff(root, 'working-tree', refuseNothing).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(AttachmentError);
		expect(existsSync(join(root, '.git'))).toBe(true);
	});

	it('a FIFO the repository makes git read (an include, the attributes file, .gitattributes) is cut off, not waited on', async () => {
		const plants: ((root: string) => void)[] = [
			(root) => {
				execFileSync('mkfifo', [join(root, '.git', 'hang')]);
				appendFileSync(join(root, '.git', 'config'), '[include]\n\tpath = hang\n');
			},
			(root) => {
				execFileSync('mkfifo', [join(root, '.git', 'hang')]);
				appendFileSync(
					join(root, '.git', 'config'),
					`[core]\n\tattributesFile = ${join(root, '.git', 'hang')}\n`,
				);
			},
			(root) => execFileSync('mkfifo', [join(root, '.gitattributes')]),
		];
		for (const plantFifo of plants) {
			const root = repository();
			plantFifo(root);
			const error = await gitDiff(root, 'working-tree', refuseNothing, undefined, 500).catch(
				(caught: unknown) => caught,
			);
			expect(error).toBeInstanceOf(AttachmentError);
			expect((error as Error).message).toMatch(/git did not finish within 0\.5 s/);
		}
		// Control: the same time limit lets a plain repository's diff through.
		expect((await gitDiff(repository(), 'working-tree', refuseNothing, undefined, 5000)).text).toMatch(
			/\+two\n/,
		);
	}, 20_000);
});
