/**
 * What a command was shown is the base, beyond a plain file edited in place: through a link, a
 * file the user deletes, renames or creates after a command made its own, a binary file, one over
 * the size cap. `run_command` itself on real bubblewrap, in a copy and in an overlay; "accept" is
 * `planFile` against the real file as the user left it. Each case would end in a silent overwrite
 * or revert of the user's change if a command's view recorded no base.
 */
import { existsSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildReviewChangeSet, targetOf } from '../../../src/core/changes/changeSet.js';
import { planFile } from '../../../src/core/changes/planFile.js';
import { detectSandbox } from '../../../src/core/exec/sandbox/detectSandbox.js';
import { ScratchCopy } from '../../../src/core/exec/commandScratch.js';
import { OverlayScratch } from '../../../src/core/exec/overlayScratch.js';
import { runCommandTool } from '../../../src/core/tools/runCommandTool.js';
import type { ScratchSpace } from '../../../src/core/exec/scratchSpace.js';
import { ripgrepOnPath } from '../../../src/core/util/ripgrepBinary.js';
import { createWorkspace, type WorkspaceOptions } from '../../../src/core/workspace/createWorkspace.js';
import { unkeptHash } from '../../../src/core/workspace/runSnapshot.js';
import { sha256 } from '../../../src/core/workspace/sha256.js';
import type { Overlay } from '../../../src/core/workspace/types.js';
import type { FileChange } from '../../../src/contract/fileChange.js';
import { makeWorkspaceDir } from '../../fakes/team.js';

const detection = process.platform === 'linux' ? await detectSandbox() : { sandbox: null };
const scratches: ScratchSpace[] = [];
afterAll(() => Promise.all(scratches.map((scratch) => scratch.dispose())));
const ripgrep = ripgrepOnPath(process.env) ?? undefined;
const overlayTools = detection.sandbox?.overlay;
type Kind = 'copy' | 'overlay';
const kinds: Kind[] = overlayTools && ripgrep ? ['copy', 'overlay'] : ['copy'];

const notes = 'line 1\nline 9\n';
const user = 'line 1\nline 9 (user)\n';
const team = 'line 1 (team)\nline 9\n';

/** A workspace and one agent's `run_command` in a scratch of `kind`. */
async function agent(files: Record<string, string>, kind: Kind, options: WorkspaceOptions = {}) {
	const root = makeWorkspaceDir(files);
	const workspace = await createWorkspace(root, options);
	const scratch =
		kind === 'overlay'
			? new OverlayScratch({ workspaceRoot: root, label: 'a', tools: overlayTools!, ripgrep: ripgrep! })
			: new ScratchCopy({ workspaceRoot: root, label: 'a', dependencies: 'mount' });
	scratches.push(scratch);
	const tool = runCommandTool({
		timeoutMs: 20_000,
		maxOutputBytes: 64 * 1024,
		parentEnv: { PATH: process.env['PATH'], HOME: tmpdir() },
		sandbox: detection.sandbox!,
		network: false,
		workspaceRoot: root,
		scratch: () => scratch,
	});
	const overlay = workspace.createOverlay();
	const run = async (command: string) => {
		const outcome = await tool.execute(
			{ command },
			{ agentId: 'a', overlay, phase: 'coordination', signal: new AbortController().signal },
		);
		expect(outcome.isError).toBe(false);
		return outcome.text.split('\n').slice(1).join('\n');
	};
	// The winner: another agent of the run, writing whole files.
	return { root, workspace, run, winner: workspace.createOverlay() };
}

async function changeOf(overlay: Overlay, path: string): Promise<FileChange> {
	return (await overlay.changes()).find((change) => change.path === path)!;
}

/** What accepting the change does with the file as the user left it. */
function accept(change: FileChange, root: string) {
	const file = buildReviewChangeSet({ runId: 'r', winner: null, changes: [change] }).files[0]!;
	const path = join(root, change.path);
	const current = existsSync(path) ? readFileSync(path, 'utf8') : null;
	return planFile(file, targetOf(file, new Set(file.hunks.map((hunk) => hunk.id))), current, sha256);
}

