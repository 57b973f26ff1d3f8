/**
 * The 0-based character span a diagnostic underlines for an issue at 1-based `col` on a line:
 * the YAML token there (a key, a scalar, a quoted string), at least one character.
 */
export function issueSpan(lineText: string | undefined, col: number): { start: number; end: number } {
	const start = Math.max(0, col - 1);
	if (lineText === undefined || start >= lineText.length) return { start, end: start + 1 };
	const rest = lineText.slice(start);
	const quoted = rest.match(/^(["'])(?:\\.|(?!\1).)*\1?/);
	const token = quoted ? quoted[0] : (rest.match(/^[^\s:#,\]}]+/)?.[0] ?? '');
	return { start, end: start + Math.max(1, token.length) };
}
