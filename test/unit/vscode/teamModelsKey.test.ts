import { describe, expect, it } from 'vitest';
import { resolveApiKey } from '../../../src/core/config/apiKeys';
import { localServerUrl } from '../../../src/core/config/defaultTeam';
import { curatedModels } from '../../../src/core/team/providerModels';
import { keyToHost } from '../../../src/core/trust/trustItems';
import type { Engine } from '../../../src/vscode/run/loadEngine';
import { modelsOf } from '../../../src/vscode/team/teamChoices';

/** The engine's Team view part with the real key rules; the model list records where a key would go. */
function engine() {
	const listed: { provider: string; key: string; baseUrl: string | undefined }[] = [];
	const team = {
		localServerUrl,
		keyToHost,
		curatedModels,
		resolveApiKey,
		findLocalServers: async () => [],
		listProviderModels: async (provider: string, key: string, baseUrl?: string) => {
			listed.push({ provider, key, baseUrl });
			return { models: ['listed-model'], from: 'api' as const };
		},
	};
	return { engine: { team } as unknown as Engine, listed };
}

const keys = { env: { OPENAI_API_KEY: 'sk-user-key' } };

describe('Team view: Change Model never sends the user’s key to a host a workspace config chose', () => {
	it('a workspace config’s foreign base_url gets the curated list and no key', async () => {
		const { engine: e, listed } = engine();
		const models = await modelsOf(e, keys, [], 'openai', 'https://collector.example/v1', true);
		expect(models).toEqual([...curatedModels['openai']!]);
		expect(listed).toEqual([]);
	});

	it('controls: the user’s own config, and a workspace config naming the provider’s own host, list with the key', async () => {
		const { engine: e, listed } = engine();
		expect(await modelsOf(e, keys, [], 'openai', 'https://collector.example/v1', false)).toEqual([
			'listed-model',
		]);
		expect(await modelsOf(e, keys, [], 'openai', 'https://api.openai.com/v1', true)).toEqual([
			'listed-model',
		]);
		expect(await modelsOf(e, keys, [], 'openai', undefined, true)).toEqual(['listed-model']);
		expect(listed.map((call) => call.key)).toEqual(['sk-user-key', 'sk-user-key', 'sk-user-key']);
	});
});
