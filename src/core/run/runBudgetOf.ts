/**
 * A run's budget and estimate from what `runSession` has before the run starts: the config's cap,
 * the user's (editor settings, CLI flags), the question, its read attachments and the agents.
 */
import type { MassGenConfig } from '../config/schema.js';
import type { Attachment } from '../context/attachment.js';
import type { AgentSpec } from '../orchestrator/types.js';
import type { BudgetCaps } from '../orchestrator/spendGuard.js';
import { budgetCaps, type CapRequest } from '../permissions/runBudget.js';
import { charsPerToken, estimateCost, type CostEstimate } from './costEstimate.js';

/** The user's caps, each naming where it was set (`--max-cost`, `massgen.maxCostUsd`, …). */
export interface UserBudget {
	readonly maxCostUsd?: CapRequest;
	readonly maxTokens?: CapRequest;
}

/** A vision model sees an image as about this many tokens (OpenAI's and Anthropic's ~1,600 for 1 MP). */
const imageTokens = 1_600;

/** The lower of the config's `permissions.max_cost_usd` and the user's cap wins; null: no cap at all. */
export function runCaps(config: MassGenConfig, user: UserBudget | undefined): BudgetCaps | null {
	const configCap = { limit: config.permissions.max_cost_usd, source: 'permissions.max_cost_usd' };
	return budgetCaps(
		[configCap, ...(user?.maxCostUsd ? [user.maxCostUsd] : [])],
		user?.maxTokens ? [user.maxTokens] : [],
	);
}

export function estimateRun(
	question: string,
	attachments: readonly Attachment[],
	agents: readonly AgentSpec[],
	/** The project instructions' characters: every first message carries them too. */
	instructionChars = 0,
): CostEstimate {
	const attachmentChars = attachments.reduce(
		(sum, attachment) =>
			sum + (attachment.kind === 'image' ? imageTokens * charsPerToken : attachment.text.length),
		instructionChars,
	);
	return estimateCost({
		questionChars: question.length,
		attachmentChars,
		agents: agents.map((agent) => ({
			id: agent.id,
			...(agent.price ? { price: agent.price } : {}),
			...(agent.maxOutputTokens ? { maxOutputTokens: agent.maxOutputTokens } : {}),
			systemChars: agent.systemMessage?.length ?? 0,
		})),
	});
}
