import * as vscode from 'vscode';
import type { ConfigIssue } from '../../core/config/configIssue.js';
import type { DroppedAgent } from '../../core/config/defaultTeam.js';
import type { ConfigLoadResult } from '../../core/config/loadConfig.js';
import type { AgentConfig } from '../../core/config/schema.js';
import {
	type HostMembers,
	type HostModels,
	type ResolvedTeam as CoreResolvedTeam,
	type TeamResolution as CoreTeamResolution,
} from '../../core/team/resolveTeam.js';
import type { TeamConfigKind } from '../../core/team/chooseTeamConfig.js';
import { lmAgentId } from '../lm/lmMember.js';
import { type ChatModelInfo, distinctFamilies, pickChatModel } from '../lm/pickChatModel.js';

/** A default team never has more members than this (keyed agents first, then VS Code models). */
export const maxDefaultTeam = 4;
/** VS Code language models a default team takes at most. */
export const maxDefaultLmAgents = 3;

export type { TeamProblem } from '../../core/team/resolveTeam.js';
export type ResolvedTeam = CoreResolvedTeam<TeamConfigKind>;
export type TeamResolution = CoreTeamResolution<TeamConfigKind>;

/** The VS Code chat models (asked for only when the team may use them). */
export type LmModels = () => Promise<readonly ChatModelInfo[]>;

/** VS Code's language models as the host's (`type: vscode_lm`) for the core's `resolveTeam`. */
export function vscodeLmModels(lmModels: LmModels): HostModels {
	const models = async (): Promise<readonly ChatModelInfo[]> => {
		try {
			return await lmModels();
		} catch {
			return [];
		}
	};
	return {
		provides: (agent) => agent.backend.type === 'vscode_lm',
		check: async (loaded) => checkLmModels(loaded, await models()),
		defaultMembers: async () => {
			const available = await models();
			return (keyed) => defaultLmMembers(keyed, available);
		},
	};
}

/** Up to `maxDefaultLmAgents` models of distinct families, as far as the team has room. */
function defaultLmMembers(keyed: readonly AgentConfig[], models: readonly ChatModelInfo[]): HostMembers {
	const room = Math.max(0, Math.min(maxDefaultLmAgents, maxDefaultTeam - keyed.length));
	const taken = new Set(keyed.map((agent) => agent.id));
	const agents: AgentConfig[] = [];
	const dropped: DroppedAgent[] = [];
	for (const model of distinctFamilies(models, maxDefaultLmAgents)) {
		const id = uniqueId(lmAgentId(model), taken);
		// The exact model id: a family can hold several models (e.g. a mini variant).
		if (agents.length < room) {
			agents.push({ id, backend: { type: 'vscode_lm', model: model.id, options: {} } });
		} else {
			dropped.push({ id, why: vscode.l10n.t('the default team is capped at {0} agents', maxDefaultTeam) });
		}
	}
	if (models.length === 0) {
		dropped.push({
			id: 'vscode_lm',
			why: vscode.l10n.t(
				'no VS Code language models (install and sign in to GitHub Copilot, or another model provider)',
			),
		});
	}
	return { agents, dropped };
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
			? vscode.l10n.t('available: {0}', available.join(', '))
			: vscode.l10n.t(
					'VS Code has no language models: install and sign in to GitHub Copilot, or another model provider',
				);
		return [
			{
				severity: 'error',
				code: 'vscode-lm-unavailable',
				message: vscode.l10n.t(
					"agent '{0}': no VS Code language model matches '{1}' ({2})",
					agent.id,
					agent.backend.model,
					offer,
				),
				file,
				line: pos.line,
				col: pos.col,
				path,
			},
		];
	});
}

function uniqueId(id: string, taken: Set<string>): string {
	let candidate = id;
	for (let n = 2; taken.has(candidate); n++) candidate = `${id}-${n}`;
	taken.add(candidate);
	return candidate;
}
