import type { ChangeKind } from '../../contract/runEvents.js';
import type { ToolDefinition } from '../providers/model.js';
import type { Overlay, OverlaySnapshot } from '../workspace/types.js';

export interface ToolOutcome {
	readonly text: string;
	readonly isError: boolean;
	/** Set when the call changed the overlay. */
	readonly edit?: { readonly path: string; readonly kind: ChangeKind };
	/** Planning mode: not run, only described (see `createGuardedToolbox`). */
	readonly planned?: true;
}

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
}

/** The workspace tools of architecture §4 over one agent's overlay. */
export interface Toolbox {
	readonly definitions: readonly ToolDefinition[];
	has(name: string): boolean;
	/** Never throws for bad input: refusals and errors come back as `isError` outcomes naming the path and reason. */
	execute(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutcome>;
}
