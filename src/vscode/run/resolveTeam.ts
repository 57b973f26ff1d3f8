import { type ApiKeySources, checkApiKeys } from '../../core/config/apiKeys';
import { type ConfigIssue, hasErrors } from '../../core/config/configIssue';
import type { DroppedAgent } from '../../core/config/defaultTeam';
import { type ConfigLoadResult, loadConfigFile } from '../../core/config/loadConfig';
import type { AgentConfig, MassGenConfig } from '../../core/config/schema';
import { selectDefaultTeam } from '../../core/team/buildAgents';
import type { TeamConfigKind } from '../config/chooseTeamConfig';
import { type ChatModelInfo, distinctFamilies, pickChatModel } from '../lm/pickChatModel';

/** A default team never has more members than this (keyed agents first, then VS Code models). */
export const maxDefaultTeam = 4;
/** VS Code language models a default team takes at most. */
export const maxDefaultLmAgents = 3;

export interface TeamInputs {
	readonly file: string;
	readonly kind: TeamConfigKind;
	readonly keys: ApiKeySources;
	/** The VS Code chat models (asked for only when the team may use them). */
	readonly lmModels: () => Promise<readonly ChatModelInfo[]>;
}

export interface ResolvedTeam {
	readonly config: MassGenConfig;
	readonly file: string;
	readonly kind: TeamConfigKind;
	/** Warnings of the config (shown as diagnostics, never blocking). */
	readonly issues: readonly ConfigIssue[];
	/** Agents of a default team that were left out, with the reason. */
	readonly dropped: readonly DroppedAgent[];
}

export type TeamProblem = 'config' | 'missing-key' | 'vscode-lm' | 'no-agents';

export type TeamResolution =
	| { readonly ok: true; readonly team: ResolvedTeam }
	| { readonly ok: false; readonly problem: TeamProblem; readonly file: string; readonly kind: TeamConfigKind; readonly issues: readonly ConfigIssue[] };

/**
 * Loads the chosen config and checks that it can run here: every key present, every `vscode_lm`
 * model available. The default team instead keeps only the members that are available (keys,
 * local servers) and adds VS Code language models, saying who was left out and why.
 */
export async function resolveTeam(inputs: TeamInputs): Promise<TeamResolution> {
	const loaded = await loadConfigFile(inputs.file);
	if (!loaded.config || hasErrors(loaded.issues)) return failure('config', inputs, loaded.issues);
	if (inputs.kind === 'default') return defaultTeam(loaded.config, loaded.issues, inputs);
	const usesLm = loaded.config.agents.some((agent) => agent.backend.type === 'vscode_lm');
	const lmIssues = usesLm ? checkLmModels(loaded, await safeModels(inputs)) : [];
	const keyIssues = checkApiKeys(loaded, inputs.keys, 'run');
	const issues = [...loaded.issues, ...keyIssues, ...lmIssues];
	if (hasErrors(keyIssues)) return failure('missing-key', inputs, issues);
	if (hasErrors(lmIssues)) return failure('vscode-lm', inputs, issues);
	return { ok: true, team: { config: loaded.config, file: inputs.file, kind: inputs.kind, issues, dropped: [] } };
}

async function defaultTeam(config: MassGenConfig, issues: readonly ConfigIssue[], inputs: TeamInputs): Promise<TeamResolution> {
	const [selection, models] = await Promise.all([selectDefaultTeam(config, inputs.keys, inputs.file), safeModels(inputs)]);
	const keyed = selection.config?.agents ?? [];
	const dropped = [...selection.dropped];
	const room = Math.max(0, Math.min(maxDefaultLmAgents, maxDefaultTeam - keyed.length));
	const candidates = distinctFamilies(models, maxDefaultLmAgents);
	const taken = new Set(keyed.map((agent) => agent.id));
	const lmAgents: AgentConfig[] = [];
	for (const model of candidates) {
		const id = uniqueId(lmAgentId(model), taken);
		// The exact model id: a family can hold several models (e.g. a mini variant).
		if (lmAgents.length < room) lmAgents.push({ id, backend: { type: 'vscode_lm', model: model.id, options: {} } });
		else dropped.push({ id, why: `the default team is capped at ${maxDefaultTeam} agents` });
	}
	if (models.length === 0) {
		dropped.push({ id: 'vscode_lm', why: 'no VS Code language models (install and sign in to GitHub Copilot, or another model provider)' });
	}
	const agents = [...keyed, ...lmAgents];
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
		return failure('no-agents', inputs, [issue]);
	}
	return { ok: true, team: { config: { ...config, agents }, file: inputs.file, kind: 'default', issues, dropped } };
}

/** One error per `vscode_lm` agent whose model VS Code does not offer, at its `model:` value. */
export function checkLmModels(loaded: ConfigLoadResult, models: readonly ChatModelInfo[]): ConfigIssue[] {
	if (!loaded.config) return [];
	const available = models.map((m) => m.family).filter((f, i, all) => all.indexOf(f) === i);
	const file = loaded.source?.file ?? '';
	return loaded.config.agents.flatMap((agent, index): ConfigIssue[] => {
		if (agent.backend.type !== 'vscode_lm' || pickChatModel(models, agent.backend.model)) return [];
		const path = ['agents', index, 'backend', 'model'];
		const pos = loaded.source?.locate(path, 'value') ?? { line: 1, col: 1 };
		const offer = available.length
			? `available: ${available.join(', ')}`
			: 'VS Code has no language models: install and sign in to GitHub Copilot, or another model provider';
		return [
			{
				severity: 'error',
				code: 'vscode-lm-unavailable',
				message: `agent '${agent.id}': no VS Code language model matches '${agent.backend.model}' (${offer})`,
				file,
				line: pos.line,
				col: pos.col,
				path,
			},
		];
	});
}

/** `copilot-gpt-4o`: a readable, config-safe id for a VS Code model. */
export function lmAgentId(model: ChatModelInfo): string {
	const slug = `${model.vendor}-${model.family}`.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/^-+|-+$/g, '');
	return slug || 'vscode-lm';
}

function uniqueId(id: string, taken: Set<string>): string {
	let candidate = id;
	for (let n = 2; taken.has(candidate); n++) candidate = `${id}-${n}`;
	taken.add(candidate);
	return candidate;
}

async function safeModels(inputs: TeamInputs): Promise<readonly ChatModelInfo[]> {
	try {
		return await inputs.lmModels();
	} catch {
		return [];
	}
}

function failure(problem: TeamProblem, inputs: TeamInputs, issues: readonly ConfigIssue[]): TeamResolution {
	return { ok: false, problem, file: inputs.file, kind: inputs.kind, issues };
}
