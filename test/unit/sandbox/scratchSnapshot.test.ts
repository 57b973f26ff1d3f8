/**
 * Commands see the run snapshot: `run_command` through the tool itself, on real bubblewrap, with
 * two agents of one run (one workspace, so one `RunSnapshot`) and a "user" editing the real files
 * mid-run. What `cat` prints in any agent's copy is what `read_file` shows: the base the run
 * captured, below the agent's own edits — in a copy and in an overlay alike.
 */
import { execFileSync } from 'node:child_process';
import {
	chmodSync,
	existsSync,
	lstatSync,
	readFileSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../../src/core/exec/sandbox/detectSandbox.js';
import { ScratchCopy } from '../../../src/core/exec/commandScratch.js';
import { OverlayScratch } from '../../../src/core/exec/overlayScratch.js';
import { ripgrepOnPath } from '../../../src/core/util/ripgrepBinary.js';
import type { ScratchSpace } from '../../../src/core/exec/scratchSpace.js';
import { runCommandTool } from '../../../src/core/tools/runCommandTool.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { RunSnapshot, unkeptHash } from '../../../src/core/workspace/runSnapshot.js';
import { sha256 } from '../../../src/core/workspace/sha256.js';
import type { Overlay } from '../../../src/core/workspace/types.js';
import { makeWorkspaceDir } from '../../fakes/team.js';

const detection = process.platform === 'linux' ? await detectSandbox() : { sandbox: null };
const copies: ScratchSpace[] = [];
afterAll(() => Promise.all(copies.map((copy) => copy.dispose())));
const ripgrep = ripgrepOnPath(process.env) ?? undefined;
const overlayTools = detection.sandbox?.overlay;
type Kind = 'copy' | 'overlay';
const kinds: Kind[] = overlayTools && ripgrep ? ['copy', 'overlay'] : ['copy'];

/** One run: a workspace, and `run_command` with one scratch per agent (as `createRunTools` makes them). */
async function team(files: Record<string, string>, kind: Kind) {
	const root = makeWorkspaceDir(files);
	const workspace = await createWorkspace(root);
	const scratches = new Map<string, ScratchSpace>();
	const tool = runCommandTool({
		timeoutMs: 20_000,
		maxOutputBytes: 64 * 1024,
		parentEnv: { PATH: process.env['PATH'], HOME: tmpdir() },
		sandbox: detection.sandbox!,
		network: false,
		workspaceRoot: root,
		scratch: (agentId) => {
			let copy = scratches.get(agentId);
			if (copy === undefined) {
				copy =
					kind === 'overlay'
						? new OverlayScratch({
								workspaceRoot: root,
								label: agentId,
								tools: overlayTools!,
								ripgrep: ripgrep!,
							})
						: new ScratchCopy({ workspaceRoot: root, label: agentId, dependencies: 'mount' });
				copies.push(copy);
				scratches.set(agentId, copy);
			}
			return copy;
		},
	});
	const run = async (agentId: string, overlay: Overlay, command: string) => {
		const outcome = await tool.execute(
			{ command },
			{ agentId, overlay, phase: 'coordination', signal: new AbortController().signal },
		);
		expect(outcome.isError).toBe(false);
		// The first line is the exit code.
		return outcome.text.split('\n').slice(1).join('\n');
	};
	return { root, workspace, run };
}

describe.runIf(detection.sandbox !== null).each(kinds)(
	'run_command sees the run snapshot (real bubblewrap, %s)',
	(kind) => {
		it('a file agent A read and the user then edited shows the text A read in agent B’s command', async () => {
			const { root, workspace, run } = await team({ 'notes.txt': 'as the team read it\n' }, kind);
			const a = workspace.createOverlay();
			const b = workspace.createOverlay();
			expect(await a.readText('notes.txt')).toBe('as the team read it\n');
			writeFileSync(join(root, 'notes.txt'), 'the user saved this mid-run\n');
			expect(await run('b', b, 'cat notes.txt')).toBe('as the team read it');
			expect(await b.readText('notes.txt')).toBe('as the team read it\n');
			// The real file keeps the user's edit.
			expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('the user saved this mid-run\n');
		});

		it('a file captured absent that the user creates mid-run is absent in the copy', async () => {
			const { root, workspace, run } = await team({ 'README.md': '# x\n' }, kind);
			const a = workspace.createOverlay();
			expect(await a.readText('later.txt')).toBeNull();
			writeFileSync(join(root, 'later.txt'), 'created by the user\n');
			expect(
				await run('b', workspace.createOverlay(), 'ls; test -e later.txt && echo present || echo absent'),
			).toBe('README.md\nabsent');
		});

		it('what a command was shown first is the base: a read after the user’s edit gets it, or an unkept base', async () => {
			const { root, workspace, run } = await team({ 'notes.txt': 'v1\n', 'gone.txt': 'still here\n' }, kind);
			const b = workspace.createOverlay();
			// B's command is shown the files as they are now (nobody has read them yet).
			expect(await run('b', b, 'cat notes.txt gone.txt')).toBe('v1\nstill here');
			writeFileSync(join(root, 'notes.txt'), 'v2\n');
			rmSync(join(root, 'gone.txt'));
			const a = workspace.createOverlay();
			if (kind === 'copy') {
				// B's copy still holds what it showed: that is the base every agent reads from now on.
				expect(await a.readText('notes.txt')).toBe('v1\n');
				expect(await a.readText('gone.txt')).toBe('still here\n');
				expect(await workspace.runSnapshot.entry('notes.txt')).toMatchObject({ hash: sha256('v1\n') });
			} else {
				// The overlay showed the live file and kept no copy: the disk's text, with a hash no file has.
				expect(await a.readText('notes.txt')).toBe('v2\n');
				expect(await a.readText('gone.txt')).toBeNull();
				expect(await workspace.runSnapshot.entry('notes.txt')).toMatchObject({ hash: unkeptHash('v2\n') });
			}
			writeFileSync(join(root, 'notes.txt'), 'v3\n');
			expect(await run('b', b, 'cat notes.txt; test -e gone.txt && echo present || echo absent')).toBe(
				kind === 'copy' ? 'v1\npresent' : 'v2\nabsent',
			);
		});

		it('the agent’s own edit wins over the snapshot, and a command’s own change stays', async () => {
			const files = { 'notes.txt': 'base\n', 'read.txt': 'read\n', 'other.txt': 'other\n' };
			const { root, workspace, run } = await team(files, kind);
			const a = workspace.createOverlay();
			expect(await a.readText('notes.txt')).toBe('base\n');
			expect(await a.readText('read.txt')).toBe('read\n');
			for (const path of ['notes.txt', 'read.txt']) writeFileSync(join(root, path), 'user edit\n');
			await a.write('notes.txt', 'the agent’s edit\n');
			expect(await run('a', a, 'cat notes.txt read.txt; echo changed > other.txt')).toBe(
				'the agent’s edit\nread',
			);
			// other.txt is captured only now: what the command wrote there is the copy's own and stays.
			expect(await a.readText('other.txt')).toBe('other\n');
			expect(await run('a', a, 'cat other.txt')).toBe('changed');
		});
	},
);

describe.runIf(process.platform !== 'win32')(
	'scratch copy: the snapshot layer on the real file system',
	() => {
		it('goes back to the snapshot’s base, not the disk, when the overlay drops an edit', async () => {
			const root = makeWorkspaceDir({ 'notes.txt': 'base\n' });
			const snapshot = new RunSnapshot(root);
			expect(await snapshot.text('notes.txt')).toBe('base\n');
			writeFileSync(join(root, 'notes.txt'), 'user edit\n');
			const copy = new ScratchCopy({ workspaceRoot: root, label: 'restore' });
			copies.push(copy);
			const dir = await copy.prepare(new Map([['notes.txt', 'edit\n']]), snapshot);
			expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('edit\n');
			await copy.prepare(new Map(), snapshot);
			expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('base\n');
		});

		it('keeps a link the copy made when its base agrees, and never reads a FIFO a command left', async () => {
			const root = makeWorkspaceDir({ 'src/a.ts': 'export const a = 1;\n', 'notes.txt': 'base\n' });
			symlinkSync('src/a.ts', join(root, 'link.ts'));
			const snapshot = new RunSnapshot(root);
			for (const path of ['link.ts', 'notes.txt']) await snapshot.entry(path);
			const copy = new ScratchCopy({ workspaceRoot: root, label: 'fifo' });
			copies.push(copy);
			const dir = await copy.prepare(new Map([['notes.txt', 'edit\n']]), snapshot);
			expect(lstatSync(join(dir, 'link.ts')).isSymbolicLink()).toBe(true);
			// A command replaces the agent's file with a FIFO; the overlay then drops its edit.
			rmSync(join(dir, 'notes.txt'));
			execFileSync('mkfifo', [join(dir, 'notes.txt')]);
			await copy.prepare(new Map(), snapshot);
			expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('base\n');
		});

		it('keeps the disk’s bytes for files too large for the snapshot or not UTF-8, and leaves out what the copy ignores', async () => {
			const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0x80]);
			const root = makeWorkspaceDir({
				'.gitignore': 'dist/\n',
				'big.txt': 'x'.repeat(2048),
				'dist/out.js': 'built by the user\n',
				'script.sh': '#!/bin/sh\necho base\n',
			});
			writeFileSync(join(root, 'image.png'), binary);
			const snapshot = new RunSnapshot(root, 1024);
			for (const path of ['big.txt', 'image.png', 'dist/out.js', 'script.sh']) await snapshot.entry(path);
			expect((await snapshot.entry('big.txt')).kind).toBe('too-large');
			// The user edits the script and gives it the executable bit after the capture.
			writeFileSync(join(root, 'script.sh'), '#!/bin/sh\necho edited\n');
			chmodSync(join(root, 'script.sh'), 0o755);
			const copy = new ScratchCopy({ workspaceRoot: root, label: 'bytes' });
			copies.push(copy);
			const dir = await copy.prepare(new Map(), snapshot);
			expect(readFileSync(join(dir, 'image.png')).equals(binary)).toBe(true);
			expect(readFileSync(join(dir, 'big.txt'), 'utf8')).toBe('x'.repeat(2048));
			expect(existsSync(join(dir, 'dist'))).toBe(false);
			// The snapshot's text, in the file the copy made (its mode kept).
			expect(readFileSync(join(dir, 'script.sh'), 'utf8')).toBe('#!/bin/sh\necho base\n');
			if (process.platform !== 'win32') expect(statSync(join(dir, 'script.sh')).mode & 0o111).not.toBe(0);
		});
	},
);
