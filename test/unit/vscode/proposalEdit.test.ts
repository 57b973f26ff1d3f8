import { describe, expect, it } from 'vitest';
import { buildReviewChangeSet, targetOf } from '../../../src/core/changes/changeSet.js';
import { sha256 } from '../../../src/core/workspace/sha256.js';
import type { FileChange } from '../../../src/contract/fileChange.js';
import { PendingChangeSet } from '../../../src/vscode/changes/pendingChangeSet.js';
import type { FinishedRun } from '../../../src/vscode/run/runTypes.js';

const lines = (...items: string[]) => items.map((item) => `${item}\n`).join('');
const base = lines('one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight');
const team = base.replace('two', 'TWO').replace('six', 'SIX');
const runnerUp = base.replace('eight', 'EIGHT');
const changes: FileChange[] = [
	{ path: 'a.txt', kind: 'modify', baseHash: sha256(base), base, content: team },
	{ path: 'new.txt', kind: 'add', baseHash: null, base: null, content: 'team\n' },
	{ path: 'old.txt', kind: 'delete', baseHash: sha256('old\n'), base: 'old\n', content: null },
];

function pending() {
	const answers = [
		{
			agentId: 'r',
			label: 'agent2.1',
			changes: [{ path: 'a.txt', kind: 'modify' as const, baseHash: sha256(base), base, content: runnerUp }],
		},
	];
	const set = buildReviewChangeSet({
		runId: 'r1',
		winner: { agentId: 'w', label: 'agent1.final' },
		changes,
		answers,
	});
	return new PendingChangeSet({} as FinishedRun, set, answers);
}

const hunkOf = (set: PendingChangeSet, path: string, text: string) =>
	set.file(path)!.hunks.find((hunk) => hunk.added.includes(text))!;

describe("PendingChangeSet: the user's edit of the proposed side", () => {
	it('the saved text is the proposal: re-split against the base, the team’s hunks kept by id, the user’s marked, all selected', () => {
		const set = pending();
		const mine = team.replace('four', 'FOUR (mine)');
		expect(set.setUserText('a.txt', mine)).toBe(true);
		expect(set.proposedText('a.txt')).toBe(mine);
		const view = set.view().files.find((file) => file.path === 'a.txt')!;
		expect(view.edited).toBe(true);
		expect(view.hunks.map((hunk) => [hunk.id, hunk.byUser === true, hunk.selected])).toEqual([
			['final#0', false, true],
			['you#0', true, true],
			['final#1', false, true],
		]);
		// The team's hunks keep their agents; the user's has none.
		expect(view.hunks[0]!.agents).toEqual(['w']);
		expect(view.hunks[1]!.agents).toEqual([]);
		// Runner-up hunks are not offered on the user's text; the team's final text is unchanged.
		expect(view.alternatives).toEqual([]);
		expect(set.teamFile('a.txt')!.final).toBe(team);
		// Accept writes exactly the user's text (targetOf is what acceptPending plans from).
		expect(targetOf(set.file('a.txt')!, set.selected('a.txt'))).toEqual({ op: 'write', text: mine });
	});

	it('the checkboxes still work on the edited file: leaving out the user’s hunk puts the base lines back', () => {
		const set = pending();
		set.setUserText('a.txt', team.replace('four', 'FOUR'));
		expect(set.select('a.txt', ['you#0'], false)).toBe(true);
		expect(set.proposedText('a.txt')).toBe(team);
		expect(set.select('a.txt', ['final#0'], false)).toBe(true);
		expect(set.proposedText('a.txt')).toBe(base.replace('six', 'SIX'));
		// The edit survives selection changes: ticking the hunk again brings the user's line back.
		set.select('a.txt', ['you#0', 'final#0'], true);
		expect(set.proposedText('a.txt')).toBe(team.replace('four', 'FOUR'));
		expect(set.userProposal('a.txt')?.text).toBe(team.replace('four', 'FOUR'));
	});

	it('a runner-up hunk the user had taken stays that agent’s, not "edited by you"', () => {
		const set = pending();
		const alt = set.file('a.txt')!.alternatives[0]!;
		set.select('a.txt', [alt.id], true);
		const withAlt = set.proposedText('a.txt');
		set.setUserText('a.txt', withAlt.replace('one', 'ONE'));
		const view = set.view().files.find((file) => file.path === 'a.txt')!;
		const kept = view.hunks.find((hunk) => hunk.id === alt.id)!;
		expect(kept.byUser).toBeUndefined();
		expect(kept.agents).toEqual(['r']);
		expect(kept.sources).toEqual(['agent2.1']);
		expect(view.hunks.filter((hunk) => hunk.byUser).map((hunk) => hunk.lines)).toEqual([
			['-one', '-two', '+ONE', '+TWO'],
		]);
	});

	it('Discard My Edit goes back to the team’s proposal and the selection it had', () => {
		const set = pending();
		set.select('a.txt', [hunkOf(set, 'a.txt', 'SIX').id], false);
		const before = set.proposedText('a.txt');
		set.setUserText('a.txt', 'all mine\n');
		expect(set.discardUserText('a.txt')).toBe(true);
		expect(set.discardUserText('a.txt')).toBe(false);
		expect(set.proposedText('a.txt')).toBe(before);
		expect(set.view().files.find((file) => file.path === 'a.txt')!.edited).toBeUndefined();
		// Saving the team's text itself is no edit.
		set.setUserText('a.txt', before);
		expect(set.userProposal('a.txt')).toBeUndefined();
	});

	it('a deletion the user gives text becomes a modification; an added file takes the user’s text', () => {
		const set = pending();
		set.setUserText('old.txt', 'old, kept\n');
		expect(targetOf(set.file('old.txt')!, set.selected('old.txt'))).toEqual({
			op: 'write',
			text: 'old, kept\n',
		});
		set.setUserText('new.txt', 'mine\n');
		expect(targetOf(set.file('new.txt')!, set.selected('new.txt'))).toEqual({ op: 'write', text: 'mine\n' });
		// An added file emptied by the user is still one selectable (empty) change.
		set.setUserText('new.txt', '');
		expect(targetOf(set.file('new.txt')!, set.selected('new.txt'))).toEqual({ op: 'write', text: '' });
	});

	it('a file no longer pending takes no edit', () => {
		const set = pending();
		set.remove(['a.txt'], 'accepted');
		expect(set.setUserText('a.txt', 'late\n')).toBe(false);
		expect(set.proposedText('a.txt')).toBe(team);
	});
});