describe.runIf(detection.sandbox !== null).each(kinds)('a command’s view records bases (%s)', (kind) => {
	it('a file seen through a link inside the workspace: written by the link’s path, never a revert', async () => {
		const { root, run, winner } = await agent({ 'notes.txt': notes }, kind);
		symlinkSync('notes.txt', join(root, 'link.txt'));
		// (The link is made after the workspace; the scratch is made at the first command.)
		expect(await run('cat link.txt')).toBe(notes.trimEnd());
		writeFileSync(join(root, 'notes.txt'), user);
		await winner.write('link.txt', team);
		const change = await changeOf(winner, 'link.txt');
		if (kind === 'copy') {
			expect(change).toMatchObject({ base: notes, baseHash: sha256(notes) });
			expect(accept(change, root)).toMatchObject({
				outcome: 'merged',
				op: { text: 'line 1 (team)\nline 9 (user)\n' },
			});
		} else {
			expect(change).toMatchObject({ base: user, baseHash: unkeptHash(user) });
			expect(accept(change, root)).toMatchObject({ outcome: 'conflict' });
		}
	});

	it('a file the user deletes or renames after a command showed it: the team’s rewrite is a conflict', async () => {
		const { root, run, winner } = await agent({ 'gone.txt': notes, 'moved.txt': notes }, kind);
		expect(await run('cat gone.txt moved.txt')).toBe(`${notes}${notes}`.trimEnd());
		rmSync(join(root, 'gone.txt'));
		renameSync(join(root, 'moved.txt'), join(root, 'renamed.txt'));
		for (const path of ['gone.txt', 'moved.txt']) {
			await winner.write(path, team);
			const change = await changeOf(winner, path);
			// Without a base, this was an "add" that accepting wrote: the user's delete undone.
			expect(change.kind).toBe('modify');
			expect(change.baseHash).toBe(kind === 'copy' ? sha256(notes) : unkeptHash(''));
			expect(accept(change, root)).toMatchObject({ outcome: 'conflict', reason: 'deleted' });
		}
		// The rename's new name had no file when the command looked: the team's write of it is not an overwrite.
		await winner.write('renamed.txt', team);
		const renamed = await changeOf(winner, 'renamed.txt');
		expect(renamed).toMatchObject({ kind: 'add', baseHash: null });
		expect(accept(renamed, root)).toMatchObject({ outcome: 'conflict', reason: 'exists' });
	});

	it('a file a command made in its scratch that the user then creates for real: a conflict, not an overwrite', async () => {
		const { root, run, winner } = await agent({ 'notes.txt': notes }, kind);
		expect(await run('echo mine > made.txt; cat made.txt')).toBe('mine');
		writeFileSync(join(root, 'made.txt'), 'the user’s own\n');
		await winner.write('made.txt', team);
		const change = await changeOf(winner, 'made.txt');
		expect(change).toMatchObject({ kind: 'add', baseHash: null });
		expect(accept(change, root)).toMatchObject({ outcome: 'conflict', reason: 'exists' });
		// Control: a new path nobody created applies.
		await winner.write('fresh.txt', team);
		expect(accept(await changeOf(winner, 'fresh.txt'), root)).toMatchObject({ outcome: 'apply' });
	});

	it('a binary file: its base is the shown bytes (copy) or unkept (overlay), never the user’s', async () => {
		const shown = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00]), Buffer.from('\nline 9\n')]);
		const { root, run, winner } = await agent({ 'notes.txt': notes }, kind);
		writeFileSync(join(root, 'data.bin'), shown);
		expect(await run('wc -c < data.bin')).toBe(String(shown.length));
		writeFileSync(join(root, 'data.bin'), Buffer.concat([shown, Buffer.from('user\n')]));
		await winner.write('data.bin', 'replaced by the team\n');
		const change = await changeOf(winner, 'data.bin');
		const lossy = shown.toString('utf8');
		expect(change.baseHash).toBe(kind === 'copy' ? sha256(lossy) : unkeptHash(`${lossy}user\n`));
		// The copy merges the user's appended line (as text: binary bytes are decoded lossily, as for read_file).
		expect(accept(change, root)).toMatchObject(
			kind === 'copy'
				? { outcome: 'merged', op: { text: 'replaced by the team\nuser\n' } }
				: { outcome: 'conflict' },
		);
	});

	it('a file over the size cap stays out of reach of writes, whichever tool showed it', async () => {
		const big = 'x'.repeat(4096);
		const { root, run, winner } = await agent({ 'big.txt': big }, kind, { maxFileBytes: 1024 });
		expect(await run('wc -c < big.txt')).toBe('4096');
		writeFileSync(join(root, 'big.txt'), 'y'.repeat(4096));
		await expect(winner.write('big.txt', 'small\n')).rejects.toThrow(/over the 1\.0 KiB|over the/);
		expect(await winner.changes()).toEqual([]);
	});

	it('control: a file the user did not touch gets the winner’s text', async () => {
		const { root, run, winner } = await agent({ 'notes.txt': notes, 'other.txt': notes }, kind);
		expect(await run('cat notes.txt')).toBe(notes.trimEnd());
		writeFileSync(join(root, 'other.txt'), user);
		await winner.write('notes.txt', team);
		const change = await changeOf(winner, 'notes.txt');
		expect(change).toMatchObject({ base: notes, baseHash: sha256(notes) });
		expect(accept(change, root)).toMatchObject({ outcome: 'apply', op: { text: team } });
	});
});
