/**
 * The team `massgen init` offers first: Suggest a Team (docs/stats.md) over this machine's runs in
 * the workspace, as members init can write. Three members if the evidence holds for three, else
 * two; none when it holds for neither, or a member is not one init can write as it is.
 */
import type { BackendType } from '../core/config/backendSchema.js';
import { leaderboard } from '../core/stats/leaderboard.js';
import { readRunFacts } from '../core/stats/runFacts.js';
import { suggestTeam } from '../core/stats/suggestTeam.js';
import { parseAgent } from './initArgs.js';

export interface InitSuggestion {
	readonly members: readonly { readonly type: BackendType; readonly model: string }[];
	readonly targetAcceptanceRate: number;
	readonly costPerRunUsd: number;
	/** One line per member, plain words with counts. */
	readonly evidence: readonly string[];
}

/** Model names init writes as they are: a name cut or masked for display is not one. */
const plainModel = /^[\w.:/@+-]{1,200}$/;

export async function initSuggestion(
	workspace: string,
	env: NodeJS.ProcessEnv,
): Promise<InitSuggestion | undefined> {
	const board = leaderboard(await readRunFacts(workspace, { env }));
	for (const size of [3, 2]) {
		const suggestion = suggestTeam(board, { size });
		if ('none' in suggestion) continue;
		const members = suggestion.members.flatMap((row) => {
			const slash = row.label.indexOf('/');
			const model = row.label.slice(slash + 1);
			if (slash <= 0 || !plainModel.test(model)) return [];
			const agent = parseAgent(`${row.label.slice(0, slash)}:${model}`);
			return 'error' in agent ? [] : [agent];
		});
		if (members.length !== suggestion.members.length) return undefined;
		const { targetAcceptanceRate, costPerRunUsd, evidence } = suggestion;
		return { members, targetAcceptanceRate, costPerRunUsd, evidence };
	}
	return undefined;
}
