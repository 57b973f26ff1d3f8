import * as vscode from 'vscode';
import type { ApiKeySources } from '../../core/config/apiKeys.js';
import type { BackendType } from '../../core/config/backendSchema.js';
import type { AgentConfig } from '../../core/config/schema.js';
import type { Engine } from '../run/loadEngine.js';
import type { ChatModelInfo } from '../lm/pickChatModel.js';
import { keyProviders } from '../common/secrets.js';
import type { TeamMember } from './teamMember.js';

/** One member the builder offers: something that can actually run here. */
export interface MemberChoice extends TeamMember {
	/** The group it is listed under (the provider and why it is available). */
	readonly group: string;
	readonly label: string;
	readonly description?: string;
}

/** Providers whose models the builder lists (a key may be stored for them; Azure needs a URL). */
const keyedTypes = keyProviders
	.map((p) => p.types)
	.filter((type) => type !== 'azure_openai') as BackendType[];

const keySourceWords = () => ({
	config: vscode.l10n.t('in the config'),
	secrets: vscode.l10n.t('stored'),
	env: vscode.l10n.t('in the environment'),
	dotenv: vscode.l10n.t('in .env'),
});

/**
 * What is available here, for the builder: VS Code chat models (`selectChatModels`), providers
 * with a stored or environment key with their models (listed by the provider, else our short list),
 * and local servers answering on their usual ports with their models; all looked up in parallel.
 */
export async function availableChoices(
	engine: Engine,
	keys: ApiKeySources,
	lmModels: readonly ChatModelInfo[],
): Promise<MemberChoice[]> {
	const lm = lmModels.map((model): MemberChoice => ({
		type: 'vscode_lm',
		model: model.id,
		group: vscode.l10n.t('VS Code language models (no key)'),
		label: model.name || model.family,
		description: `${model.vendor} · ${model.family}`,
	}));
	const keyed = keyedTypes.flatMap((type) => {
		const key = engine.team.resolveApiKey({ type }, keys);
		if (!key.key || key.source === 'none') return [];
		const label = keyProviders.find((p) => p.types === type)?.label ?? type;
		const variable = key.variables[0] ?? '';
		return [{ type, key: key.key, group: `${label} (${variable} ${keySourceWords()[key.source]})` }];
	});
	const [lists, servers] = await Promise.all([
		Promise.all(keyed.map((provider) => engine.team.listProviderModels(provider.type, provider.key))),
		engine.team.findLocalServers(),
	]);
	const fromKeys = keyed.flatMap((provider, index) => {
		const list = lists[index]!;
		const group =
			list.from === 'api'
				? provider.group
				: vscode.l10n.t('{0}: suggested models ({1})', provider.group, list.note ?? '');
		return list.models.map((model): MemberChoice => ({ type: provider.type, model, group, label: model }));
	});
	const local = servers.flatMap((server) =>
		server.models.map((model): MemberChoice => ({
			type: server.type as BackendType,
			model,
			baseUrl: server.baseUrl,
			group: vscode.l10n.t('{0} at {1} (no key)', server.type, server.baseUrl),
			label: model,
		})),
	);
	return [...lm, ...fromKeys, ...local];
}

/**
 * The models a Team view row may switch to: its provider's, as the builder finds them. A key goes
 * only where a run would send it without asking: to a host the workspace's own config chose
 * (`fromWorkspace`, core `keyToHost`), never; that row gets the curated list instead.
 */
export async function modelsOf(
	engine: Engine,
	keys: ApiKeySources,
	lmModels: readonly ChatModelInfo[],
	provider: string,
	baseUrl: string | undefined,
	fromWorkspace: boolean,
): Promise<string[]> {
	if (provider === 'vscode_lm') return lmModels.map((model) => model.id);
	const backend = { type: provider as BackendType, ...(baseUrl ? { base_url: baseUrl } : {}) };
	const local = engine.team.localServerUrl(backend);
	if (local) return [...((await engine.team.findLocalServers({ [provider]: local }))[0]?.models ?? [])];
	const agent = { id: 'row', backend: { ...backend, model: '', options: {} } } as AgentConfig;
	if (engine.team.keyToHost(agent, keys, fromWorkspace)) {
		return [...(engine.team.curatedModels[provider] ?? [])];
	}
	const key = engine.team.resolveApiKey(backend, keys);
	if (!key.key) return [];
	return [...(await engine.team.listProviderModels(provider, key.key, baseUrl)).models];
}
