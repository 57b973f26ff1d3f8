import * as vscode from 'vscode';
import { formatIssue } from '../../core/config/configIssue.js';
import type { AgentConfig } from '../../core/config/schema.js';
import {
	type AgentAvailability,
	type HostVerdict,
	teamAvailability,
} from '../../core/team/teamAvailability.js';
import type { TeamConfigKind } from '../../core/team/chooseTeamConfig.js';
import { loadTeam, type LoadTeamInputs } from '../../core/team/loadTeam.js';
import { type ChatModelInfo, describeChatModel, pickChatModel } from '../lm/pickChatModel.js';
import { type LmModels, type TeamProblem, vscodeLmModels } from '../run/vscodeLmModels.js';

export interface TeamSnapshotInputs extends Omit<LoadTeamInputs, 'host'> {
	readonly lmModels: LmModels;
	/** Overrides the local-server probe (default: `probeLocalServer`). */
	readonly probe?: (baseUrl: string) => Promise<boolean>;
}

export interface TeamAgentRow extends AgentAvailability {
	/** Ask Team would run it now. */
	readonly willRun: boolean;
	/** A member the default team adds (a VS Code model): not in the file, so not editable. */
	readonly added: boolean;
}

export interface TeamSnapshot {
	readonly file: string;
	readonly kind: TeamConfigKind;
	/** The file is the user's (the workspace's or the setting's): the view may edit it. */
	readonly editable: boolean;
	readonly agents: readonly TeamAgentRow[];
	/** Why Ask Team would not start, as it would say (the first error, with file:line:col). */
	readonly problem?: { readonly kind: TeamProblem; readonly message: string };
	/** Left out by the default team but not an agent of the file (e.g. no VS Code models at all). */
	readonly notes: readonly string[];
}

/**
 * What Ask Team would run right now and why, for the Team view: the same `loadTeam` the run calls
 * chooses the config and decides who runs; `teamAvailability` (which the default team keeps by)
 * gives each agent's reason. Loaded with the engine (it needs the config schema). `missing`: the
 * named config does not exist.
 */
export async function readTeamSnapshot(
	inputs: TeamSnapshotInputs,
): Promise<TeamSnapshot | { readonly missing: string }> {
	const { lmModels, probe, ...team } = inputs;
	const models = await lmModels().catch((): readonly ChatModelInfo[] => []);
	const read = await loadTeam({ ...team, host: vscodeLmModels(async () => models) });
	if (!read.ok) return { missing: read.file };
	const { choice, loaded, resolution } = read;
	const { file, kind } = choice;
	const editable = kind === 'workspace' || kind === 'setting';
	if (!loaded.config) {
		const first = loaded.issues.find((issue) => issue.severity === 'error');
		const message = first ? formatIssue(first) : vscode.l10n.t('{0}: cannot be read', file);
		return { file, kind, editable, agents: [], problem: { kind: 'config', message }, notes: [] };
	}
	const host = lmVerdict(models);
	const availability = { keys: inputs.keys, host, ...(probe ? { probe } : {}) };
	const rows = await teamAvailability(loaded.config.agents, availability);
	const running = resolution.ok ? resolution.team.config.agents : [];
	const runIds = new Set(running.map((agent) => agent.id));
	const inFile = new Set(rows.map((row) => row.id));
	const added = await teamAvailability(
		running.filter((agent: AgentConfig) => !inFile.has(agent.id)),
		availability,
	);
	const agents = [
		...rows.map((row) => ({ ...row, willRun: runIds.has(row.id), added: false })),
		...added.map((row) => ({ ...row, willRun: true, added: true })),
	];
	const dropped = resolution.ok ? resolution.team.dropped : resolution.dropped;
	const notes = dropped.filter((left) => !inFile.has(left.id)).map((left) => `${left.id}: ${left.why}`);
	if (resolution.ok) return { file, kind, editable, agents, notes };
	// A shipped team is the extension's file, not the user's: nothing in it is theirs to fix. When
	// none of the default team's members is available, each row says why and the view offers the demo.
	const shipped = kind === 'default' || kind === 'preset';
	if (shipped && resolution.problem === 'no-agents') return { file, kind, editable, agents, notes };
	const error = resolution.issues.find((issue) => issue.severity === 'error');
	const message = error ? (shipped ? error.message : formatIssue(error)) : resolution.problem;
	return { file, kind, editable, agents, problem: { kind: resolution.problem, message }, notes };
}

/** A `vscode_lm` agent is available when VS Code offers a model its `model:` names. */
function lmVerdict(models: readonly ChatModelInfo[]): HostVerdict {
	return (agent) => {
		if (agent.backend.type !== 'vscode_lm') return undefined;
		const model = pickChatModel(models, agent.backend.model);
		if (model) {
			return { available: true, reason: vscode.l10n.t('VS Code model {0}', describeChatModel(model)) };
		}
		const offer = models.length
			? vscode.l10n.t('available: {0}', [...new Set(models.map((m) => m.family))].join(', '))
			: vscode.l10n.t(
					'VS Code has no language models: sign in to GitHub Copilot, or install another model provider',
				);
		return {
			available: false,
			reason: vscode.l10n.t("no VS Code language model matches '{0}' ({1})", agent.backend.model, offer),
		};
	};
}
