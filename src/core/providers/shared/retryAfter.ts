export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

/** `retry-after-ms` (milliseconds), else `retry-after` (seconds or an HTTP date). */
export function retryAfterMs(headers: HeadersLike | undefined, now = Date.now()): number | undefined {
	if (!headers) return undefined;
	const get = (name: string): string | undefined => {
		if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
		const value = (headers as Record<string, string | string[] | undefined>)[name];
		return Array.isArray(value) ? value[0] : value;
	};
	const ms = Number.parseFloat(get('retry-after-ms') ?? '');
	if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
	const raw = get('retry-after');
	if (!raw) return undefined;
	const seconds = Number(raw);
	if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
	const date = Date.parse(raw);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
