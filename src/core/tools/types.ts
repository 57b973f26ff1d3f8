import type { Phase, RunEventBody } from '../../contract/runEvents.js';
import type { ToolDefinition } from '../providers/spec/model.js';
import type { ToolOutcome } from '../providers/spec/toolOutcome.js';
import type { Overlay, OverlaySnapshot } from '../workspace/types.js';

export interface ToolboxOptions {
	readonly overlay: Overlay;
	/** Whether write tools (`write_file`, `edit_file`, `delete_file`) are offered. */
	readonly writable: boolean;
	/**
	 * The answers this agent may inspect with `view_answer_changes`, by anonymous id (`agentN`).
	 * Omit to leave the tool out.
	 */
	readonly answers?: ReadonlyMap<string, OverlaySnapshot>;
	/**
	 * Every anonymous id of the run: `view_answer_changes` is then offered from the first call, over
	 * all of them (ids without an answer yet get a clear error), so an agent's tool list is the same
	 * on every call and the provider's prompt cache keeps the prefix (tools come first in it).
	 */
	readonly answerIds?: readonly string[];
	/** The clock of the tools' time limits; default `performance.now`. */
	readonly now?: () => number;
}

/** The workspace tools (docs/tools-and-sandbox.md) over one agent's overlay. */
export interface Toolbox {
	readonly definitions: readonly ToolDefinition[];
	has(name: string): boolean;
	/** Never throws for bad input: refusals and errors come back as `isError` outcomes naming the path and reason. */
	execute(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutcome>;
}

/** Opens the run's extra tools once, when the run starts. */
export interface RunTools {
	open(context: RunToolsContext): RunToolsSession;
}

export interface RunToolsContext {
	readonly runId: string;
	/** Aborted when the run is cancelled. */
	readonly signal: AbortSignal;
	emit(body: RunEventBody): void;
	/** Stops an agent cleanly: during coordination it is killed with `reason`; no effect during the presentation. */
	stopAgent(agentId: string, reason: string): void;
}

export interface RunToolsSession {
	/** Resolves when the tools are known (MCP servers started or failed); never rejects. */
	ready(): Promise<void>;
	/** The agent's toolbox: its workspace tools plus its extra tools, every call through the permission gate. */
	toolbox(
		agentId: string,
		workspace: Toolbox,
		context: {
			readonly overlay: Overlay;
			readonly phase: Phase;
			/** Planning mode in coordination: tools that act outside the agent's copy are described, not run. */
			readonly planning: boolean;
		},
	): Toolbox;
	/** A model call's cost, for the run budget. */
	usage(agentId: string, costUsd: number | null): void;
	/** Ends every session, process and scratch copy of the run; never rejects. */
	close(): Promise<void>;
}
