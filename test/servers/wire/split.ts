import type { PromptSegment } from '../types.js';

/** Splits text into `parts` non-empty pieces (fewer when the text is shorter). */
export function splitText(text: string, parts: number): string[] {
	if (!text) return [];
	const size = Math.max(1, Math.ceil(text.length / Math.max(1, parts)));
	const out: string[] = [];
	for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
	return out;
}

export function pieces(value: string | readonly string[] | undefined, parts: number): string[] {
	if (value === undefined) return [];
	return typeof value === 'string' ? splitText(value, parts) : [...value];
}

export function argumentText(call: { arguments?: Record<string, unknown>; raw?: string }): string {
	return call.raw ?? JSON.stringify(call.arguments ?? {});
}

let counter = 0;
export function nextId(prefix: string): string {
	counter += 1;
	return `${prefix}_${counter.toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

export function asRecord(value: unknown): Record<string, unknown> {
	return value && typeof value === 'object' && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: {};
}

export function asArray(value: unknown): unknown[] {
	return Array.isArray(value) ? value : [];
}

/** Text of a content value that is either a string or a list of typed parts. */
export function textOf(content: unknown): string {
	if (typeof content === 'string') return content;
	return asArray(content)
		.map((part) => {
			const record = asRecord(part);
			if (typeof record['text'] === 'string') return record['text'];
			if (record['content'] !== undefined) return textOf(record['content']);
			return '';
		})
		.join('');
}

/** Prompt segments of a list of request pieces: each piece's JSON without `cache_control`, and whether it had one. */
export function segmentsOf(items: readonly unknown[]): PromptSegment[] {
	return items.map((item) => {
		const record = asRecord(item);
		if (!('cache_control' in record)) return { text: JSON.stringify(item), breakpoint: false };
		const { cache_control: _marker, ...rest } = record;
		return { text: JSON.stringify(rest), breakpoint: true };
	});
}
