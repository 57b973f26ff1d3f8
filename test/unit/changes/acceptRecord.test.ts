import { appendFileSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileOutcomes, readChangeOutcome, recordFile } from '../../../src/core/changes/acceptRecord.js';
import { appendChangeLog, type ChangeLogEntry, readChangeLog } from '../../../src/core/runStore/changeLog.js';
import { runFileNames } from '../../../src/contract/runLayout.js';
import { sha256 } from '../../../src/core/workspace/sha256.js';

function runDir(changes = 2): string {
	const dir = mkdtempSync(join(tmpdir(), 'massgen-record-'));
	writeFileSync(join(dir, 'result.json'), JSON.stringify({ changes: new Array(changes).fill({}) }));
	return dir;
}

describe('the change record (changes-log.jsonl)', () => {
	it('stores texts byte-exact, unredacted, in a 0600 file', async () => {
		const dir = runDir(1);
		const secretLooking = 'const key = "sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAA";\r\n\uFEFFé\u2028\n';
		await appendChangeLog(dir, {
			kind: 'accept',
			by: 'cli',
			partial: false,
			files: [recordFile('a.ts', secretLooking, 'new\n')],
		});
		const [entry] = await readChangeLog(dir);
		expect(entry?.kind === 'accept' && entry.files[0]).toEqual({
			path: 'a.ts',
			before: secretLooking,
			after: 'new\n',
			beforeSha256: sha256(secretLooking),
			afterSha256: sha256('new\n'),
		});
		expect(statSync(join(dir, runFileNames.changeLog)).mode & 0o777).toBe(0o600);
		expect(await readChangeOutcome(dir)).toBe('accepted');
	});

	it('keeps only the hashes of a text over the cap', () => {
		const file = recordFile('big.txt', 'x'.repeat(11), 'y', 10);
		expect(file).toEqual({
			path: 'big.txt',
			before: null,
			after: null,
			beforeSha256: sha256('x'.repeat(11)),
			afterSha256: sha256('y'),
			oversize: true,
		});
	});

	it('skips a torn last line and appends after it on a line of its own', async () => {
		const dir = runDir(1);
		await appendChangeLog(dir, {
			kind: 'accept',
			by: 'cli',
			partial: false,
			files: [recordFile('a', 'x', 'y')],
		});
		appendFileSync(join(dir, runFileNames.changeLog), '{"kind":"revert","at":"2026');
		expect(await readChangeLog(dir)).toHaveLength(1);
		await appendChangeLog(dir, {
			kind: 'revert',
			by: 'cli',
			mode: 'revert',
			files: [recordFile('a', 'y', 'x')],
		});
		const entries = await readChangeLog(dir);
		expect(entries.map((entry) => entry.kind)).toEqual(['accept', 'revert']);
		expect(readFileSync(join(dir, runFileNames.changeLog), 'utf8').split('\n')).toHaveLength(4);
		expect(await readChangeOutcome(dir)).toBe('reverted');
	});

	it('derives none, pending, rejected, partly-accepted and accepted again after a re-apply', async () => {
		expect(await readChangeOutcome(runDir(0))).toBe('none');
		const dir = runDir(2);
		expect(await readChangeOutcome(dir)).toBe('pending');
		const rejected = runDir(2);
		await appendChangeLog(rejected, { kind: 'reject', by: 'editor', paths: ['a', 'b'] });
		expect(await readChangeOutcome(rejected)).toBe('rejected');

		await appendChangeLog(dir, {
			kind: 'accept',
			by: 'editor',
			partial: false,
			files: [recordFile('a', 'x', 'y')],
		});
		expect(await readChangeOutcome(dir)).toBe('partly-accepted');
		await appendChangeLog(dir, {
			kind: 'accept',
			by: 'editor',
			partial: false,
			files: [recordFile('b', null, 'z')],
		});
		expect(await readChangeOutcome(dir)).toBe('accepted');
		await appendChangeLog(dir, {
			kind: 'revert',
			by: 'editor',
			mode: 'revert',
			files: [recordFile('a', 'y', 'x')],
		});
		expect(await readChangeOutcome(dir)).toBe('partly-accepted');
		await appendChangeLog(dir, {
			kind: 'revert',
			by: 'editor',
			mode: 'revert',
			files: [recordFile('b', 'z', null)],
		});
		expect(await readChangeOutcome(dir)).toBe('reverted');
		await appendChangeLog(dir, {
			kind: 'revert',
			by: 'cli',
			mode: 'reapply',
			files: [recordFile('a', 'x', 'y'), recordFile('b', null, 'z')],
		});
		expect(await readChangeOutcome(dir)).toBe('accepted');
	});

	it('a set replaced in the review before any decision is superseded; one accepted first stays accepted', async () => {
		const replaced = runDir(2);
		await appendChangeLog(replaced, { kind: 'supersede', by: 'editor', byRun: 'later-run' });
		expect(await readChangeOutcome(replaced)).toBe('superseded');
		const accepted = runDir(1);
		await appendChangeLog(accepted, {
			kind: 'accept',
			by: 'editor',
			partial: false,
			files: [recordFile('a', 'x', 'y')],
		});
		await appendChangeLog(accepted, { kind: 'supersede', by: 'cli', byRun: 'later-run' });
		expect(await readChangeOutcome(accepted)).toBe('accepted');
	});

	it('an accept that left hunks out is partly accepted', async () => {
		const dir = runDir(1);
		await appendChangeLog(dir, {
			kind: 'accept',
			by: 'editor',
			partial: true,
			files: [recordFile('a', 'x', 'y')],
		});
		expect(await readChangeOutcome(dir)).toBe('partly-accepted');
	});

	it("never appends through a link a repository planted at a run's changes-log.jsonl", async () => {
		const runDir = mkdtempSync(join(tmpdir(), 'massgen-run-'));
		const victim = join(mkdtempSync(join(tmpdir(), 'massgen-home-')), '.bashrc');
		writeFileSync(victim, 'export PATH\n', { mode: 0o644 });
		symlinkSync(victim, join(runDir, runFileNames.changeLog));
		await expect(appendChangeLog(runDir, { kind: 'reject', by: 'cli', paths: ['a.txt'] })).rejects.toThrow();
		expect(readFileSync(victim, 'utf8')).toBe('export PATH\n');
		expect(statSync(victim).mode & 0o777).toBe(0o644);
	});
});

