import { describe, expect, it } from 'vitest';
import type { Leaderboard, StatsRow } from '../../../src/core/stats/leaderboard.js';
import { statsChildren, statsLook, type StatsWords } from '../../../src/vscode/team/statsTree.js';

/** English words without VS Code (statsWords.ts fills the same shape with vscode.l10n.t). */
const words: StatsWords = {
	stats: 'Stats',
	noRuns: 'no runs on this machine yet',
	readFailed: (error) => `could not read the runs: ${error}`,
	runs: (count) => (count === 1 ? '1 run' : `${count} runs`),
	won: (count) => `won ${count}`,
	accepted: (accepted, of) => `accepted ${accepted} of ${of}`,
	perRun: (cost) => `${cost}/run`,
	tooFew: 'too few to rank',
	acceptanceRate: (percent) => `you accepted ${percent}%`,
	skipped: (count) => `${count} runs not counted`,
	rank: (rank) => `rank ${rank}`,
	unranked: (runs, minRuns) => `not ranked: ${runs} of ${minRuns}`,
	answers: (runs, answers) => `Runs: ${runs} · answers: ${answers}`,
	wins: (wins, runs) => `Won: ${wins} of ${runs} runs`,
	votes: (votes) => `Votes received: ${votes}`,
	agreed: (agreed, voted) => `Agreed: ${agreed} of ${voted}`,
	changes: (wins, unchanged, partly, rejected, reverted) =>
		`Changes: ${wins} · ${unchanged} · ${partly} · ${rejected} · ${reverted}`,
	runnerUp: (hunks) => `Runner-up hunks: ${hunks}`,
	cost: (perRun, time) => `Cost: ${perRun} · time: ${time}`,
	noPrice: 'no price',
	boardTooltip: (runs, minRuns, since) => `${runs} runs, rank after ${minRuns}, since ${since}`,
	skippedMore: (count) => `… and ${count} more`,
};

function row(key: string, extra: Partial<StatsRow> = {}): StatsRow {
	return {
		key,
		label: key,
		runs: 12,
		answers: 20,
		wins: 5,
		votesReceived: 9,
		votedRuns: 10,
		agreedWithFinal: 7,
		winsWithChanges: 5,
		acceptedUnchanged: 3,
		partlyAccepted: 1,
		rejected: 1,
		reverted: 0,
		runnerUpHunksTaken: 2,
		costPerRunUsd: 0.021,
		msPerRun: 72_000,
		ranked: true,
		...extra,
	};
}

function board(models: StatsRow[], extra: Partial<Leaderboard> = {}): Leaderboard {
	return {
		since: null,
		minRuns: 5,
		runs: 15,
		models,
		agents: [],
		teams: [],
		acceptanceRate: 0.8,
		skipped: [],
		...extra,
	};
}

describe('the Team view’s Stats rows (statsTree, no vscode)', () => {
	it('a row per model in the leaderboard’s order, ranks counted over the ranked ones only', () => {
		const nodes = statsChildren(
			board([
				row('openai/gpt-4o'),
				row('claude/claude-haiku-4-5'),
				row('grok/grok-4', { ranked: false, runs: 3 }),
			]),
		);
		expect(
			nodes.map((node) => (node.kind === 'stats-model' ? [node.row.key, node.rank] : node.kind)),
		).toEqual([
			['openai/gpt-4o', 1],
			['claude/claude-haiku-4-5', 2],
			['grok/grok-4', undefined],
		]);
	});

	it('a ranked model: runs, wins, accepted of its winning changes, cost per run; the tooltip has every figure', () => {
		const [node] = statsChildren(board([row('openai/gpt-4o')]));
		const look = statsLook(node!, words);
		expect(look.label).toBe('openai/gpt-4o');
		expect(look.description).toBe('12 runs · won 5 · accepted 4 of 5 · $0.021/run');
		expect(look.tooltip.split('\n')).toEqual([
			'openai/gpt-4o — rank 1',
			'Runs: 12 · answers: 20',
			'Won: 5 of 12 runs',
			'Votes received: 9',
			'Agreed: 7 of 10',
			'Changes: 5 · 3 · 1 · 1 · 0',
			'Runner-up hunks: 2',
			'Cost: $0.021 · time: 1 min 12 s',
		]);
	});

	it('an unranked model says it has too few runs, never a rank; no price and no winning change leave their parts out', () => {
		const few = row('grok/grok-4', { ranked: false, runs: 3 });
		expect(statsLook(statsChildren(board([few]))[0]!, words).description).toBe('3 runs · too few to rank');
		expect(statsLook(statsChildren(board([few]))[0]!, words).tooltip).toMatch(
			/^grok\/grok-4 — not ranked: 3 of 5\n/,
		);
		const free = row('scripted/demo', {
			costPerRunUsd: null,
			winsWithChanges: 0,
			acceptedUnchanged: 0,
			partlyAccepted: 0,
			rejected: 0,
		});
		const look = statsLook(statsChildren(board([free]))[0]!, words);
		expect(look.description).toBe('12 runs · won 5');
		expect(look.tooltip).toContain('Cost: no price · ');
	});

	it('the Stats node: its runs and the user’s acceptance rate; expandable only with rows', () => {
		const look = statsLook({ kind: 'stats', board: board([row('openai/gpt-4o')]) }, words);
		expect([look.label, look.description, look.expandable]).toEqual([
			'Stats',
			'15 runs · you accepted 80%',
			true,
		]);
		const empty = statsLook({ kind: 'stats', board: board([], { runs: 0, acceptanceRate: null }) }, words);
		expect([empty.description, empty.expandable]).toEqual(['no runs on this machine yet', false]);
		const failed = statsLook({ kind: 'stats', board: undefined, error: 'EACCES' }, words);
		expect(failed.description).toBe('could not read the runs: EACCES');
	});

	it('the runs not counted close the list, ten of them named with their reasons, the rest counted', () => {
		const skipped = Array.from({ length: 12 }, (_, i) => ({
			runId: `run-${i}`,
			reason: 'not made on this machine',
		}));
		const nodes = statsChildren(board([row('openai/gpt-4o')], { skipped }));
		const last = nodes.at(-1)!;
		expect(last.kind).toBe('stats-skipped');
		const look = statsLook(last, words);
		expect(look.label).toBe('12 runs not counted');
		const lines = look.tooltip.split('\n');
		expect(lines).toHaveLength(11);
		expect(lines[0]).toBe('run-0: not made on this machine');
		expect(lines[10]).toBe('… and 2 more');
	});
});
