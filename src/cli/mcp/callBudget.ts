/**
 * The budget of one `massgen mcp` team call: `--max-cost` and `--max-tokens` as `massgen run`
 * takes them, and `--max-cost-per-day` (the editor passes `massgen.maxCostUsdPerDay`): the
 * workspace's runs of this machine started on the local day (`spentOnDay`: `result.json` usage, a
 * cloned repository's runs never count) plus the call's own cap stay within it. Calls run one at
 * a time per workspace in this process (`teamCall`), so nothing else of ours is held; the editor's
 * runs going at the same moment are not seen until they finish.
 */
import { dayBudget } from '../../core/run/dayBudget.js';
import { formatUsd } from '../../core/run/costEstimate.js';
import type { UserBudget } from '../../core/run/runBudgetOf.js';
import { spentOnDay } from '../../core/runStore/daySpend.js';
import type { McpArgs } from '../args.js';
import type { TeamCallRefusal } from '../headless/teamCall.js';

export async function callBudget(
	caps: Pick<McpArgs, 'workspace' | 'maxCostUsd' | 'maxTokens' | 'maxCostUsdPerDay'>,
	env: NodeJS.ProcessEnv,
	now: Date = new Date(),
): Promise<{ readonly budget: UserBudget } | TeamCallRefusal> {
	const budget: UserBudget = {
		...(caps.maxCostUsd ? { maxCostUsd: { limit: caps.maxCostUsd, source: '--max-cost' } } : {}),
		...(caps.maxTokens ? { maxTokens: { limit: caps.maxTokens, source: '--max-tokens' } } : {}),
	};
	const perDayUsd = caps.maxCostUsdPerDay;
	if (perDayUsd === undefined) return { budget };
	const spentUsd = (await spentOnDay(caps.workspace, now, { env })).usd;
	const verdict = dayBudget({
		perDayUsd,
		source: '--max-cost-per-day',
		spentUsd,
		going: [],
		perRun: budget.maxCostUsd,
	});
	if (!verdict.ok) {
		return {
			refused: 'budget',
			message: `today's runs in this workspace spent ${formatUsd(spentUsd)} of the day's ${formatUsd(perDayUsd)} (--max-cost-per-day); no team call until tomorrow`,
			notes: [],
		};
	}
	return { budget: { ...budget, ...(verdict.maxCostUsd ? { maxCostUsd: verdict.maxCostUsd } : {}) } };
}
