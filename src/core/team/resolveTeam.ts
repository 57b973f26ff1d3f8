import { type ApiKeySources, checkApiKeys } from '../config/apiKeys.js';
import { type ConfigIssue, hasErrors } from '../config/configIssue.js';
import type { DroppedAgent } from '../config/defaultTeam.js';
import { type ConfigLoadResult, type ConfigSource, loadConfigFile } from '../config/loadConfig.js';
import type { AgentConfig, MassGenConfig } from '../config/schema.js';
import { selectDefaultTeam } from './buildAgents.js';

/**
 * Models a host adds to the core's providers (the editor's `vscode_lm`): both shells resolve a
 * team the same way, and only the editor passes this.
 */
export interface HostModels {
	/** Does the host provide this agent's model (its backend type is the host's)? */
	provides(agent: AgentConfig): boolean;
	/** One error per agent whose host model is unavailable (asked for only when an agent uses one). */
	check(loaded: ConfigLoadResult): Promise<ConfigIssue[]>;
	/**
	 * What a default team adds: asked for while the keyed members are probed (local servers take
	 * a moment), then given them, it returns the members it adds and the ones it left out.
	 */
	defaultMembers(): Promise<(keyed: readonly AgentConfig[]) => HostMembers>;
}

export interface HostMembers {
	readonly agents: readonly AgentConfig[];
	readonly dropped: readonly DroppedAgent[];
}

const noMembers = (): HostMembers => ({ agents: [], dropped: [] });

export interface TeamInputs<Kind extends string> {
	readonly file: string;
	/** How the file was chosen (`chooseTeamConfig`); `default` is the shipped team, kept to what is available. */
	readonly kind: Kind;
	readonly keys: ApiKeySources;
	readonly host?: HostModels;
	/** The file as already loaded (`loadTeam`); read here otherwise. */
	readonly loaded?: ConfigLoadResult;
	/**
	 * Members the caller adds for this run only (the editor's chat: its selected model), after the
	 * config's or the default team's own; checked as the config's are, an id taken gets a suffix.
	 */
	readonly added?: readonly AgentConfig[];
}

export interface ResolvedTeam<Kind extends string = string> {
	readonly config: MassGenConfig;
	readonly file: string;
	readonly kind: Kind;
	/** Warnings of the config (shown as diagnostics, never blocking). */
	readonly issues: readonly ConfigIssue[];
	/** Agents of a default team that were left out, with the reason. */
	readonly dropped: readonly DroppedAgent[];
	/** Where the config's nodes are (a config file's team; the default team has none): for the trust listing. */
	readonly source?: ConfigSource;
}

/** `vscode-lm`: a host model the config names is unavailable. */
export type TeamProblem = 'config' | 'missing-key' | 'vscode-lm' | 'no-agents';

export type TeamResolution<Kind extends string = string> =
	| { readonly ok: true; readonly team: ResolvedTeam<Kind> }
	| {
			readonly ok: false;
			readonly problem: TeamProblem;
			readonly file: string;
			readonly kind: Kind;
			readonly issues: readonly ConfigIssue[];
			readonly dropped: readonly DroppedAgent[];
	  };

/**
 * Loads the chosen config and checks that it can run here: every key present, every host model
 * available. The default team instead keeps only the members that are available (keys, local
 * servers) and adds the host's models, saying who was left out and why.
 */
export async function resolveTeam<Kind extends string>(
	inputs: TeamInputs<Kind>,
): Promise<TeamResolution<Kind>> {
	const read = inputs.loaded ?? (await loadConfigFile(inputs.file));
	if (!read.config || hasErrors(read.issues)) return failure('config', inputs, read.issues);
	if (inputs.kind === 'default') return defaultTeam(read.config, read.issues, inputs);
	const config = withAdded(read.config, inputs.added);
	const loaded = config === read.config ? read : { ...read, config };
	const { host } = inputs;
	const usesHost = host !== undefined && config.agents.some((agent) => host.provides(agent));
	const hostIssues = usesHost ? await host.check(loaded) : [];
	const keyIssues = checkApiKeys(loaded, inputs.keys, 'run');
	const issues = [...loaded.issues, ...keyIssues, ...hostIssues];
	if (hasErrors(keyIssues)) return failure('missing-key', inputs, issues);
	if (hasErrors(hostIssues)) return failure('vscode-lm', inputs, issues);
	return {
		ok: true,
		team: {
			config,
			file: inputs.file,
			kind: inputs.kind,
			issues,
			dropped: [],
			...(loaded.source ? { source: loaded.source } : {}),
		},
	};
}

async function defaultTeam<Kind extends string>(
	config: MassGenConfig,
	issues: readonly ConfigIssue[],
	inputs: TeamInputs<Kind>,
): Promise<TeamResolution<Kind>> {
	const [selection, addMembers = noMembers] = await Promise.all([
		selectDefaultTeam(config, inputs.keys, inputs.file),
		inputs.host?.defaultMembers(),
	]);
	const keyed = selection.config?.agents ?? [];
	const added = addMembers(keyed);
	const dropped = [...selection.dropped, ...added.dropped];
	const own = [...keyed, ...added.agents];
	const extra = inputs.added ?? [];
	const agents = [...own, ...uniqueIds(extra, own)];
	// The caller's members are checked as a config's are (a default team's own are picked available).
	if (extra.length > 0 && inputs.host && extra.some((agent) => inputs.host!.provides(agent))) {
		const hostIssues = await inputs.host.check({ issues: [], config: { ...config, agents: [...extra] } });
		if (hasErrors(hostIssues)) return failure('vscode-lm', inputs, [...issues, ...hostIssues], dropped);
	}
	if (agents.length === 0) {
		const options = dropped.map(({ id, why }) => `${id}: ${why}`).join('; ');
		const issue: ConfigIssue = {
			severity: 'error',
			code: 'no-available-agents',
			message: `no agent of the default team is available (${options})`,
			file: inputs.file,
			line: 1,
			col: 1,
			path: ['agents'],
		};
		return failure('no-agents', inputs, [...issues, issue], dropped);
	}
	return {
		ok: true,
		team: { config: { ...config, agents }, file: inputs.file, kind: inputs.kind, issues, dropped },
	};
}

/** The config with the caller's members after its own (ids made unique). */
function withAdded(config: MassGenConfig, added: readonly AgentConfig[] | undefined): MassGenConfig {
	if (!added?.length) return config;
	return { ...config, agents: [...config.agents, ...uniqueIds(added, config.agents)] };
}

/** `added` with each id another member holds suffixed (`copilot-gpt-4o-2`). */
function uniqueIds(added: readonly AgentConfig[], own: readonly AgentConfig[]): AgentConfig[] {
	const taken = new Set(own.map((agent) => agent.id));
	return added.map((agent) => {
		let id = agent.id;
		for (let n = 2; taken.has(id); n++) id = `${agent.id}-${n}`;
		taken.add(id);
		return id === agent.id ? agent : { ...agent, id };
	});
}

function failure<Kind extends string>(
	problem: TeamProblem,
	inputs: TeamInputs<Kind>,
	issues: readonly ConfigIssue[],
	dropped: readonly DroppedAgent[] = [],
): TeamResolution<Kind> {
	return { ok: false, problem, file: inputs.file, kind: inputs.kind, issues, dropped };
}
