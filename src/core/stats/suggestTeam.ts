/**
 * Suggest a Team (docs/stats.md): the cheapest `size` models whose own winning changes the user
 * accepted at least as often as the target (default: the user's acceptance rate over all runs),
 * from ranked rows only, each with its evidence in plain words. No suggestion without that
 * evidence: a model never ranked, never priced, or never decided on is not proposed.
 */
import { acceptanceOf, type Leaderboard, type StatsRow } from './leaderboard.js';
import { maxNameChars } from './statsText.js';

export interface TeamSuggestion {
	members: StatsRow[];
	targetAcceptanceRate: number;
	costPerRunUsd: number;
	/** one line per member, plain words with counts */
	evidence: string[];
}

export interface SuggestTeamOptions {
	/** How many models (2 or more makes a team that votes). */
	size: number;
	/** 0–1; default the board's acceptance rate. */
	targetAcceptanceRate?: number;
}

export function suggestTeam(
	board: Leaderboard,
	options: SuggestTeamOptions,
): TeamSuggestion | { none: string } {
	const size = options.size;
	if (!Number.isInteger(size) || size < 1) {
		return { none: `a team needs at least one member (asked for ${size})` };
	}
	const target = options.targetAcceptanceRate ?? board.acceptanceRate;
	if (target === null) {
		return {
			none: 'no change of any run has been accepted, rejected or reverted yet, so there is no acceptance rate to meet',
		};
	}
	if (!Number.isFinite(target) || target < 0 || target > 1) {
		return { none: `the target acceptance rate must be between 0 and 1 (it is ${target})` };
	}
	const ranked = board.models.filter((row) => row.ranked);
	const named = ranked.filter(namesAModel);
	const decided = named.filter((row) => acceptanceOf(row) !== null);
	const priced = decided.filter((row) => row.costPerRunUsd !== null);
	const meeting = priced.filter((row) => acceptanceOf(row)! >= target);
	if (meeting.length < size) {
		return {
			none:
				`${meeting.length} model(s) meet an acceptance rate of ${percent(target)} and ${size} are needed ` +
				`(${ranked.length} ranked with at least ${board.minRuns} runs` +
				(named.length < ranked.length
					? `, ${ranked.length - named.length} of them without a usable model name`
					: '') +
				`, ${decided.length} with a decided winning change, ` +
				`${priced.length} with a known cost)`,
		};
	}
	const members = meeting
		.sort(
			(a, b) =>
				a.costPerRunUsd! - b.costPerRunUsd! ||
				acceptanceOf(b)! - acceptanceOf(a)! ||
				a.label.localeCompare(b.label),
		)
		.slice(0, size);
	return {
		members,
		targetAcceptanceRate: target,
		costPerRunUsd: members.reduce((sum, row) => sum + row.costPerRunUsd!, 0),
		evidence: members.map(evidenceLine),
	};
}

/**
 * Whether a model row names a model a config can be written with: its record named it (not
 * `unknown`), and the name was not cut or masked for display (`shownName`: `…` at the cap, `?` for
 * an invisible character). Anything else written into a team would be another model or none.
 */
export function namesAModel(row: StatsRow): boolean {
	const name = row.key.replace(/^model:/, '');
	const slash = name.indexOf('/');
	if (slash <= 0) return false;
	return [name.slice(0, slash), name.slice(slash + 1)].every((part) => {
		const chars = [...part];
		return (
			part !== '' &&
			part !== 'unknown' &&
			!part.includes('?') &&
			!(chars.length >= maxNameChars && part.endsWith('…'))
		);
	});
}

/** `openai/gpt-4o-mini: 12 runs, won 5, 4 of 5 winning changes accepted (80%), $0.0031 per run`. */
function evidenceLine(row: StatsRow): string {
	const accepted = row.acceptedUnchanged + row.partlyAccepted;
	const decided = accepted + row.rejected + row.reverted;
	return (
		`${row.label}: ${row.runs} runs, won ${row.wins}, ${accepted} of ${decided} winning changes accepted ` +
		`(${percent(accepted / decided)}), ${usd(row.costPerRunUsd!)} per run`
	);
}

export function percent(rate: number): string {
	return `${Math.round(rate * 100)}%`;
}

export function usd(value: number): string {
	return `$${value < 0.01 ? value.toFixed(4) : value.toFixed(3)}`;
}
