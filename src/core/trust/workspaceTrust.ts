/**
 * The listing both shells show before a run and the decision they pass back to `runSession`.
 * The decision names the listing's hash, so trust given to one set of commands and hosts does
 * not carry over to another: a changed config (or `.env` endpoint, or MCP file) is asked again.
 */
import { createHash } from 'node:crypto';
import { readWorkspaceMcpServers } from '../mcp/workspaceMcpFiles.js';
import { trustItems, type TrustItem, type TrustListingInputs } from './trustItems.js';
import { stableJson } from '../util/stableJson.js';

export type { TrustItem, TrustItemKind, TrustListingInputs } from './trustItems.js';

/** What in a run needs the user's trust, and a hash of exactly those parts. */
export interface TrustListing {
	/** Empty: nothing to trust; the run needs no decision. */
	readonly items: readonly TrustItem[];
	/** sha256 (hex) over the items' kinds, files, subjects and parts (not their positions or key sources). */
	readonly hash: string;
}

/**
 * The user's decision for a workspace's own parts, given to `runSession` by the shell.
 * - `trusted`: the user trusted the listing with this `hash` (the CLI's prompt, store or
 *   `--trust-workspace`; the editor's Workspace Trust plus its consent). If the listing the run
 *   computes differs (the config changed after the user looked), the run treats it as untrusted.
 * - `untrusted`: the parts are refused; `hint` (optional) says how to trust, appended to each
 *   refusal (`run 'massgen trust' in this folder`).
 */
export type WorkspaceTrust =
	| { readonly kind: 'trusted'; readonly hash: string }
	| { readonly kind: 'untrusted'; readonly hint?: string };

/** The listing for these inputs (no I/O: the caller read the MCP files, see `listWorkspaceTrust`). */
export function trustListing(inputs: TrustListingInputs): TrustListing {
	const items = trustItems(inputs);
	return { items, hash: trustHash(items) };
}

/** The listing, reading the workspace MCP files first when the run would (`readWorkspaceServers`). */
export async function listWorkspaceTrust(
	inputs: Omit<TrustListingInputs, 'workspaceServers'> & { readonly readWorkspaceServers?: boolean },
): Promise<TrustListing> {
	const { readWorkspaceServers, ...rest } = inputs;
	const workspaceServers = readWorkspaceServers
		? (await readWorkspaceMcpServers(inputs.workspaceRoot)).servers
		: undefined;
	return trustListing({ ...rest, ...(workspaceServers ? { workspaceServers } : {}) });
}

/** Stable over key order, positions and key sources: only what would run or be sent, and where. */
export function trustHash(items: readonly TrustItem[]): string {
	const canonical = items.map((item) => stableJson([item.kind, item.file, item.subject, item.parts])).sort();
	return createHash('sha256').update(canonical.join('\n')).digest('hex');
}

/** Whether the decision covers this listing: nothing to trust, or trust given to exactly this hash. */
export function isTrusted(listing: TrustListing, decision: WorkspaceTrust | undefined): boolean {
	return listing.items.length === 0 || (decision?.kind === 'trusted' && decision.hash === listing.hash);
}
