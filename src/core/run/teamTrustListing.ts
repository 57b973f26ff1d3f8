import type { ApiKeySources } from '../config/apiKeys.js';
import type { ResolvedTeam } from '../team/resolveTeam.js';
import { listWorkspaceTrust, type TrustListing } from '../trust/workspaceTrust.js';

/**
 * What the team's config and the workspace's own parts would run or send, as `prepareRun` asks the
 * host and `massgen trust` records it: one listing, so a trust given ahead covers the run's hash.
 */
export function teamTrustListing(
	workspaceRoot: string,
	team: Pick<ResolvedTeam, 'config' | 'file' | 'kind' | 'source'>,
	keys: ApiKeySources,
	readWorkspaceServers = false,
): Promise<TrustListing> {
	const { source } = team;
	return listWorkspaceTrust({
		workspaceRoot,
		config: team.config,
		file: team.file,
		keys,
		readWorkspaceServers,
		...(source ? { locate: (path) => source.locate(path, 'value') } : {}),
		chosenByWorkspace: team.kind === 'workspace',
	});
}
