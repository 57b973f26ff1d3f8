import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';
import { toBackendSettings } from '../../../src/core/config/toSettings.js';
import { buildAgents } from '../../../src/core/team/buildAgents.js';
import {
	contextWindowFor,
	costOf,
	loadPriceTable,
	parsePriceTable,
	priceFor,
	type PriceTable,
} from '../../../src/core/providers/spec/pricing.js';

const shipped = join(__dirname, '..', '..', '..', 'configs', 'prices.yaml');

describe('price table', () => {
	let table: PriceTable;

	it('loads the shipped, dated table', async () => {
		table = await loadPriceTable(shipped);
		expect(table.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
		for (const model of ['gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'gpt-4.1', 'gpt-4o-mini', 'o4-mini']) {
			expect(table.models['openai']![model]).toBeDefined();
		}
		for (const model of ['claude-opus-4-1', 'claude-sonnet-4-5', 'claude-haiku-4-5']) {
			expect(table.models['anthropic']![model]?.cacheWrite).toBeGreaterThan(0);
		}
		for (const model of ['gemini-2.5-pro', 'gemini-2.5-flash']) {
			expect(table.models['google']![model]).toBeDefined();
		}
		expect(table.models['xai']!['grok-4']).toBeDefined();
	});

	it('matches exact ids and dated or versioned suffixes, preferring the longest entry', () => {
		expect(priceFor('openai', 'gpt-5', table)).toMatchObject(table.models['openai']!['gpt-5']);
		expect(priceFor('openai', 'gpt-5-mini-2025-08-07', table)).toMatchObject(
			table.models['openai']!['gpt-5-mini'],
		);
		expect(priceFor('claude', 'claude-sonnet-4-5-20250929', table)).toMatchObject(
			table.models['anthropic']!['claude-sonnet-4-5'],
		);
		expect(priceFor('grok', 'grok-4-0709', table)).toMatchObject(table.models['xai']!['grok-4']);
		expect(priceFor('gemini', 'gemini-2.5-flash-preview-09-2025', table)).toMatchObject(
			table.models['google']!['gemini-2.5-flash'],
		);
		expect(priceFor('gemini', 'gemini-2.5-flash-lite', table)).toMatchObject(
			table.models['google']!['gemini-2.5-flash-lite'],
		);
	});

	it('does not mistake a different model for a suffix of a listed one', () => {
		expect(priceFor('openai', 'gpt-5-pro', table)).toBeNull();
		expect(priceFor('claude', 'claude-sonnet-4-5-extra', table)).toBeNull();
	});

	it('matches aggregator ids without their vendor prefix, and unknown models have no price', () => {
		expect(priceFor('openrouter', 'openai/gpt-4o-mini', table)).toMatchObject(
			table.models['openai']!['gpt-4o-mini'],
		);
		expect(priceFor('chatcompletion', 'some-lab/unknown-model', table)).toBeNull();
		expect(priceFor('scripted', 'scripted', table)).toBeNull();
	});

	it('prices local servers at zero', () => {
		expect(priceFor('ollama', 'llama3.2', table)).toEqual({ input: 0, output: 0 });
	});

	it('costs a call: uncached input, cache reads, cache writes and output at their own rates', () => {
		const price = { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 };
		const cost = costOf(
			{ inputTokens: 10_000, cachedInputTokens: 6_000, cacheWriteTokens: 2_000, outputTokens: 1_000 },
			price,
		);
		expect(cost).toBeCloseTo((2_000 * 3 + 6_000 * 0.3 + 2_000 * 3.75 + 1_000 * 15) / 1e6, 10);
		expect(
			costOf(
				{ inputTokens: 1_000_000, outputTokens: 0, cachedInputTokens: 1_000_000 },
				{ input: 2, output: 8 },
			),
		).toBe(2);
		expect(costOf({ inputTokens: 5, outputTokens: 5 }, null)).toBeNull();
	});

	it('rejects a malformed table with the path of the bad field', () => {
		expect(() =>
			parsePriceTable('as_of: 2025-01-01\nmodels:\n  openai:\n    gpt-x: { input: -1, output: 2 }\n'),
		).toThrow(/models\.openai\.gpt-x\.input/);
		expect(() => parsePriceTable('models: {}\n')).toThrow(/as_of/);
	});
});

describe('context windows', () => {
	it('the shipped table lists one for every model it prices, matched like prices', async () => {
		const table = await loadPriceTable(shipped);
		for (const [family, models] of Object.entries(table.models)) {
			for (const model of Object.keys(models)) {
				expect(table.contextWindows?.[family]?.[model], `${family}/${model}`).toBeGreaterThan(100_000);
			}
		}
		expect(contextWindowFor('openai', 'gpt-5-mini-2025-08-07', table)).toBe(400_000);
		expect(contextWindowFor('claude', 'claude-sonnet-4-5-20250929', table)).toBe(200_000);
		expect(contextWindowFor('gemini', 'gemini-2.5-flash', table)).toBe(1_048_576);
		expect(contextWindowFor('openrouter', 'x-ai/grok-4', table)).toBe(256_000);
		// Unknown: a model not listed, and a local server's model (its size is the server's).
		expect(contextWindowFor('openai', 'gpt-99', table)).toBeUndefined();
		expect(contextWindowFor('ollama', 'gpt-4o', table)).toBeUndefined();
	});

	it("an agent's config context_window overrides the table; it never reaches the provider's options", async () => {
		const table = await loadPriceTable(shipped);
		const yaml = [
			'agents:',
			'  - id: small',
			'    backend: { type: openai, model: gpt-5-mini, api_key: k, context_window: 32000 }',
			'  - id: listed',
			'    backend: { type: openai, model: gpt-5-mini, api_key: k }',
			'  - id: coder',
			'    backend: { type: claude_code, model: claude-sonnet-4-5 }',
		].join('\n');
		const { config } = loadConfigText(yaml, 'team.yaml');
		const { agents } = buildAgents(config!, {
			keys: { env: {}, dotenv: {} },
			contextWindowOf: (provider, model) => contextWindowFor(provider, model, table),
		});
		expect(agents.map((agent) => agent.contextWindow)).toEqual([32_000, 400_000, undefined]);
		expect(toBackendSettings(config!.agents[0]!).options).not.toHaveProperty('context_window');
	});
});
