/**
 * JSON with object keys in sorted order, so equal data gives equal text whatever order its keys
 * were written in: the keys of MCP sessions, identical approval requests and the trust hash.
 */
export function stableJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}
