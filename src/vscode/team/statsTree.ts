/**
 * The Team view's "Stats" rows as plain data (no `vscode`, so test/unit/vscode/statsTree.test.ts
 * reads them as they are): the node over the leaderboard (`core/stats/leaderboard.ts`), one row per
 * model (ranked first, in the leaderboard's order), and the runs it did not count. `teamTree.ts`
 * maps each look to a TreeItem; the words come from `statsWords.ts` (localised there).
 */
import type { Leaderboard, StatsRow } from '../../core/stats/leaderboard.js';
import type { SkippedRun } from '../../core/stats/runFacts.js';
import { usd } from '../../core/stats/suggestTeam.js';
import { formatDuration } from '../../core/sessions/reportFormat.js';

export type StatsNode =
	| { readonly kind: 'stats'; readonly board: Leaderboard | undefined; readonly error?: string }
	| {
			readonly kind: 'stats-model';
			readonly row: StatsRow;
			readonly rank: number | undefined;
			readonly minRuns: number;
	  }
	| { readonly kind: 'stats-skipped'; readonly skipped: readonly SkippedRun[] };

/** How a row shows: label, description, a plain-text tooltip, a codicon, whether it has children. */
export interface StatsLook {
	readonly label: string;
	readonly description: string;
	readonly tooltip: string;
	readonly icon: string;
	readonly expandable: boolean;
}

/** Every text of the rows; `statsWords.ts` fills it with `vscode.l10n.t` (German in the bundle). */
export interface StatsWords {
	readonly stats: string;
	readonly noRuns: string;
	readonly readFailed: (error: string) => string;
	readonly runs: (count: number) => string;
	readonly won: (count: number) => string;
	readonly accepted: (accepted: number, of: number) => string;
	readonly perRun: (cost: string) => string;
	readonly tooFew: string;
	readonly acceptanceRate: (percent: number) => string;
	readonly skipped: (count: number) => string;
	/** The tooltip's lines, each with its figures. */
	readonly rank: (rank: number) => string;
	readonly unranked: (runs: number, minRuns: number) => string;
	readonly answers: (runs: number, answers: number) => string;
	readonly wins: (wins: number, runs: number) => string;
	readonly votes: (votes: number) => string;
	readonly agreed: (agreed: number, voted: number) => string;
	readonly changes: (
		wins: number,
		unchanged: number,
		partly: number,
		rejected: number,
		reverted: number,
	) => string;
	readonly runnerUp: (hunks: number) => string;
	readonly cost: (perRun: string, time: string) => string;
	readonly noPrice: string;
	readonly boardTooltip: (runs: number, minRuns: number, since: string | null) => string;
	readonly skippedMore: (count: number) => string;
}

/** How many skipped runs a tooltip names (the rest are counted). */
const namedSkips = 10;

/** The Stats node's children: one row per model (ranked first, as the leaderboard orders them), then what was not counted. */
export function statsChildren(board: Leaderboard | undefined): StatsNode[] {
	if (!board) return [];
	let rank = 0;
	const models = board.models.map((row): StatsNode => ({
		kind: 'stats-model',
		row,
		rank: row.ranked ? ++rank : undefined,
		minRuns: board.minRuns,
	}));
	return board.skipped.length > 0 ? [...models, { kind: 'stats-skipped', skipped: board.skipped }] : models;
}

/**
 * Its winning changes the user accepted (whole or in part) of those decided (accepted, rejected or
 * reverted): the leaderboard's ranking figure (`acceptanceOf`) and the report's "Accepted" column.
 */
export function acceptedOf(row: StatsRow): { accepted: number; of: number } {
	const accepted = row.acceptedUnchanged + row.partlyAccepted;
	return { accepted, of: accepted + row.rejected + row.reverted };
}

export function statsLook(node: StatsNode, words: StatsWords): StatsLook {
	switch (node.kind) {
		case 'stats':
			return boardLook(node.board, node.error, words);
		case 'stats-model':
			return modelLook(node.row, node.rank, node.minRuns, words);
		case 'stats-skipped': {
			const named = node.skipped.slice(0, namedSkips).map((skip) => `${skip.runId}: ${skip.reason}`);
			const more = node.skipped.length - named.length;
			return {
				label: words.skipped(node.skipped.length),
				description: '',
				tooltip: [...named, ...(more > 0 ? [words.skippedMore(more)] : [])].join('\n'),
				icon: 'info',
				expandable: false,
			};
		}
	}
}

function boardLook(board: Leaderboard | undefined, error: string | undefined, words: StatsWords): StatsLook {
	if (!board) {
		const text = error === undefined ? words.noRuns : words.readFailed(error);
		return { label: words.stats, description: text, tooltip: text, icon: 'graph', expandable: false };
	}
	const parts = [board.runs === 0 ? words.noRuns : words.runs(board.runs)];
	if (board.acceptanceRate !== null) parts.push(words.acceptanceRate(Math.round(board.acceptanceRate * 100)));
	return {
		label: words.stats,
		description: parts.join(' · '),
		tooltip: words.boardTooltip(board.runs, board.minRuns, board.since),
		icon: 'graph',
		expandable: board.models.length > 0 || board.skipped.length > 0,
	};
}

function modelLook(row: StatsRow, rank: number | undefined, minRuns: number, words: StatsWords): StatsLook {
	const { accepted, of } = acceptedOf(row);
	const cost = row.costPerRunUsd === null ? words.noPrice : usd(row.costPerRunUsd);
	const description = row.ranked
		? [
				words.runs(row.runs),
				words.won(row.wins),
				...(of > 0 ? [words.accepted(accepted, of)] : []),
				...(row.costPerRunUsd !== null ? [words.perRun(cost)] : []),
			].join(' · ')
		: [words.runs(row.runs), words.tooFew].join(' · ');
	const tooltip = [
		`${row.label} — ${rank === undefined ? words.unranked(row.runs, minRuns) : words.rank(rank)}`,
		words.answers(row.runs, row.answers),
		words.wins(row.wins, row.runs),
		words.votes(row.votesReceived),
		words.agreed(row.agreedWithFinal, row.votedRuns),
		words.changes(row.winsWithChanges, row.acceptedUnchanged, row.partlyAccepted, row.rejected, row.reverted),
		words.runnerUp(row.runnerUpHunksTaken),
		words.cost(cost, formatDuration(row.msPerRun)),
	].join('\n');
	return {
		label: row.label,
		description,
		tooltip,
		icon: row.ranked ? 'star' : 'circle-outline',
		expandable: false,
	};
}
