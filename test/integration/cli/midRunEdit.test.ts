/**
 * Issue 9 items 1 and 5, end to end through `dist/cli.js`: the user edits the workspace while the
 * team works (after the team read the files), and `--apply` merges those edits or refuses —
 * never reverts them — and never follows a link the tree gained after the run's reads.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { cliPath } from './cliProcess.js';
import { hashTree } from '../../support/tempTree.js';
import { runDir } from '../../support/runDir.js';

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const notes = lines(12);

interface Edit {
	readonly path: string;
	readonly content?: string;
	readonly delete?: true;
}

/** Two scripted agents that read `reads`, answer and vote; the winner's presentation makes `edits`. */
function teamConfig(reads: readonly string[], edits: readonly Edit[]): string {
	const agent = (id: string) => ({
		id,
		backend: {
			type: 'scripted',
			script: {
				// Every model call takes this long: the window in which the test edits the disk.
				latency_ms: 700,
				chunks: 1,
				coordination: [
					{
						tool_calls: reads.map((path) => ({ name: 'read_file', arguments: { path } })),
						answer: `${id}'s plan`,
					},
					{ vote: 'first', reason: 'fine' },
				],
				presentation: { edits, text: 'done' },
			},
		},
	});
	const dir = mkdtempSync(join(tmpdir(), 'massgen-cfg-'));
	const file = join(dir, 'team.yaml');
	writeFileSync(file, stringify({ agents: [agent('alpha'), agent('beta')] }));
	return file;
}

interface RunEvent {
	readonly type: string;
	readonly name?: string;
	readonly phase?: string;
	readonly isError?: boolean;
	readonly text?: string;
}

/**
 * Runs `massgen run --json --apply` and calls `onEvent` for each event as it streams; the
 * callback may change the workspace (it runs while the CLI waits for its next model call).
 */
