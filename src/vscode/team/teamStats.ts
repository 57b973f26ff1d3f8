import type { Leaderboard } from '../../core/stats/leaderboard.js';
import type { TeamSuggestion } from '../../core/stats/suggestTeam.js';

type StatsEngine = typeof import('./statsEngine.js');

/** The smallest team Suggest a Team proposes: one agent has nobody to compare with or vote for. */
const smallestTeam = 2;

/**
 * The stats core for the editor, loaded at its first use: the leaderboard of a folder's runs (made
 * on this machine: the core skips the others), its Markdown report and a team suggestion from it.
 */
export class TeamStats {
	private _engine: Promise<StatsEngine> | undefined;

	/** The leaderboard of the runs in `root` (the core's `readRunFacts` then `leaderboard`, defaults as `massgen stats`). */
	async board(root: string): Promise<Leaderboard> {
		const stats = await this._load();
		return stats.leaderboard(await stats.readRunFacts(root));
	}

	/** The report Show Team Stats opens: the one renderer the CLI's table uses, as Markdown. */
	async report(board: Leaderboard): Promise<string> {
		return (await this._load()).statsReport(board, 'markdown');
	}

	/**
	 * The cheapest team of `size` members whose history meets the user's acceptance rate; with too
	 * few ranked models for that, the largest smaller team (down to two) the evidence allows.
	 */
	async suggest(board: Leaderboard, size: number): Promise<TeamSuggestion | { none: string }> {
		const stats = await this._load();
		let first: { none: string } | undefined;
		for (let members = Math.max(size, smallestTeam); members >= smallestTeam; members--) {
			const suggestion = stats.suggestTeam(board, { size: members });
			if (!('none' in suggestion)) return suggestion;
			first ??= suggestion;
		}
		return first!;
	}

	private _load(): Promise<StatsEngine> {
		return (this._engine ??= import('./statsEngine.js'));
	}
}
