import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { selectAvailableAgents } from '../../../src/core/config/defaultTeam.js';
import { loadConfigFile } from '../../../src/core/config/loadConfig.js';
import type { MassGenConfig } from '../../../src/core/config/schema.js';

const configs = join(__dirname, '..', '..', '..', 'configs');
/** Team presets: every YAML in configs/ except the price table. */
const presets = readdirSync(configs).filter((name) => name.endsWith('.yaml') && name !== 'prices.yaml');

async function preset(name: string): Promise<MassGenConfig> {
	const { config } = await loadConfigFile(join(configs, name));
	if (!config) throw new Error(`${name} did not load`);
	return config;
}

describe('shipped presets', () => {
	it('include the four documented ones', () => {
		expect(presets).toEqual(
			expect.arrayContaining(['default.yaml', 'local.yaml', 'single.yaml', 'three_agents_default.yaml']),
		);
	});

	for (const name of presets) {
		it(`${name} loads with no error or warning`, async () => {
			const result = await loadConfigFile(join(configs, name));
			expect(result.issues).toEqual([]);
			expect(result.config?.agents.length).toBeGreaterThan(0);
		});
	}

	it('three_agents_default has one agent per major provider', async () => {
		expect((await preset('three_agents_default.yaml')).agents.map((a) => a.backend.type)).toEqual([
			'openai',
			'claude',
			'gemini',
		]);
	});

	it('local needs no key', async () => {
		expect((await preset('local.yaml')).agents.map((a) => a.backend.type)).toEqual(['ollama', 'lmstudio']);
	});
});

describe('selectAvailableAgents', () => {
	it('drops the agents whose provider is unavailable, saying why', async () => {
		const team = await preset('default.yaml');
		const selection = selectAvailableAgents(team, (agent) =>
			agent.id === 'claude' ? true : agent.id === 'local' ? { why: 'Ollama did not answer' } : false,
		);
		expect(selection.issues).toEqual([]);
		expect(selection.config?.agents.map((a) => a.id)).toEqual(['claude']);
		expect(selection.config?.orchestrator).toEqual(team.orchestrator);
		expect(selection.dropped).toEqual([
			{ id: 'gpt', why: 'no API key (set OPENAI_API_KEY)' },
			{ id: 'gemini', why: 'no API key (set GEMINI_API_KEY or GOOGLE_API_KEY)' },
			{ id: 'local', why: 'Ollama did not answer' },
		]);
	});

	it('is an error listing what to set when no agent is left', async () => {
		const selection = selectAvailableAgents(
			await preset('default.yaml'),
			() => false,
			'configs/default.yaml',
		);
		expect(selection.config).toBeUndefined();
		expect(selection.issues).toHaveLength(1);
		const [issue] = selection.issues;
		expect(issue).toMatchObject({
			severity: 'error',
			code: 'no-available-agents',
			file: 'configs/default.yaml',
		});
		for (const hint of [
			'OPENAI_API_KEY',
			'ANTHROPIC_API_KEY',
			'GEMINI_API_KEY',
			'http://localhost:11434/v1',
		]) {
			expect(issue!.message).toContain(hint);
		}
	});
});
