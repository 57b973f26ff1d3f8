import { describe, expect, it } from 'vitest';
import {
	buildReviewChangeSet,
	type ChangeSetInput,
	targetOf,
	toggleHunk,
} from '../../../src/core/changes/changeSet.js';
import type { FileChange } from '../../../src/contract/fileChange.js';
import { sha256 } from '../../../src/core/workspace/sha256.js';

const lines = (...items: string[]) => items.map((item) => `${item}\n`).join('');
const app = lines('const a = 1;', 'const b = 2;', 'const c = 3;', 'const d = 4;', 'const e = 5;');
const old = lines('legacy');
const modify = (path: string, base: string, content: string): FileChange => ({
	path,
	kind: 'modify',
	baseHash: sha256(base),
	base,
	content,
});

// The winner changes a and e; bob made the same change to a; carol changed a differently and also c.
const winnerApp = app.replace('a = 1', 'a = 10').replace('e = 5', 'e = 50');
const input = (overrides: Partial<ChangeSetInput> = {}): ChangeSetInput => ({
	runId: 'r1',
	winner: { agentId: 'alice', label: 'agent1.final' },
	changes: [
		modify('src/app.ts', app, winnerApp),
		{ path: 'docs/new/guide.md', kind: 'add', baseHash: null, base: null, content: lines('# Guide') },
		{ path: 'old.txt', kind: 'delete', baseHash: sha256(old), base: old, content: null },
		{ path: 'moved.txt', kind: 'add', baseHash: null, base: null, content: old },
	],
	answers: [
		{
			agentId: 'alice',
			label: 'agent1.2',
			changes: [modify('src/app.ts', app, app.replace('a = 1', 'a = 10'))],
		},
		{
			agentId: 'bob',
			label: 'agent2.1',
			changes: [
				modify('src/app.ts', app, app.replace('a = 1', 'a = 10')),
				{ path: 'old.txt', kind: 'delete', baseHash: sha256(old), base: old, content: null },
			],
		},
		{
			agentId: 'carol',
			label: 'agent3.1',
			changes: [modify('src/app.ts', app, app.replace('a = 1', 'a = 11').replace('c = 3', 'c = 30'))],
		},
	],
	...overrides,
});

describe('buildReviewChangeSet', () => {
	const set = buildReviewChangeSet(input());
	const file = (path: string) => set.files.find((candidate) => candidate.path === path)!;

	it('counts the agents whose answers count (winner + others with answers)', () => {
		expect(set.agentCount).toBe(3);
		expect(set.files.map((f) => [f.path, f.kind, f.base])).toEqual([
			['src/app.ts', 'modify', app],
			['docs/new/guide.md', 'add', ''],
			['old.txt', 'delete', old],
			['moved.txt', 'add', ''],
		]);
	});

	it("marks for each of the winner's hunks which other agents made the same change", () => {
		const hunks = file('src/app.ts').hunks;
		expect(hunks.map((h) => [h.id, h.oldStart, h.agreeing])).toEqual([
			['final#0', 0, ['bob']],
			['final#1', 4, []],
		]);
		expect(file('old.txt').hunks.map((h) => h.agreeing)).toEqual([['bob']]);
		expect(file('docs/new/guide.md').hunks.map((h) => h.agreeing)).toEqual([[]]);
	});

	it("lists runner-up hunks the winner did not make, with the winner's hunks they would replace", () => {
		expect(
			file('src/app.ts').alternatives.map((a) => [a.id, a.added, a.from.map((f) => f.label), a.replaces]),
		).toEqual([
			['alt#0', 'const a = 11;\n', ['agent3.1'], ['final#0']],
			['alt#1', 'const c = 30;\n', ['agent3.1'], []],
		]);
	});

	it('detects a rename: an added file with the content of a deleted one', () => {
		expect(file('moved.txt').renamedFrom).toBe('old.txt');
		expect(file('docs/new/guide.md').renamedFrom).toBeNull();
	});

	it('without answers there are no marks and the count is the winner alone', () => {
		const bare = buildReviewChangeSet(input({ answers: undefined }));
		expect(bare.agentCount).toBe(1);
		expect(bare.files[0]!.hunks.every((h) => h.agreeing.length === 0)).toBe(true);
	});

	it('gives an empty added file one hunk to select', () => {
		const empty = buildReviewChangeSet(
			input({ changes: [{ path: 'pkg/__init__.py', kind: 'add', baseHash: null, base: null, content: '' }] }),
		);
		expect(empty.files[0]!.hunks).toHaveLength(1);
		expect(targetOf(empty.files[0]!, new Set(['final#0']))).toEqual({ op: 'write', text: '' });
	});
});

describe('targetOf and toggleHunk', () => {
	const set = buildReviewChangeSet(input());
	const [appFile, added, deleted] = set.files as [never, never, never];

	it('applies the selected hunks to the base', () => {
		expect(targetOf(appFile, new Set(['final#0', 'final#1']))).toEqual({ op: 'write', text: winnerApp });
		expect(targetOf(appFile, new Set(['final#1']))).toEqual({
			op: 'write',
			text: app.replace('e = 5', 'e = 50'),
		});
		expect(targetOf(appFile, new Set())).toEqual({ op: 'none' });
	});

	it("takes a runner-up's hunk instead of the winner's, and an extra one", () => {
		let selected = toggleHunk(appFile, new Set(['final#0', 'final#1']), 'alt#0', true);
		expect([...selected].sort()).toEqual(['alt#0', 'final#1']);
		selected = toggleHunk(appFile, selected, 'alt#1', true);
		expect(targetOf(appFile, selected)).toEqual({
			op: 'write',
			text: app.replace('a = 1', 'a = 11').replace('c = 3', 'c = 30').replace('e = 5', 'e = 50'),
		});
		selected = toggleHunk(appFile, selected, 'final#0', true);
		expect([...selected].sort()).toEqual(['alt#1', 'final#0', 'final#1']);
		expect([...toggleHunk(appFile, selected, 'final#1', false)].sort()).toEqual(['alt#1', 'final#0']);
	});

	it('adds and deletes whole files', () => {
		expect(targetOf(added, new Set(['final#0']))).toEqual({ op: 'write', text: '# Guide\n' });
		expect(targetOf(added, new Set())).toEqual({ op: 'none' });
		expect(targetOf(deleted, new Set(['final#0']))).toEqual({ op: 'delete' });
		expect(targetOf(deleted, new Set())).toEqual({ op: 'none' });
	});

	it('refuses a selection of overlapping hunks', () => {
		expect(() => targetOf(appFile, new Set(['final#0', 'alt#0']))).toThrow(/overlap/);
	});
});
