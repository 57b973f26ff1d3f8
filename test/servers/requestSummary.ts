import type { RecordedRequest } from './loopbackProvider.js';
import { asArray, asRecord } from './wire/split.js';

/** What one request cost on the wire, as the server saw it. */
export interface RequestSummary {
	readonly model: string;
	/** Characters of the system prompt and every message text (the `PromptView`). */
	readonly promptChars: number;
	/** Bytes of the JSON of the body's `tools` array. */
	readonly toolSchemaBytes: number;
	readonly bodyBytes: number;
	readonly closedByClient: boolean;
	/** The server had sent model output (text, reasoning or a tool call's pieces) before the close. */
	readonly closedAfterOutput: boolean;
	/** Anthropic: `cache_control` markers anywhere in the body. */
	readonly cacheControlMarks: number;
	/** OpenAI: the request's `prompt_cache_key`, if any. */
	readonly promptCacheKey?: string;
	/** Epoch milliseconds when the request arrived, and when its reply finished or was closed. */
	readonly receivedAt: number;
	readonly settledAt?: number;
}

export interface RequestsSummary {
	readonly requests: number;
	readonly perModel: Readonly<Record<string, number>>;
	readonly closedByClient: number;
	readonly closedAfterOutput: number;
	readonly promptChars: number;
	readonly toolSchemaBytes: number;
	readonly bodyBytes: number;
	readonly cacheControlMarks: number;
	readonly promptCacheKeys: readonly string[];
	/** Epoch milliseconds of the first request (undefined when there was none). */
	readonly firstReceivedAt?: number;
	/** Epoch milliseconds when the last reply finished (undefined while one is open). */
	readonly lastSettledAt?: number;
	readonly each: readonly RequestSummary[];
}

export function summarizeRequest(request: RecordedRequest): RequestSummary {
	const body = asRecord(request.body);
	const key = body['prompt_cache_key'];
	return {
		model: request.model,
		promptChars: [request.prompt.system, ...request.prompt.texts].reduce((n, t) => n + t.length, 0),
		toolSchemaBytes: Buffer.byteLength(JSON.stringify(asArray(body['tools']))),
		bodyBytes: Buffer.byteLength(request.rawBody),
		closedByClient: request.closedByClient,
		closedAfterOutput: request.closedByClient && request.streamedOutput,
		cacheControlMarks: countKey(request.body, 'cache_control'),
		...(typeof key === 'string' ? { promptCacheKey: key } : {}),
		receivedAt: request.receivedAt,
		...(request.settledAt !== undefined ? { settledAt: request.settledAt } : {}),
	};
}

/** Totals over the requests of one or more servers (pass `[...a.requests, ...b.requests]`). */
export function summarizeRequests(requests: readonly RecordedRequest[]): RequestsSummary {
	const each = requests.map(summarizeRequest);
	const sum = (pick: (r: RequestSummary) => number) => each.reduce((n, r) => n + pick(r), 0);
	const perModel: Record<string, number> = {};
	for (const r of each) perModel[r.model] = (perModel[r.model] ?? 0) + 1;
	return {
		requests: each.length,
		perModel,
		closedByClient: sum((r) => Number(r.closedByClient)),
		closedAfterOutput: sum((r) => Number(r.closedAfterOutput)),
		promptChars: sum((r) => r.promptChars),
		toolSchemaBytes: sum((r) => r.toolSchemaBytes),
		bodyBytes: sum((r) => r.bodyBytes),
		cacheControlMarks: sum((r) => r.cacheControlMarks),
		promptCacheKeys: [...new Set(each.flatMap((r) => (r.promptCacheKey ? [r.promptCacheKey] : [])))],
		...(each.length ? { firstReceivedAt: Math.min(...each.map((r) => r.receivedAt)) } : {}),
		...(each.length && each.every((r) => r.settledAt !== undefined)
			? { lastSettledAt: Math.max(...each.map((r) => r.settledAt!)) }
			: {}),
		each,
	};
}

function countKey(value: unknown, key: string): number {
	if (Array.isArray(value)) return value.reduce((n: number, v) => n + countKey(v, key), 0);
	if (!value || typeof value !== 'object') return 0;
	return Object.entries(value).reduce((n, [k, v]) => n + (k === key ? 1 : 0) + countKey(v, key), 0);
}
