import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { z } from 'zod';
import type { Usage } from '../../../contract/runEvents.js';
import { presetFor } from './presets.js';

/** USD per million tokens (the shape of the orchestrator's `ModelPrice`). */
export interface Price {
	readonly input: number;
	readonly output: number;
	readonly cachedInput?: number;
	readonly cacheWrite?: number;
	/** USD per provider-side web search (`Usage.webSearchCalls`), from the table's `tool_calls`. */
	readonly webSearchCall?: number;
}

export interface PriceTable {
	/** Date the list prices were copied (they may be stale). */
	readonly asOf: string;
	/** Vendor family (`openai`, `anthropic`, `google`, `xai`) → model id → price. */
	readonly models: Readonly<Record<string, Readonly<Record<string, Price>>>>;
	/** Vendor family → USD per provider-side tool call, where the vendor charges per call. */
	readonly toolCalls?: Readonly<Record<string, { readonly webSearch?: number }>>;
	/** Vendor family → model id → tokens per request (input and output), where the table lists one. */
	readonly contextWindows?: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

const rate = z.number().nonnegative();
const tableSchema = z.object({
	as_of: z.union([z.string(), z.date()]),
	models: z.record(
		z.string(),
		z.record(
			z.string(),
			z.strictObject({
				input: rate,
				output: rate,
				cached_input: rate.optional(),
				cache_write: rate.optional(),
				context_window: z.number().int().positive().optional(),
			}),
		),
	),
	tool_calls: z.record(z.string(), z.strictObject({ web_search: rate.optional() })).optional(),
});

/** Parses the YAML price table (configs/prices.yaml); throws an Error naming the bad field. */
export function parsePriceTable(text: string): PriceTable {
	const result = tableSchema.safeParse(parse(text));
	if (!result.success) {
		const issue = result.error.issues[0]!;
		throw new Error(`invalid price table at ${issue.path.join('.') || '(root)'}: ${issue.message}`);
	}
	const { as_of, models, tool_calls } = result.data;
	const contextWindows = Object.fromEntries(
		Object.entries(models).map(([family, entries]) => [
			family,
			Object.fromEntries(
				Object.entries(entries).flatMap(([model, p]) =>
					p.context_window === undefined ? [] : [[model, p.context_window]],
				),
			),
		]),
	);
	const toolCalls = Object.fromEntries(
		Object.entries(tool_calls ?? {}).map(([family, p]) => [
			family,
			p.web_search === undefined ? {} : { webSearch: p.web_search },
		]),
	);
	return {
		...(tool_calls ? { toolCalls } : {}),
		contextWindows,
		asOf: as_of instanceof Date ? as_of.toISOString().slice(0, 10) : as_of,
		models: Object.fromEntries(
			Object.entries(models).map(([family, entries]) => [
				family,
				Object.fromEntries(
					Object.entries(entries).map(([model, p]) => [
						model,
						{
							input: p.input,
							output: p.output,
							...(p.cached_input !== undefined ? { cachedInput: p.cached_input } : {}),
							...(p.cache_write !== undefined ? { cacheWrite: p.cache_write } : {}),
						},
					]),
				),
			]),
		),
	};
}

/** Reads and parses a price table file (the shipped one is `configs/prices.yaml`). */
export async function loadPriceTable(path: string): Promise<PriceTable> {
	return parsePriceTable(await readFile(path, 'utf8'));
}

const familyOf: Readonly<Record<string, string>> = {
	openai: 'openai',
	azure_openai: 'openai',
	claude: 'anthropic',
	gemini: 'google',
	grok: 'xai',
};

/** What may follow a listed id: a date (2025-08-07, 20250929), a short version (0709), `latest`, a preview tag. */
const versionSuffix = /^-(\d{4}-\d{2}-\d{2}|\d{8}|\d{4}|\d{3}|latest|(preview|exp)(-[\w.-]*)?)$/;

const free: Price = { input: 0, output: 0 };

/**
 * The price of `model` on backend type `provider`, or null when unknown ("no price").
 * Local OpenAI-compatible servers (ollama, lmstudio, vllm, sglang) cost nothing. Aggregators
 * (`openrouter`, `chatcompletion`) are matched by the model id alone, without a `vendor/` prefix.
 */
export function priceFor(provider: string, model: string, table: PriceTable): Price | null {
	if (presetFor(provider)?.keyOptional) return free;
	const found = lookUp(provider, model, table.models);
	if (!found) return null;
	const webSearchCall = table.toolCalls?.[found.family]?.webSearch;
	return webSearchCall === undefined ? found.value : { ...found.value, webSearchCall };
}

/**
 * The context window (tokens per request) of `model` on backend type `provider`, matched as
 * `priceFor` matches; undefined when the table lists none (a local server's model: its own size).
 */
export function contextWindowFor(provider: string, model: string, table: PriceTable): number | undefined {
	if (presetFor(provider)?.keyOptional) return undefined;
	return lookUp(provider, model, table.contextWindows ?? {})?.value;
}

/** The entry for `model` in the backend's family first, then in the others. */
function lookUp<T>(
	provider: string,
	model: string,
	byFamily: Readonly<Record<string, Readonly<Record<string, T>>>>,
): { family: string; value: T } | undefined {
	const id = model.slice(model.lastIndexOf('/') + 1).toLowerCase();
	const preferred = familyOf[provider];
	const families = preferred
		? [preferred, ...Object.keys(byFamily).filter((f) => f !== preferred)]
		: Object.keys(byFamily);
	for (const family of families) {
		const entries = byFamily[family] ?? {};
		const match = Object.hasOwn(entries, id)
			? id
			: Object.keys(entries)
					.filter((key) => id.startsWith(`${key}-`) && versionSuffix.test(id.slice(key.length)))
					.sort((a, b) => b.length - a.length)[0];
		if (match) return { family, value: entries[match]! };
	}
	return undefined;
}

/**
 * USD for one call. `usage.inputTokens` counts every prompt token; the cached and
 * cache-write parts are billed at their own rates (input rate when the table has none).
 */
export function costOf(usage: Usage, price: Price | null): number | null {
	if (!price) return null;
	const cached = usage.cachedInputTokens ?? 0;
	const written = usage.cacheWriteTokens ?? 0;
	const uncached = Math.max(0, usage.inputTokens - cached - written);
	const micros =
		uncached * price.input +
		cached * (price.cachedInput ?? price.input) +
		written * (price.cacheWrite ?? price.input) +
		usage.outputTokens * price.output;
	return micros / 1_000_000 + (usage.webSearchCalls ?? 0) * (price.webSearchCall ?? 0);
}
