/**
 * The offset where flow collections (`[`, `{`) nest deeper than `cap`, or undefined. The yaml
 * parser spends seconds and half a GB on 400,000 nested brackets (and then reports only a stack
 * overflow), while no config nests more than a few levels. A cheap scan, not a parser: quoted
 * strings and comments are skipped, and the count restarts at each top-level line (flow content
 * there must be indented). Brackets in plain or block scalars count, which can only overestimate.
 */
export function flowNestingPastCap(text: string, cap: number): number | undefined {
	let depth = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text[i]!;
		const lineStart = i === 0 || text[i - 1] === '\n';
		if (lineStart && c !== ' ' && c !== ']' && c !== '}' && c !== ',' && c !== '\n') depth = 0;
		if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
			i = text.indexOf('\n', i) - 1;
			if (i < 0) return undefined;
		} else if (c === '"') {
			while (++i < text.length && text[i] !== '"') if (text[i] === '\\') i++;
		} else if (c === "'") {
			while (++i < text.length && !(text[i] === "'" && text[i + 1] !== "'")) if (text[i] === "'") i++;
		} else if (c === '[' || c === '{') {
			if (++depth > cap) return i;
		} else if ((c === ']' || c === '}') && depth > 0) depth--;
	}
	return undefined;
}
