import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordFile } from '../../../src/core/changes/acceptRecord.js';
import { readChangeLog } from '../../../src/core/runStore/changeLog.js';
import { applyChangeSet } from '../../../src/core/changes/applyChangeSet.js';
import { unkeptHash } from '../../../src/core/workspace/runSnapshot.js';
import { sha256 } from '../../../src/core/workspace/sha256.js';
import type { FileChange } from '../../../src/contract/fileChange.js';
import { makeWorkspaceDir } from '../../fakes/team.js';

const base = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';

function setup() {
	const root = makeWorkspaceDir({ 'a.txt': base, 'gone.txt': 'bye\n' });
	const changes: FileChange[] = [
		{ path: 'a.txt', kind: 'modify', baseHash: sha256(base), base, content: base.replace('two', 'TWO') },
		{ path: 'new/dir/b.txt', kind: 'add', baseHash: null, base: null, content: 'bee\n' },
		{ path: 'gone.txt', kind: 'delete', baseHash: sha256('bye\n'), base: 'bye\n', content: null },
	];
	return { root, changes };
}

describe('applyChangeSet (the CLI --apply)', () => {
	it('writes modifications, additions in new folders and deletions', async () => {
		const { root, changes } = setup();
		const result = await applyChangeSet(root, 'run', changes);
		expect(result.conflicts).toEqual([]);
		expect(result.applied.sort()).toEqual(['a.txt', 'gone.txt', 'new/dir/b.txt']);
		expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe(base.replace('two', 'TWO'));
		expect(readFileSync(join(root, 'new/dir/b.txt'), 'utf8')).toBe('bee\n');
		expect(existsSync(join(root, 'gone.txt'))).toBe(false);
	});

	it("merges the user's non-overlapping edit with the team's change", async () => {
		const { root, changes } = setup();
		writeFileSync(join(root, 'a.txt'), base.replace('six', 'SIX'));
		const result = await applyChangeSet(root, 'run', changes);
		expect(result.merged).toEqual(['a.txt']);
		expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe(base.replace('two', 'TWO').replace('six', 'SIX'));
	});

	it('an overlapping edit is a conflict and nothing at all is written', async () => {
		const { root, changes } = setup();
		writeFileSync(join(root, 'a.txt'), base.replace('two', 'deux'));
		const result = await applyChangeSet(root, 'run', changes);
		expect(result.applied).toEqual([]);
		expect(result.conflicts).toEqual([
			{ path: 'a.txt', reason: 'you changed it since the team read it, and the changes overlap' },
		]);
		expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe(base.replace('two', 'deux'));
		expect(existsSync(join(root, 'new'))).toBe(false);
		expect(existsSync(join(root, 'gone.txt'))).toBe(true);
	});

	it('a file whose base was not kept is refused with the reason "unseen", not "overlap"', async () => {
		// The user changed line 6 after a command showed the file; the team changed line 2: no
		// overlap, but the version the team saw is gone, so nothing can be merged against.
		const { root, changes } = setup();
		const edited = base.replace('six', 'SIX');
		writeFileSync(join(root, 'a.txt'), edited);
		const unkept = { ...changes[0]!, base: edited, baseHash: unkeptHash(edited) };
		const result = await applyChangeSet(root, 'run', [unkept]);
		expect(result.conflicts).toEqual([
			{
				path: 'a.txt',
				reason:
					'the team saw it only through a command, its view of the file was not kept, and the file has changed since: compare and accept it by hand',
			},
		]);
		expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe(edited);
		// Control: the same change with a kept base merges.
		const kept = await applyChangeSet(root, 'run', [changes[0]!]);
		expect(kept.merged).toEqual(['a.txt']);
	});

	it("records what it wrote: the text before (with the user's edit) and after, per file", async () => {
		const { root, changes } = setup();
		const edited = base.replace('six', 'SIX');
		writeFileSync(join(root, 'a.txt'), edited);
		const runDir = mkdtempSync(join(tmpdir(), 'massgen-run-'));
		await applyChangeSet(root, 'run', changes, { record: { runDir, by: 'cli' } });
		const [entry, ...rest] = await readChangeLog(runDir);
		expect(rest).toEqual([]);
		expect(entry).toMatchObject({ kind: 'accept', by: 'cli', partial: false });
		expect(entry?.kind === 'accept' && entry.files).toEqual([
			recordFile('a.txt', edited, edited.replace('two', 'TWO')),
			recordFile('new/dir/b.txt', null, 'bee\n'),
			recordFile('gone.txt', 'bye\n', null),
		]);
	});

	it('records nothing when nothing was written', async () => {
		const { root, changes } = setup();
		writeFileSync(join(root, 'a.txt'), base.replace('two', 'deux'));
		const runDir = mkdtempSync(join(tmpdir(), 'massgen-run-'));
		await applyChangeSet(root, 'run', changes, { record: { runDir, by: 'cli' } });
		expect(await readChangeLog(runDir)).toEqual([]);
	});
});
