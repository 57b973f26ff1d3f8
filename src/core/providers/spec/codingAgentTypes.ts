/**
 * Coding agents that run their own agent loop in a CLI (MassGen's `claude_code`, and its later
 * `codex` and `gemini_cli`). Configs with them load; `claude_code` and `codex` run (their adapters
 * in this folder), `gemini_cli` sits a run out (`unavailableCodingAgent.ts`).
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
