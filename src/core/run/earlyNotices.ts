import type { RunTools, RunToolsSession } from '../tools/types.js';

/**
 * The run's tools, saying first what was decided before the run started (a server the folder's
 * trust refused, an unreadable `.vscode/mcp.json`): the orchestrator opens the tools right after
 * `run-start`, so these `notice` events follow it in `events.jsonl` and pass the run's redactor
 * like every event. Without tools, a session that adds nothing carries them.
 */
export function withEarlyNotices(
	tools: RunTools | undefined,
	notices: readonly string[],
): RunTools | undefined {
	if (notices.length === 0) return tools;
	return {
		open(context) {
			for (const message of notices) context.emit({ type: 'notice', source: 'tools', message });
			return tools?.open(context) ?? noExtraTools;
		},
	};
}

const noExtraTools: RunToolsSession = {
	ready: async () => undefined,
	toolbox: (_agentId, workspace) => workspace,
	usage: () => undefined,
	close: async () => undefined,
};
