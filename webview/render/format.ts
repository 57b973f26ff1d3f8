import { t } from '../strings.js';
/**
 * Number, time and cost formatting for the panel (no locale surprises in tests: fixed rules).
 */

export function formatDuration(ms: number): string {
	if (!Number.isFinite(ms) || ms < 0) return '0 s';
	if (ms < 1_000) return t('ms', Math.round(ms));
	const seconds = ms / 1_000;
	if (seconds < 60) return Number.isInteger(seconds) ? `${seconds} s` : `${seconds.toFixed(1)} s`;
	const minutes = Math.floor(seconds / 60);
	const rest = Math.floor(seconds % 60);
	if (minutes < 60) return `${minutes}m ${String(rest).padStart(2, '0')}s`;
	return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

export function formatTokens(count: number): string {
	if (count < 1_000) return String(count);
	if (count < 1_000_000) return `${(count / 1_000).toFixed(count < 10_000 ? 1 : 0)}k`;
	return `${(count / 1_000_000).toFixed(1)}M`;
}

/** USD; `null` means at least one call had no known price. */
export function formatCost(usd: number | null): string {
	if (usd === null) return t('noPrice');
	if (usd === 0) return '$0';
	if (usd < 0.01) return `$${usd.toFixed(4)}`;
	return `$${usd.toFixed(2)}`;
}

/** Local date and time of an ISO timestamp, short. */
export function formatStartedAt(iso: string, now: Date = new Date()): string {
	const date = new Date(iso);
	if (Number.isNaN(date.getTime())) return iso;
	const time = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
	const sameDay = date.toDateString() === now.toDateString();
	if (sameDay) return t('today', time);
	return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${time}`;
}

function pad(n: number): string {
	return String(n).padStart(2, '0');
}

export function plural(count: number, one: string, many = `${one}s`): string {
	return `${count} ${count === 1 ? one : many}`;
}

/** First line of a text, collapsed whitespace, at most `max` characters. */
export function preview(text: string, max = 90): string {
	const flat = text
		.replace(/[#*_`>]+/g, '')
		.replace(/\s+/g, ' ')
		.trim();
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Text cut to `max` characters with a note on how much was left out. */
export function truncate(text: string, max: number): string {
	if (text.length <= max) return text;
	return t('moreCharacters', text.slice(0, max), text.length - max);
}
