import type { ResponseOutputItem } from 'openai/resources/responses/responses';
import { safeSources, type CitationList } from '../shared/citations.js';
import type { ProviderToolUse } from '../spec/model.js';

/** A `url_citation` annotation (Responses' only citation that links to the web) joins the list. */
export function addCitation(citations: CitationList, annotation: unknown): void {
	const a = annotation as { type?: unknown; url?: unknown; title?: unknown } | null;
	if (a?.type === 'url_citation') citations.add(a.title, a.url);
}

/** A finished `web_search_call` / `code_interpreter_call` output item, as the lane shows it. */
export function responsesToolUse(item: ResponseOutputItem): ProviderToolUse | undefined {
	if (item.type === 'web_search_call') {
		const failed = item.status === 'failed' ? { isError: true, output: 'the web search failed' } : {};
		const action = item.action;
		if (action?.type === 'open_page' || action?.type === 'find_in_page') {
			const sources = safeSources([{ url: action.url }]);
			const query = action.type === 'find_in_page' ? { query: action.pattern } : {};
			return { id: item.id, kind: 'fetch', ...query, ...(sources.length ? { sources } : {}), ...failed };
		}
		const query = action?.query ?? action?.queries?.join(' | ');
		const sources = safeSources(action?.sources ?? []);
		return {
			id: item.id,
			kind: 'search',
			...(query ? { query } : {}),
			...(sources.length ? { sources } : {}),
			...failed,
		};
	}
	if (item.type === 'code_interpreter_call') {
		const logs = (item.outputs ?? []).flatMap((o) => (o.type === 'logs' ? [o.logs] : ['[image output]']));
		const failed = item.status === 'failed' || item.status === 'incomplete';
		return {
			id: item.id,
			kind: 'code',
			...(item.code ? { code: item.code } : {}),
			...(logs.length ? { output: logs.join('\n') } : {}),
			...(failed ? { isError: true } : {}),
		};
	}
	return undefined;
}
