/**
 * Enforcement of folder trust inside the core (`runSession`), whatever the shell asked: without a
 * decision covering the run's listing, each workspace part is refused with a reason naming it —
 * a stdio server is not started, an HTTP server with host variables is not connected (nothing is
 * expanded), an agent with a workspace `cli_path` or a workspace-chosen host for its key or its
 * run is left out before any key is resolved for it, and the config's `permissions.allow` rules
 * do not count (its `ask` and `deny` rules still do: they only tighten).
 */
import { isWorkspaceServer, type McpServerSpec } from '../mcp/mcpServerSpec.js';
import { serverTrustNeed, type TrustItem } from './trustItems.js';
import { visibleText } from './visibleText.js';
import { isTrusted, type TrustListing, type WorkspaceTrust } from './workspaceTrust.js';

export interface TrustGate {
	/** The decision covers the listing (or there is nothing to trust). */
	readonly trusted: boolean;
	/** Why this agent cannot run (its `cli_path`, the host its key would go to), or undefined. */
	agentRefusal(agentId: string): string | undefined;
	/** Why this MCP server may not start or connect, or undefined. */
	serverRefusal(spec: McpServerSpec): string | undefined;
	/** Why the workspace team config's `permissions.allow` rules are ignored, or undefined (they count). */
	allowRulesRefusal(): string | undefined;
}

export function trustGate(listing: TrustListing, decision: WorkspaceTrust | undefined): TrustGate {
	if (isTrusted(listing, decision)) {
		return {
			trusted: true,
			agentRefusal: () => undefined,
			serverRefusal: () => undefined,
			allowRulesRefusal: () => undefined,
		};
	}
	const why =
		decision?.kind === 'trusted'
			? 'these parts changed since the folder was trusted'
			: `the folder is not trusted${decision?.hint ? ` (${decision.hint})` : ''}`;
	return {
		trusted: false,
		agentRefusal(agentId) {
			const mine = listing.items.filter(
				(item) =>
					item.parts['agent'] === agentId &&
					(item.kind === 'cli-path' || item.kind === 'key-to-host' || item.kind === 'data-to-host'),
			);
			if (mine.length === 0) return undefined;
			return `agent '${agentId}' is left out: ${mine.map(describe).join('; ')}; ${why}`;
		},
		allowRulesRefusal() {
			const rules = listing.items.find((item) => item.kind === 'allow-rules');
			return rules && `the workspace team config's permissions.allow is ignored: ${describe(rules)}; ${why}`;
		},
		serverRefusal(spec) {
			if (!isWorkspaceServer(spec)) return undefined;
			const need = serverTrustNeed(spec);
			if (need === null) return undefined;
			const where = spec.origin.kind === 'workspace-file' ? spec.origin.file : 'the workspace team config';
			const verb = need.kind === 'stdio-server' ? 'was not started' : 'was not connected';
			return `MCP server '${spec.name}' (from ${where}) ${verb}: it ${visibleText(need.detail)}; ${why}`;
		},
	};
}

function describe(item: TrustItem): string {
	// Repository text: its control characters must not hide the rest of the line on a terminal.
	return visibleText(`it ${item.detail} (${item.file}${item.line === undefined ? '' : `:${item.line}`})`);
}
