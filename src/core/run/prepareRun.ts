import type { ApiKeySources } from '../config/apiKeys.js';
import type { Redactor } from '../secrets/redactor.js';
import { seedRedactor } from '../secrets/seedRedactor.js';
import { followUpOf, type FollowUp } from '../sessions/followUp.js';
import { historyOf, SessionError } from '../sessions/historyOf.js';
import { loadTeam } from '../team/loadTeam.js';
import type { ResolvedTeam, TeamResolution } from '../team/resolveTeam.js';
import type { WorkspaceTrust } from '../trust/workspaceTrust.js';
import type { RunHost, RunRequest } from './runHost.js';
import { runKeys } from './runKeys.js';
import { teamTrustListing } from './teamTrustListing.js';

/** Everything a run needs that the host and the workspace decide, read once before it starts. */
export interface PreparedRun {
	readonly request: RunRequest;
	readonly team: ResolvedTeam;
	readonly keys: ApiKeySources;
	/** Seeded with the keys' values: the team's issues and the host's messages pass it already. */
	readonly redactor: Redactor;
	readonly followUp?: FollowUp;
	readonly workspaceTrust?: WorkspaceTrust;
}

/** Why no run starts; the host has been asked or told what it needed (its trust question). */
export type PrepareRefusal =
	/** The config the host named does not exist. */
	| { readonly refused: 'config'; readonly file: string }
	| { readonly refused: 'team'; readonly resolution: Extract<TeamResolution, { ok: false }> }
	| { readonly refused: 'follow-up'; readonly message: string }
	| { readonly refused: 'trust' };

export type PrepareOutcome =
	{ readonly ok: true; readonly run: PreparedRun } | ({ readonly ok: false } & PrepareRefusal);

/**
 * What both shells did by hand before a run, done once: the turn it follows, the team config
 * (`loadTeam`: the core's rule on the file the host names), the keys (`.env` only when the host trusts the workspace), the redactor's
 * seed, the team (a default team's dropped members and every issue with its position are in the
 * result), and the host's decision on what the workspace's own parts would run or send.
 */
export async function prepareRun(request: RunRequest, host: RunHost): Promise<PrepareOutcome> {
	const root = request.workspaceRoot;
	const keys = await runKeys(root, host);
	// Known before the team resolves, so config errors and notes are redacted too.
	const redactor = seedRedactor(keys);
	host.learnSecrets?.(redactor);
	const refuse = (refusal: PrepareRefusal): PrepareOutcome => ({ ok: false, ...refusal });
	// A revision is its run's next turn unless the request says which turn it follows.
	const asked = request.followUp ?? (request.revision ? { from: request.revision.fromRunId } : undefined);
	const followUp = asked && (await readFollowUp(root, asked));
	if (typeof followUp === 'string') return refuse({ refused: 'follow-up', message: followUp });
	if (followUp) host.log.info(followUpLine(followUp));
	const loaded = await loadTeam({
		workspaceRoot: root,
		shippedConfigsDir: host.paths.shippedConfigsDir,
		trusted: host.workspaceTrusted,
		named: host.namedConfig?.(root),
		keys,
		...(host.models ? { host: host.models.resolve } : {}),
		...(request.addedAgents?.length ? { added: request.addedAgents } : {}),
	});
	if (!loaded.ok) return refuse({ refused: 'config', file: loaded.file });
	const { resolution } = loaded;
	await host.onTeam?.(resolution, loaded.choice.skipped);
	if (!resolution.ok) return refuse({ refused: 'team', resolution });
	const team = resolution.team;
	// Before anything starts or any run directory exists: what the folder's own parts would run.
	const listing = await teamTrustListing(root, team, keys, host.tools?.readWorkspaceServers === true);
	const workspaceTrust = await host.decideTrust(listing, team);
	if (workspaceTrust === null) return refuse({ refused: 'trust' });
	const run: PreparedRun = {
		request,
		team,
		keys,
		redactor,
		...(followUp ? { followUp } : {}),
		...(workspaceTrust ? { workspaceTrust } : {}),
	};
	return { ok: true, run };
}

/** The follow-up's thread, or why there is none (no readable turn of this workspace). */
async function readFollowUp(
	root: string,
	asked: NonNullable<RunRequest['followUp']>,
): Promise<FollowUp | string> {
	try {
		if (!asked.fork) return await followUpOf(root, asked.from);
		const from = asked.from ?? '';
		return { history: await historyOf(root, from), session: { parentRunId: from } };
	} catch (error) {
		if (SessionError.is(error)) return error.message;
		throw error;
	}
}

/** What the follow-up joins, in one line (the CLI says it on stderr). */
function followUpLine({ history, session }: FollowUp): string {
	const turns = `${history.length} earlier turn(s)`;
	return session.id === undefined
		? `forking from run ${session.parentRunId} (${turns}): a new session`
		: `continuing session ${session.id} after run ${session.parentRunId} (${turns})`;
}
