/**
 * Coding agents that run their own agent loop in a CLI (MassGen's `claude_code`, and its later
 * `codex` and `gemini_cli`), and what their CLIs are started with. Configs with them load;
 * `claude_code` and `codex` run (their adapters in `providers/codingAgents/`), `gemini_cli` sits a
 * run out (`unavailableCodingAgent.ts`).
 */
export const codingAgentTypes = ['claude_code', 'codex', 'gemini_cli'] as const;

export type CodingAgentType = (typeof codingAgentTypes)[number];

/** True for a coding agent's backend type: it chooses its own model, so `model` is optional. */
export function isCodingAgentType(type: unknown): type is CodingAgentType {
	return (codingAgentTypes as readonly unknown[]).includes(type);
}

/** Coding agents with an adapter (`createModel`); the others' configs load and the agent sits a run out. */
export function hasCodingAgentAdapter(type: CodingAgentType): boolean {
	return type === 'claude_code' || type === 'codex';
}

/** The `model` of a coding agent whose config names none: its CLI picks. */
export const codingAgentDefaultModel = 'default';

/** What a coding agent's CLI is started with, as MassGen's `claude_code` keys name it. */
export interface CodingAgentSettings {
	/** The native tools it may use (`Read`, `Bash`, `mcp__server__tool`…); all when unset. */
	readonly allowed_tools?: readonly string[];
	readonly disallowed_tools?: readonly string[];
	/** The agent's role, put into our coordination prompt (the prompt itself is always ours). */
	readonly system_prompt?: string;
	readonly append_system_prompt?: string;
	readonly max_turns?: number;
	readonly max_thinking_tokens?: number;
	/** The CLI to run instead of the one found on PATH. */
	readonly cli_path?: string;
}
