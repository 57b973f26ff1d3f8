import type { GroundingMetadata, Part } from '@google/genai';
import { CitationList, safeSources } from '../shared/citations.js';
import type { ProviderToolUse } from '../spec/model.js';
import { errorMessage } from '../../util/errorMessage.js';

/**
 * The API's refusal of built-in tools next to function declarations: Gemini 2.x "Tool use with function
 * calling is unsupported (by the model)", older models' "Multiple tools are supported only when they are
 * all search tools", and a model that wants `include_server_side_tool_invocations` it did not accept.
 */
const refusal =
	/function calling is unsupported|multiple tools are supported only when they are all search tools|include_server_side_tool_invocations/i;

export function refusesNativeTools(error: unknown): boolean {
	const status = (error as { status?: unknown } | null)?.status;
	return (status === undefined || status === 400) && refusal.test(errorMessage(error));
}

export function nativeToolsRefusedNotice(model: string, error: unknown): string {
	const why = errorMessage(error).slice(0, 200);
	return `${model} cannot use Google Search or code execution together with function calling (the API said: ${why}); this agent continues without them`;
}

/**
 * One call's built-in tool output: `executableCode` / `codeExecutionResult` parts (and the server-side
 * `toolCall` / `toolResponse` parts Gemini 3 shows when combining tools), kept in order to be echoed,
 * and the candidate's grounding metadata (queries, pages, and the pages the text cites).
 */
export class GeminiServerParts {
	readonly parts: Part[] = [];
	sawText = false;
	private pendingCode: { code?: string; id: string } | undefined;
	private grounding: GroundingMetadata | undefined;
	private count = 0;

	/** `kept`: a part to echo with nothing to show yet; a use: show it; undefined: not a tool part. */
	take(part: Part): ProviderToolUse | 'kept' | undefined {
		if (part.executableCode) {
			this.parts.push(part);
			this.pendingCode = {
				id: part.executableCode.id ?? `gemini_code_${++this.count}`,
				code: part.executableCode.code,
			};
			return 'kept';
		}
		if (part.codeExecutionResult) {
			this.parts.push(part);
			const result = part.codeExecutionResult;
			const code = this.pendingCode;
			this.pendingCode = undefined;
			return {
				id: code?.id ?? `gemini_code_${++this.count}`,
				kind: 'code',
				...(code?.code ? { code: code.code } : {}),
				...(result.output ? { output: result.output } : {}),
				...(result.outcome && result.outcome !== 'OUTCOME_OK' ? { isError: true } : {}),
			};
		}
		if (part.toolCall || part.toolResponse) {
			this.parts.push(part);
			return 'kept';
		}
		return undefined;
	}

	/** Chunks repeat or extend the metadata: the last one holds the whole call's. */
	ground(metadata: GroundingMetadata): void {
		this.grounding = metadata;
	}

	/** The call's Google searches as one lane entry, once the stream ended. */
	search(): ProviderToolUse | undefined {
		const g = this.grounding;
		if (!g?.webSearchQueries?.length && !g?.groundingChunks?.length) return undefined;
		const sources = safeSources(
			(g.groundingChunks ?? []).map((c) => ({ title: c.web?.title, url: c.web?.uri })),
		);
		const query = g.webSearchQueries?.join(' | ');
		return {
			id: `gemini_search_${++this.count}`,
			kind: 'search',
			...(query ? { query } : {}),
			...(sources.length ? { sources } : {}),
		};
	}

	/** The pages the answer's text rests on (`groundingSupports`), or every grounding page when none is marked. */
	citationBlock(): string {
		const chunks = this.grounding?.groundingChunks ?? [];
		if (!this.sawText || !chunks.length) return '';
		const cited = (this.grounding?.groundingSupports ?? []).flatMap((s) => s.groundingChunkIndices ?? []);
		const order = cited.length ? cited : chunks.map((_, i) => i);
		const citations = new CitationList();
		for (const index of order) citations.add(chunks[index]?.web?.title, chunks[index]?.web?.uri);
		return citations.block();
	}
}