function runApply(root: string, config: string, onEvent: (event: RunEvent) => void) {
	return new Promise<{ code: number | null; stderr: string; events: RunEvent[] }>((resolve, reject) => {
		const child = spawn(
			process.execPath,
			[cliPath, 'run', '--json', '--apply', '--config', config, 'Edit the notes'],
			{
				cwd: root,
				env: { PATH: process.env.PATH, HOME: process.env.HOME },
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		const events: RunEvent[] = [];
		let pending = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => {
			pending += chunk.toString();
			const complete = pending.split('\n');
			pending = complete.pop()!;
			for (const line of complete) {
				const event = JSON.parse(line) as RunEvent;
				events.push(event);
				onEvent(event);
			}
		});
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.on('error', reject);
		child.on('close', (code) => resolve({ code, stderr, events }));
	});
}

/** Calls `act` once, when every one of the team's first `count` reads has returned. */
function afterReads(count: number, act: () => void): (event: RunEvent) => void {
	let seen = 0;
	return (event) => {
		if (event.type === 'tool-result' && event.name === 'read_file' && ++seen === count) act();
	};
}

/** The fingerprint leaves out the CLI's own run state; `.git` and `node_modules` are in it. */
const outsideRunState = (rel: string) => rel === '.massgen';

/** A workspace with a git repository and a dependency folder, as real ones have. */
function workspace(files: Record<string, string>): string {
	const root = makeWorkspaceDir({ ...files, 'node_modules/dep/index.js': 'module.exports = 1;\n' });
	execFileSync('git', ['init', '-q'], { cwd: root });
	return root;
}

describe('massgen run --apply after the user edited files mid-run', () => {
	it("merges the user's line 9 with the team's line 1; the patch applies to what the team read", async () => {
		const root = workspace({ 'notes.txt': notes });
		const teamVersion = notes.replace('line 1\n', 'line 1 (team)\n');
		const config = teamConfig(['notes.txt'], [{ path: 'notes.txt', content: teamVersion }]);
		const userVersion = notes.replace('line 9\n', 'line 9 (user)\n');
		const run = await runApply(
			root,
			config,
			afterReads(2, () => writeFileSync(join(root, 'notes.txt'), userVersion)),
		);

		expect(run.stderr).toContain("merged your edits with the team's in notes.txt");
		expect(run.stderr).toContain('applied 1 change(s): notes.txt');
		expect(run.code).toBe(0);
		expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe(
			notes.replace('line 1\n', 'line 1 (team)\n').replace('line 9\n', 'line 9 (user)\n'),
		);

		const dir = runDir(root);
		const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8'));
		expect(result.changes).toEqual([
			expect.objectContaining({ path: 'notes.txt', kind: 'modify', base: notes }),
		]);
		// The patch is made against the snapshot the agents read, not the user's edited file.
		const base = makeWorkspaceDir({ 'notes.txt': notes });
		execFileSync('git', ['init', '-q'], { cwd: base });
		execFileSync('git', ['apply', join(dir, 'changes.patch')], { cwd: base });
		expect(readFileSync(join(base, 'notes.txt'), 'utf8')).toBe(teamVersion);
	}, 60_000);

	it('an overlapping edit is a conflict: nothing is written, the user keeps their text', async () => {
		const root = workspace({ 'notes.txt': notes });
		const config = teamConfig(
			['notes.txt'],
			[
				{ path: 'notes.txt', content: notes.replace('line 1\n', 'line 1 (team)\n') },
				{ path: 'added.txt', content: 'new\n' },
			],
		);
		let before = '';
		const run = await runApply(
			root,
			config,
			afterReads(2, () => {
				writeFileSync(join(root, 'notes.txt'), notes.replace('line 1\n', 'line 1 (user)\n'));
				before = hashTree(root, outsideRunState);
			}),
		);

		expect(run.code).toBe(2);
		expect(run.stderr).toContain(
			'not applied: notes.txt: you changed it since the team read it, and the changes overlap',
		);
		expect(run.stderr).toContain('nothing was written');
		expect(hashTree(root, outsideRunState)).toBe(before);
		expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe(notes.replace('line 1\n', 'line 1 (user)\n'));
	}, 60_000);

	it('a file the team adds that the user created mid-run, and one it deletes that the user edited, are conflicts', async () => {
		const root = workspace({ 'notes.txt': notes, 'old.txt': 'old\n' });
		const config = teamConfig(
			['notes.txt', 'old.txt', 'todo.txt'],
			[
				{ path: 'todo.txt', content: 'team todo\n' },
				{ path: 'old.txt', delete: true },
			],
		);
		let before = '';
		const run = await runApply(
			root,
			config,
			afterReads(6, () => {
				writeFileSync(join(root, 'todo.txt'), 'user todo\n');
				writeFileSync(join(root, 'old.txt'), 'old, kept and edited by the user\n');
				before = hashTree(root, outsideRunState);
			}),
		);

		expect(run.code).toBe(2);
		expect(run.stderr).toContain(
			'not applied: todo.txt: the team adds it, but a different file exists there now',
		);
		expect(run.stderr).toContain('not applied: old.txt: the team deletes it, but you changed it since');
		expect(hashTree(root, outsideRunState)).toBe(before);
		// What the team saw stayed what it read: todo.txt absent (it adds it), old.txt with its old text.
		const result = JSON.parse(readFileSync(join(runDir(root), 'result.json'), 'utf8'));
		expect(result.changes).toEqual([
			expect.objectContaining({ path: 'old.txt', kind: 'delete', base: 'old\n' }),
			expect.objectContaining({ path: 'todo.txt', kind: 'add', base: null }),
		]);
	}, 60_000);

	it('refuses a write that a link created after the run redirects into .git/', async () => {
		const root = workspace({ 'hooks/readme.txt': 'our hooks\n' });
		const config = teamConfig(
			['hooks/readme.txt'],
			[{ path: 'hooks/pre-commit', content: '#!/bin/sh\necho hi\n' }],
		);
		let gitBefore = '';
		let before = '';
		const run = await runApply(root, config, (event) => {
			// The winner's write has landed in its overlay: now the user's tree gets hooks -> .git/hooks.
			if (event.type !== 'tool-result' || event.name !== 'write_file' || event.phase !== 'presentation') {
				return;
			}
			rmSync(join(root, 'hooks'), { recursive: true });
			mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
			symlinkSync(join(root, '.git', 'hooks'), join(root, 'hooks'));
			gitBefore = hashTree(join(root, '.git'));
			before = hashTree(root, outsideRunState);
		});

		expect(gitBefore).not.toBe('');
		expect(run.code).toBe(2);
		expect(run.stderr).toContain(
			"not applied: hooks/pre-commit: refused: 'hooks/pre-commit' is inside .git/",
		);
		expect(run.stderr).toContain("(via a symlink to '.git/hooks/pre-commit')");
		expect(hashTree(join(root, '.git'))).toBe(gitBefore);
		expect(hashTree(root, outsideRunState)).toBe(before);
	}, 60_000);
});
