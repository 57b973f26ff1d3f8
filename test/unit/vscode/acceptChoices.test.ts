/**
 * What an editor accept records beyond the winner's proposal (`acceptChoices`, which
 * `acceptPending` appends to the changes log): the runner-up hunks selected, with their agents, and
 * the files the user edited. On the pending set the review really keeps.
 */
import { describe, expect, it } from 'vitest';
import { acceptChoices } from '../../../src/core/changes/acceptChoices.js';
import { buildReviewChangeSet } from '../../../src/core/changes/changeSet.js';
import { sha256 } from '../../../src/core/workspace/sha256.js';
import type { FileChange } from '../../../src/contract/fileChange.js';
import { PendingChangeSet } from '../../../src/vscode/changes/pendingChangeSet.js';
import type { FinishedRun } from '../../../src/vscode/run/runTypes.js';

const lines = (...items: string[]) => items.map((item) => `${item}\n`).join('');
const base = lines('one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight');
const team = base.replace('two', 'TWO');
const modify = (path: string, content: string): FileChange => ({
	path,
	kind: 'modify',
	baseHash: sha256(base),
	base,
	content,
});

function pending() {
	// r and s both changed "eight" the same way; s also changed "five".
	const answers = [
		{ agentId: 'r', label: 'agent2.1', changes: [modify('a.txt', base.replace('eight', 'EIGHT'))] },
		{
			agentId: 's',
			label: 'agent3.2',
			changes: [
				modify('a.txt', base.replace('eight', 'EIGHT').replace('five', 'FIVE')),
				modify('b.txt', team),
			],
		},
	];
	const set = buildReviewChangeSet({
		runId: 'r1',
		winner: { agentId: 'w', label: 'agent1.final' },
		changes: [modify('a.txt', team), modify('b.txt', team)],
		answers,
	});
	return new PendingChangeSet({} as FinishedRun, set, answers);
}

const choicesOf = (set: PendingChangeSet) => acceptChoices(set.files(), (path) => set.selected(path));

describe('acceptChoices: what an accept took beyond the winner’s proposal', () => {
	it('the winner’s proposal as it is: nothing', () => {
		expect(choicesOf(pending())).toEqual({ runnerUpHunks: [], editedPaths: [] });
	});

	it('each selected runner-up hunk, once, with every agent that made it', () => {
		const set = pending();
		const alts = set.file('a.txt')!.alternatives;
		const eight = alts.find((alt) => alt.added.includes('EIGHT'))!;
		const five = alts.find((alt) => alt.added.includes('FIVE'))!;
		set.select('a.txt', [eight.id, five.id], true);
		// In the file's order of alternatives: "eight" (r and s made it) and "five" (s alone).
		expect(choicesOf(set)).toEqual({
			runnerUpHunks: alts
				.filter((alt) => alt === eight || alt === five)
				.map((alt) => ({ path: 'a.txt', from: alt === eight ? ['r', 's'] : ['s'] })),
			editedPaths: [],
		});
		expect(eight.from.map((one) => one.agentId)).toEqual(['r', 's']);
	});

	it('a file the user edited, and a runner-up hunk kept in it, are both recorded', () => {
		const set = pending();
		const eight = set.file('a.txt')!.alternatives.find((alt) => alt.added.includes('EIGHT'))!;
		set.select('a.txt', [eight.id], true);
		set.setUserText('a.txt', set.proposedText('a.txt').replace('three', 'THREE (mine)'));
		set.setUserText('b.txt', team.replace('one', 'ONE'));
		expect(choicesOf(set)).toEqual({
			runnerUpHunks: [{ path: 'a.txt', from: ['r', 's'] }],
			editedPaths: ['a.txt', 'b.txt'],
		});
		// The user's own hunk left out: the file's accept takes none of the user's text.
		const mine = set.file('b.txt')!.hunks.find((hunk) => hunk.byUser)!;
		set.select('b.txt', [mine.id], false);
		expect(choicesOf(set).editedPaths).toEqual(['a.txt']);
	});
});