describe('PendingChangeSet.proposalFiles: what the next follow-up tells the team', () => {
	it('every pending file as Accept would write it now, with the lines the user wrote (1-based, in the proposal)', () => {
		const set = pending();
		const mine = team.replace('four', 'FOUR').replace('seven', 'SEVEN\nseven and a half');
		set.setUserText('a.txt', mine);
		expect(set.proposalFiles()).toEqual([
			{
				path: 'a.txt',
				content: mine,
				userEdited: [
					{ line: 4, endLine: 4 },
					{ line: 7, endLine: 8 },
				],
			},
			{ path: 'new.txt', content: 'team\n' },
			{ path: 'old.txt', content: null },
		]);
	});

	it('a hunk of the user’s left out takes its lines out of the ranges and shifts the later ones', () => {
		const set = pending();
		const mine = lines('zero', 'one', 'TWO', 'three', 'four', 'five', 'SIX', 'SEVEN', 'eight');
		set.setUserText('a.txt', mine);
		const top = set.file('a.txt')!.hunks.find((hunk) => hunk.added.includes('zero'))!;
		expect(set.proposalFiles()[0]!.userEdited).toEqual([
			{ line: 1, endLine: 1 },
			{ line: 8, endLine: 8 },
		]);
		set.select('a.txt', [top.id], false);
		expect(set.proposalFiles()[0]).toEqual({
			path: 'a.txt',
			content: lines('one', 'TWO', 'three', 'four', 'five', 'SIX', 'SEVEN', 'eight'),
			userEdited: [{ line: 7, endLine: 7 }],
		});
	});

	it('on the file as the user has it now: merged three-way as Accept would (their own edits are their lines too); a conflicting file is left out', () => {
		const set = pending();
		set.setUserText('a.txt', team.replace('four', 'FOUR'));
		set.setCurrent('a.txt', base.replace('eight', 'eight (edited on disk)'));
		expect(set.proposalFiles()[0]).toEqual({
			path: 'a.txt',
			content: team.replace('four', 'FOUR').replace('eight', 'eight (edited on disk)'),
			userEdited: [
				{ line: 4, endLine: 4 },
				{ line: 8, endLine: 8 },
			],
		});
		// The user's file now holds the proposal already: told as it is.
		set.setCurrent('new.txt', 'team\n');
		expect(set.proposalFiles()[1]).toEqual({ path: 'new.txt', content: 'team\n' });
		set.setCurrent('a.txt', base.replace('two', 'deux'));
		expect(set.proposalFiles().map((file) => file.path)).toEqual(['new.txt', 'old.txt']);
	});

	it('a file with nothing selected and a file already decided are not told', () => {
		const set = pending();
		set.select('a.txt', ['final#0', 'final#1'], false);
		set.remove(['old.txt'], 'rejected');
		expect(set.proposalFiles()).toEqual([{ path: 'new.txt', content: 'team\n' }]);
	});
});
