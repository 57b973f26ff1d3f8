/**
 * The cost estimate shown before a run (the CLI's prompt, the editor's modal): what the question
 * and its attachments cost to send to every agent, plus a bounded guess at what they write. It is
 * a floor for a typical run, not a bound: more rounds and tool calls cost more (the run budget,
 * `maxCostUsd` / `--max-cost`, is the bound).
 */
import type { Price } from '../providers/spec/pricing.js';

/** Characters per token: the usual rule of thumb for English text and code. */
export const charsPerToken = 4;
/** The output guess per call, lowered to an agent's own `max_tokens` when that is smaller. */
export const outputGuessTokens = 2_000;
/** Above this estimate the user is asked once before the run (`massgen.confirmCostAboveUsd`, the CLI). */
export const defaultConfirmAboveUsd = 0.5;

export interface EstimateAgent {
	readonly id: string;
	/** Undefined: no known price (not counted, listed in `unpriced`). */
	readonly price?: Price;
	readonly maxOutputTokens?: number;
	/** Its system message (sent on every call). */
	readonly systemChars?: number;
}

export interface CostEstimateInput {
	readonly questionChars: number;
	/** Text attachments as the agents get them (images: their base64 size is a fair stand-in). */
	readonly attachmentChars: number;
	readonly agents: readonly EstimateAgent[];
}

export interface CostEstimate {
	readonly usd: number;
	/** Input tokens of one call (question, attachments; an agent's system message adds its own). */
	readonly inputTokens: number;
	/** Calls per agent counted: answer, vote and presentation (one for a single agent). */
	readonly callsPerAgent: number;
	readonly perAgent: readonly { readonly id: string; readonly usd: number }[];
	readonly unpriced: readonly string[];
	/** How the figure was made, in one sentence a user can check. */
	readonly basis: string;
}

export function estimateCost(input: CostEstimateInput): CostEstimate {
	const inputTokens = Math.ceil((input.questionChars + input.attachmentChars) / charsPerToken);
	const callsPerAgent = input.agents.length > 1 ? 3 : 1;
	const perAgent: { id: string; usd: number }[] = [];
	const unpriced: string[] = [];
	for (const agent of input.agents) {
		if (!agent.price) {
			unpriced.push(agent.id);
			continue;
		}
		const tokensIn = inputTokens + Math.ceil((agent.systemChars ?? 0) / charsPerToken);
		const tokensOut = Math.min(outputGuessTokens, agent.maxOutputTokens ?? outputGuessTokens);
		const perCall = (tokensIn * agent.price.input + tokensOut * agent.price.output) / 1_000_000;
		perAgent.push({ id: agent.id, usd: perCall * callsPerAgent });
	}
	const usd = perAgent.reduce((sum, agent) => sum + agent.usd, 0);
	const calls = callsPerAgent === 1 ? '1 call' : `${callsPerAgent} calls each (answer, vote, presentation)`;
	const left = unpriced.length ? `; no list price for ${unpriced.join(', ')} (not counted)` : '';
	const basis =
		`${inputTokens.toLocaleString('en-US')} input tokens (question and attachments, ${charsPerToken} characters a token) ` +
		`and up to ${outputGuessTokens.toLocaleString('en-US')} output tokens per call, ` +
		`${perAgent.length} priced agent${perAgent.length === 1 ? '' : 's'} × ${calls}, at list prices${left}`;
	return { usd, inputTokens, callsPerAgent, perAgent, unpriced, basis };
}

/** `$0.0123` under a dollar, `$1.23` above. */
export function formatUsd(usd: number): string {
	return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}
