/** What a tool call gives back to the agent: workspace tools, `run_command` and MCP tools alike. */
import type { ChangeKind } from '../../../contract/runEvents.js';

export interface ToolOutcome {
	readonly text: string;
	readonly isError: boolean;
	/** Set when the call changed the overlay. */
	readonly edit?: { readonly path: string; readonly kind: ChangeKind };
	/** Planning mode: not run, only described (see `createGuardedToolbox`). */
	readonly planned?: true;
}
