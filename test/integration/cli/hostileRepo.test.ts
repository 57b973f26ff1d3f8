/**
 * A repository written by someone else, through `dist/cli.js`: its `.git/config` names programs
 * for `git diff` to run (`--attach-diff` runs none, and the diff is still attached), and its
 * `.massgen` is a link to another folder (every command that would write, read or prune run
 * directories there refuses, saying why; the other folder is unchanged). Controls alongside.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
	appendFileSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { runCli } from './cliProcess.js';

function team(): string {
	const file = join(mkdtempSync(join(tmpdir(), 'massgen-hostile-cfg-')), 'team.yaml');
	const member = (id: string) => ({
		id,
		backend: { type: 'scripted', script: { coordination: [{ answer: 'Fine.' }, { vote: 'first' }] } },
	});
	writeFileSync(file, stringify({ agents: [member('a'), member('b')] }));
	return file;
}

function repository(): string {
	const root = makeWorkspaceDir({ 'a.txt': 'one\n', '.gitattributes': '*.txt filter=evil diff=evil\n' });
	const git = (...args: string[]) =>
		execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: root, stdio: 'pipe' });
	git('init', '-q');
	git('add', '-A');
	git('commit', '-qm', 'base');
	writeFileSync(join(root, 'a.txt'), 'one\ntwo\n');
	execFileSync('touch', ['-d', '2001-01-01', join(root, 'a.txt')]);
	return root;
}

const tree = (dir: string) => readdirSync(dir, { recursive: true }).map(String).sort();

describe('massgen on a hostile repository (dist/cli.js)', () => {
	it('--attach-diff runs nothing the repository config names, and attaches the diff', async () => {
		const root = repository();
		const markers = mkdtempSync(join(tmpdir(), 'massgen-hostile-markers-'));
		const run = (name: string, then = 'true') => `"touch ${markers}/${name}; ${then}"`;
		mkdirSync(join(root, 'hooks'));
		writeFileSync(join(root, 'hooks', 'post-index-change'), `#!/bin/sh\ntouch ${markers}/hook\n`, {
			mode: 0o755,
		});
		appendFileSync(
			join(root, '.git', 'config'),
			[
				'[core]',
				`\tfsmonitor = ${run('fsmonitor', 'false')}`,
				`\thooksPath = ${join(root, 'hooks')}`,
				'[filter "evil"]',
				`\tclean = ${run('clean', 'cat')}`,
				`\tprocess = ${run('process', 'false')}`,
				'[diff "evil"]',
				`\ttextconv = ${run('textconv', 'cat')}`,
				'[diff]',
				`\texternal = ${run('external')}`,
				'',
			].join('\n'),
		);
		const result = await runCli(['run', '--deny-all', '--config', team(), '--attach-diff', 'Review'], {
			cwd: root,
		});
		expect(result.code, result.stderr).toBe(0);
		expect(readdirSync(markers)).toEqual([]);
		const [runId] = readdirSync(join(root, '.massgen', 'runs'));
		const record = JSON.parse(readFileSync(join(root, '.massgen', 'runs', runId!, 'result.json'), 'utf8'));
		expect(record.attachments).toEqual([expect.objectContaining({ kind: 'diff', source: 'working-tree' })]);
		expect(record.attachments[0].bytes).toBeGreaterThan(0);

		// Control: the user's own `git status` in the same repository runs them.
		spawnSync('git', ['status'], { cwd: root, stdio: 'ignore' });
		expect(readdirSync(markers)).toContain('fsmonitor');
	}, 30_000);

	it('.massgen as a link to another folder: run, runs, show and revert refuse it and write nothing there', async () => {
		const root = makeWorkspaceDir({ 'a.txt': 'x\n' });
		const elsewhere = mkdtempSync(join(tmpdir(), 'massgen-elsewhere-'));
		const runId = '20260101-000000-abcd';
		mkdirSync(join(elsewhere, 'runs', runId), { recursive: true });
		writeFileSync(join(elsewhere, 'runs', runId, 'keep.txt'), 'not yours\n');
		symlinkSync(elsewhere, join(root, '.massgen'));
		const before = tree(elsewhere);
		for (const args of [
			['run', '--deny-all', '--config', team(), 'Hi'],
			['runs'],
			['show', runId],
			['revert', runId],
		]) {
			const result = await runCli(args, { cwd: root });
			expect(result.code, args.join(' ')).toBe(1);
			expect(result.stderr, args.join(' ')).toMatch(
				/\.massgen is a link \(to .*\): run directories are kept only inside the workspace/,
			);
		}
		expect(tree(elsewhere)).toEqual(before);

		// Control: with a real folder the same run is logged inside the workspace.
		const plain = makeWorkspaceDir({ 'a.txt': 'x\n' });
		const ok = await runCli(['run', '--deny-all', '--config', team(), 'Hi'], { cwd: plain });
		expect(ok.code, ok.stderr).toBe(0);
		expect(readdirSync(join(plain, '.massgen', 'runs'))).toHaveLength(1);
	}, 30_000);
});