describe('fileOutcomes: what became of each file, the last entry counting', () => {
	const at = '2026-03-01T09:00:00.000Z';
	const accept = (paths: string[], partialPaths?: string[]): ChangeLogEntry => ({
		kind: 'accept',
		at,
		by: 'editor',
		partial: (partialPaths ?? []).length > 0,
		...(partialPaths ? { partialPaths } : {}),
		files: paths.map((path) => recordFile(path, 'old\n', 'new\n')),
	});
	const revert = (mode: 'revert' | 'reapply', paths: string[]): ChangeLogEntry =>
		({
			kind: 'revert',
			at,
			by: 'editor',
			mode,
			files: paths.map((path) => recordFile(path, 'new\n', 'old\n')),
		}) as const;

	it('accepted, partly accepted (named in partialPaths), rejected; a revert and a re-apply', () => {
		const entries: ChangeLogEntry[] = [
			accept(['a.ts', 'b.ts'], ['b.ts']),
			{ kind: 'reject', at, by: 'editor', paths: ['c.ts'] },
		];
		expect(Object.fromEntries(fileOutcomes(entries))).toEqual({
			'a.ts': 'accepted',
			'b.ts': 'partly-accepted',
			'c.ts': 'rejected',
		});
		expect(Object.fromEntries(fileOutcomes([...entries, revert('revert', ['a.ts', 'b.ts'])]))).toMatchObject({
			'a.ts': 'reverted',
			'b.ts': 'reverted',
		});
		expect(
			Object.fromEntries(fileOutcomes([...entries, revert('revert', ['b.ts']), revert('reapply', ['b.ts'])])),
		).toMatchObject({ 'b.ts': 'partly-accepted' });
	});

	it('an entry without partialPaths (the CLI, older records) counts its files as accepted; pending files are absent', () => {
		const outcomes = fileOutcomes([
			{ ...(accept(['a.ts']) as ChangeLogEntry & { kind: 'accept' }), partial: true },
		]);
		expect(outcomes.get('a.ts')).toBe('accepted');
		expect(outcomes.has('b.ts')).toBe(false);
		// A revert of a file no accept wrote says nothing about it.
		expect(fileOutcomes([revert('revert', ['z.ts'])]).size).toBe(0);
	});
});
