import type {
	ResponseCreateParamsStreaming,
	ResponseOutputItem,
	Tool,
} from 'openai/resources/responses/responses';
import type { BackendSettings } from '../spec/backendSettings.js';
import type { ChatRequest, ProviderToolUse } from '../spec/model.js';
import { OpenAIResponsesModel } from './openaiResponses.js';
import { responsesToolUse } from './responsesProviderTools.js';
import { toResponsesRequest } from './toResponsesRequest.js';

/**
 * xAI serves web search only as server-side tools of its Responses API (`POST /v1/responses`; the
 * Live Search of chat completions answers 410 Gone). A `grok` agent with `enable_web_search` goes
 * there, through the `openai` SDK at xAI's base URL; other grok agents stay on chat completions,
 * the API MassGen's grok backend uses, so turning search on changes nothing else about them.
 */
export function usesXaiResponses(settings: BackendSettings): boolean {
	return settings.type === 'grok' && settings.providerTools?.webSearch === true;
}

/**
 * MassGen's grok search (Live Search) covered the web and X alike: `enable_web_search` sends both of
 * xAI's search tools. xAI returns sources on its items without `include` (it accepts only
 * `reasoning.encrypted_content` there), so none of OpenAI's tool includes are sent.
 */
export function toXaiResponsesRequest(
	settings: BackendSettings,
	request: ChatRequest,
): ResponseCreateParamsStreaming {
	const { providerTools, ...rest } = settings;
	const params = toResponsesRequest(rest, request);
	if (!providerTools?.webSearch || request.withoutProviderTools) return params;
	const search = [{ type: 'web_search' }, { type: 'x_search' }] as unknown as Tool[];
	return { ...params, tools: [...(params.tools ?? []), ...search] };
}

/** An `x_search_call` item: the searcher xAI ran (`x_keyword_search`, …) and its arguments as JSON text. */
interface XSearchCall {
	readonly type: 'x_search_call';
	readonly id: string;
	readonly name?: string;
	readonly arguments?: string;
	readonly status?: string;
}

/** A finished xAI search item as the lane shows it: `web_search_call` as OpenAI's, `x_search_call` by its query. */
export function xaiToolUse(item: ResponseOutputItem): ProviderToolUse | undefined {
	const x = item as unknown as XSearchCall;
	if (x.type !== 'x_search_call') return responsesToolUse(item);
	let query: unknown;
	try {
		query = (JSON.parse(x.arguments ?? '{}') as { query?: unknown }).query;
	} catch {
		query = undefined;
	}
	return {
		id: x.id,
		kind: 'search',
		query: typeof query === 'string' && query ? `X: ${query}` : 'X search',
		...(x.status === 'failed' ? { isError: true, output: 'the X search failed' } : {}),
	};
}

/** `type: grok` with web search: xAI's Responses API. */
export class XaiResponsesModel extends OpenAIResponsesModel {
	// xAI runs its tools from its own state: their items are not sent back (its reasoning items are).
	protected override readonly echoesToolItems = false;

	constructor(settings: BackendSettings, options: { keyVariable?: string } = {}) {
		super(settings, { keyVariable: options.keyVariable ?? 'XAI_API_KEY' });
	}

	protected override params(request: ChatRequest): ResponseCreateParamsStreaming {
		return toXaiResponsesRequest(this.settings, request);
	}

	protected override toolUse(item: ResponseOutputItem): ProviderToolUse | undefined {
		return xaiToolUse(item);
	}
}
