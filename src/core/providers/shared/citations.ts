import type { ProviderToolSource } from '../spec/model.js';

/** An http(s) URL as written, or undefined (a `javascript:` or `data:` link never reaches the panel). */
export function safeUrl(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
	} catch {
		return undefined;
	}
}

/** Sources with safe URLs, each once (first title wins). */
export function safeSources(list: readonly { title?: unknown; url?: unknown }[]): ProviderToolSource[] {
	const seen = new Set<string>();
	const out: ProviderToolSource[] = [];
	for (const entry of list) {
		const url = safeUrl(entry.url);
		if (!url || seen.has(url)) continue;
		seen.add(url);
		out.push({
			title: typeof entry.title === 'string' && entry.title.trim() ? entry.title.trim() : url,
			url,
		});
	}
	return out;
}

/**
 * The sources an answer cites, numbered in the order first cited. Each API marks citations its own
 * way (annotations, citation deltas, grounding metadata); all end as one Markdown list after the
 * text, so the answer keeps them wherever it goes (the final answer, the panel, `final-answer.md`).
 */
export class CitationList {
	private readonly sources: ProviderToolSource[] = [];

	add(title: unknown, url: unknown): void {
		const [source] = safeSources([{ title, url }]);
		if (source && !this.sources.some((known) => known.url === source.url)) this.sources.push(source);
	}

	/** The text to append (empty when nothing was cited). */
	block(): string {
		if (!this.sources.length) return '';
		const lines = this.sources.map((s, i) => `${i + 1}. [${escapeTitle(s.title)}](${escapeUrl(s.url)})`);
		return `\n\nSources:\n${lines.join('\n')}\n`;
	}
}

function escapeTitle(title: string): string {
	return title.replace(/[\\[\]]/g, (c) => `\\${c}`).replace(/\s+/g, ' ');
}

/** Parentheses and spaces would end a Markdown link target early. */
function escapeUrl(url: string): string {
	return url.replace(/[()\s]/g, (c) => encodeURIComponent(c));
}
