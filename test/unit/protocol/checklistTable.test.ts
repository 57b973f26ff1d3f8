/**
 * The panel's checklist score table (`checklistTable`, drawn by webview/render/checklistScores.ts):
 * the voters' scores per answer and criterion, and bounded whatever a replayed log holds. A
 * planted log's votes scored thousands of made-up labels (64 a vote, as the event schema allows):
 * each became a column and each cell looked through every vote, so 31 votes of 128 KiB drew
 * ~400,000 cells at ~400 M comparisons in the webview.
 */
import { describe, expect, it } from 'vitest';
import type { RunEventBody } from '../../../src/contract/runEvents.js';
import { checklistTable, checklistTableLimits } from '../../../src/protocol/checklistTable.js';
import { reduceRunEvents } from '../../../src/protocol/reduceRun.js';
import { initialRunState } from '../../../src/protocol/runState.js';
import { stamp } from './eventFixtures.js';

const runStart: RunEventBody = {
	type: 'run-start',
	question: 'q',
	workspace: '/tmp/ws',
	agents: [
		{ agentId: 'alice', anonId: 'agent1', provider: 'openai', model: 'm' },
		{ agentId: 'bob', anonId: 'agent2', provider: 'openai', model: 'm' },
	],
};
const criteria = [
	{ id: 'C1', text: 'Keeps the API', category: 'primary' as const, round: 0 },
	{ id: 'C2', text: 'Has tests', category: 'standard' as const, round: 0 },
];
const answer = (agentId: string, label: string): RunEventBody => ({
	type: 'new-answer',
	agentId,
	label,
	content: 'a',
});

describe('checklist score table', () => {
	it('a cell per answer and criterion with every current vote’s score, marked below the threshold', () => {
		const state = reduceRunEvents(
			initialRunState(),
			stamp([
				runStart,
				{ type: 'checklist', criteria, threshold: 7 },
				answer('alice', 'agent1.1'),
				answer('bob', 'agent2.1'),
				...['alice', 'bob'].map((voter, i): RunEventBody => ({
					type: 'vote',
					agentId: voter,
					voter,
					votedFor: 'agent1.1',
					votedForAgent: 'alice',
					reason: 'r',
					scores: [
						{
							label: 'agent1.1',
							criteria: [
								{ id: 'C1', score: 9 },
								{ id: 'C2', score: 8 - i },
							],
						},
						{
							label: 'agent2.1',
							criteria: [
								{ id: 'C1', score: 5 },
								{ id: 'C2', score: 7 },
							],
						},
					],
				})),
			]),
		);
		const table = checklistTable(state)!;
		expect(table.columns).toEqual([
			{ label: 'agent1.1', agentId: 'alice' },
			{ label: 'agent2.1', agentId: 'bob' },
		]);
		expect(table.rows.map((row) => row.criterion.id)).toEqual(['C1', 'C2']);
		expect(table.rows[0]!.cells).toEqual([
			{
				scores: [
					{ voter: 'alice', score: 9 },
					{ voter: 'bob', score: 9 },
				],
				below: false,
			},
			{
				scores: [
					{ voter: 'alice', score: 5 },
					{ voter: 'bob', score: 5 },
				],
				below: true,
			},
		]);
		expect(table.rows[1]!.cells[0]).toEqual({
			scores: [
				{ voter: 'alice', score: 8 },
				{ voter: 'bob', score: 7 },
			],
			below: false,
		});
		expect(checklistTable(reduceRunEvents(initialRunState(), stamp([runStart])))).toBeNull();
	});

	it('a planted log’s scores of made-up labels add no column, and the columns are capped', () => {
		const answers = Array.from({ length: 100 }, (_, i) => answer('alice', `agent1.${i + 1}`));
		const votes = Array.from({ length: 50 }, (_, v): RunEventBody => ({
			type: 'vote',
			agentId: `voter${v}`,
			voter: `voter${v}`,
			votedFor: 'agent1.1',
			votedForAgent: 'alice',
			reason: 'r',
			scores: Array.from({ length: 64 }, (_, i) => ({
				// Half of them made up, half the run's answers.
				label: i % 2 ? `made-up${v}.${i}` : `agent1.${((v * 32 + i / 2) % 100) + 1}`,
				criteria: [{ id: 'C1', score: 3 }],
			})),
		}));
		const state = reduceRunEvents(
			initialRunState(),
			stamp([runStart, { type: 'checklist', criteria, threshold: 7 }, ...answers, ...votes]),
		);
		const table = checklistTable(state)!;
		expect(table.columns).toHaveLength(checklistTableLimits.columns);
		expect(table.columns.every(({ label }) => label.startsWith('agent1.'))).toBe(true);
		// The newest answers, in the order they came.
		expect(table.columns.at(-1)!.label).toBe('agent1.100');
		expect(table.rows.every((row) => row.cells.length === checklistTableLimits.columns)).toBe(true);
	});
});
