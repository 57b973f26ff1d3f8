import { autoAgentTurn } from './autoAgent.js';
import type { RecordedRequest } from './loopbackProvider.js';
import type { Reply } from './types.js';

/** What a reading agent has done so far, read by the test or benchmark that drives it. */
export interface ReadingState {
	reads: number;
	summaries: number;
	answered: boolean;
}

/** `count` files of about 6 KB each (`docs/partN.md`), each opening with a marker only it holds. */
export function readingFiles(count: number): Record<string, string> {
	return Object.fromEntries(
		Array.from({ length: count }, (_, i) => {
			const path = `docs/part${i + 1}.md`;
			const lines = Array.from(
				{ length: 80 },
				(_, line) => `line ${line} of ${path}: notes about the module, kept short.`,
			);
			return [path, `${readingMarker(path)}\n${lines.join('\n')}\n`];
		}),
	);
}

export const readingMarker = (path: string) => `MARKER-${path.replace(/\W/g, '-')}`;

/** Usage a summary call reports: distinct, so a test finds it among the run's usage events. */
export const summaryUsage = { input: 4_321, output: 87 };

/**
 * A model (the loopback server's `script`) that reads a long tool loop: each call that offers
 * read_file reads the next of `paths`; once all are read it answers once (`new_answer`) and then
 * plays the auto-agent (vote, present). A call without tools is a compaction's summary call.
 */
export function readingScript(paths: readonly string[], state: ReadingState) {
	return (request: RecordedRequest): Reply | undefined => {
		if (request.method !== 'POST') return undefined;
		const { prompt } = request;
		const offers = (name: string) => prompt.tools.some((tool) => tool.name === name);
		if (prompt.tools.length === 0) {
			state.summaries++;
			return {
				turn: { text: `SUMMARY: read ${state.reads} files of the docs so far.`, usage: summaryUsage },
			};
		}
		if (offers('read_file') && state.reads < paths.length) {
			const path = paths[state.reads++]!;
			return { turn: { text: `Reading ${path}.`, toolCalls: [{ name: 'read_file', arguments: { path } }] } };
		}
		if (offers('new_answer') && !state.answered) {
			state.answered = true;
			const content = `The docs hold ${paths.length} parts; the reader read each one.`;
			return { turn: { text: 'Answering.', toolCalls: [{ name: 'new_answer', arguments: { content } }] } };
		}
		return { turn: autoAgentTurn(prompt, { name: 'reader' }) };
	};
}
