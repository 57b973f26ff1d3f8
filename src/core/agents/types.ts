import type { ChatModel } from '../providers/spec/model.js';
import type { Price } from '../providers/spec/pricing.js';
import type { ChecklistSettings } from './checklist.js';

export type Sensitivity = 'lenient' | 'balanced' | 'strict';

/** The knobs an agent's turns read (the orchestrator's settings hold them, already defaulted). */
export interface AgentSettings {
	readonly votingSensitivity: Sensitivity;
	readonly answerNoveltyRequirement: Sensitivity;
	/** null = unlimited. */
	readonly maxNewAnswersPerAgent: number | null;
	readonly maxToolCallsPerTurn: number;
	/** Attempts per turn for the workflow call (MassGen: 3). */
	readonly maxAttemptsPerTurn: number;
	/**
	 * A model call with no output yet is dropped and re-issued with new answers when they land
	 * before this fraction of the agent's usual time to first output has passed (0 = never;
	 * `restartRule.ts`).
	 */
	readonly staleCallRestartFraction: number;
	/**
	 * MassGen's planning mode (`enable_planning_mode`): during coordination, tools that act outside
	 * the agent's private copy are not run but described in its answer; the presenter runs them.
	 */
	readonly planningMode: boolean;
	/** Added to the coordination system prompt in planning mode (`planning_mode_instruction`). */
	readonly planningModeInstruction: string;
	/** Checklist evaluation (`voting_sensitivity: checklist_gated`); null = off. */
	readonly checklist: ChecklistSettings | null;
}

export interface AgentSpec {
	/** Config id (never shown to any model). */
	readonly id: string;
	readonly model: ChatModel;
	readonly systemMessage?: string;
	readonly temperature?: number;
	readonly maxOutputTokens?: number;
	readonly providerOptions?: Record<string, unknown>;
	/** Prices for cost accounting; omitted = tokens only ("no price"). */
	readonly price?: ModelPrice;
	/**
	 * Tokens the model takes per request, input and output (config `context_window`, else the price
	 * table's); omitted = unknown: only a provider's context-length error starts a compaction.
	 */
	readonly contextWindow?: number;
}

/** USD per million tokens (from the dated price table, `configs/prices.yaml`). */
export type ModelPrice = Price;

/**
 * What became of a turn's proposed file changes, as the next turn's history tells it; `revising`:
 * the proposal this run revises (every agent's copy starts with it).
 */
export type TurnChanges =
	'accepted' | 'partly-accepted' | 'rejected' | 'pending' | 'reverted' | 'superseded' | 'revising';

export interface Turn {
	readonly question: string;
	/** The user's messages to the team while it worked on the question (`steer`), in order. */
	readonly steering?: readonly string[];
	/** The review comments the turn answered (`path:line: text`), sent with its question. */
	readonly reviewComments?: readonly string[];
	readonly answer: string;
	/** Absent: the turn proposed no file changes, or nothing is known of them. */
	readonly changes?: TurnChanges;
	/** Left out to fit the history's size budget (`fitHistory`): only its question is listed. */
	readonly leftOut?: boolean;
}
