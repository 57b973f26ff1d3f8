/**
 * Terminal text helpers: model output is untrusted (it may carry escape sequences that move the
 * cursor, retitle the terminal or write the clipboard), and so is anything a repository planted
 * (config text, server names, old run directories). Two forms: `visibleControls`
 * (src/protocol/visibleText.ts) for text printed as it is (answers, reports, notices: every control
 * shown as a visible stand-in, so nothing reaches the terminal as a sequence), and
 * `sanitizeTerminalText` for one table cell (sequences dropped).
 */

import { unsafeText } from '../../protocol/visibleText.js';

// CSI and OSC sequences, then lone ESC + one character.
const escapeSequences =
	/\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?/g;
const lineBreaks = /[\r\n\t\u2028\u2029]+/g;
/** One line of printable text: escape sequences and controls removed, line breaks as spaces. */
export function sanitizeTerminalText(text: string): string {
	return text.replace(escapeSequences, '').replace(lineBreaks, ' ').replace(unsafeText, '');
}

/** Columns a code point occupies: 0 for combining marks, 2 for East Asian wide and emoji. */
export function charWidth(codePoint: number): number {
	if (
		(codePoint >= 0x300 && codePoint <= 0x36f) ||
		(codePoint >= 0x200b && codePoint <= 0x200f) ||
		(codePoint >= 0x20d0 && codePoint <= 0x20ff) ||
		(codePoint >= 0xfe00 && codePoint <= 0xfe0f)
	) {
		return 0;
	}
	if (
		(codePoint >= 0x1100 && codePoint <= 0x115f) ||
		(codePoint >= 0x2e80 && codePoint <= 0xa4cf && codePoint !== 0x303f) ||
		(codePoint >= 0xac00 && codePoint <= 0xd7a3) ||
		(codePoint >= 0xf900 && codePoint <= 0xfaff) ||
		(codePoint >= 0xfe30 && codePoint <= 0xfe4f) ||
		(codePoint >= 0xff00 && codePoint <= 0xff60) ||
		(codePoint >= 0xffe0 && codePoint <= 0xffe6) ||
		(codePoint >= 0x1f300 && codePoint <= 0x1f64f) ||
		(codePoint >= 0x1f680 && codePoint <= 0x1f6ff) ||
		(codePoint >= 0x1f900 && codePoint <= 0x1faff) ||
		(codePoint >= 0x20000 && codePoint <= 0x3fffd)
	) {
		return 2;
	}
	return 1;
}

/** Display width of sanitized text. */
export function textWidth(text: string): number {
	let width = 0;
	for (const char of text) width += charWidth(char.codePointAt(0)!);
	return width;
}

/** Cuts text to at most `width` columns, ending with `…` when something was cut. */
export function truncateToWidth(text: string, width: number): string {
	if (width <= 0) return '';
	if (textWidth(text) <= width) return text;
	let out = '';
	let used = 0;
	for (const char of text) {
		const w = charWidth(char.codePointAt(0)!);
		if (used + w > width - 1) break;
		out += char;
		used += w;
	}
	return `${out}…`;
}

/** Truncates or pads with spaces to exactly `width` columns. */
export function fitToWidth(text: string, width: number, align: 'left' | 'right' = 'left'): string {
	const cut = truncateToWidth(text, width);
	const pad = ' '.repeat(Math.max(0, width - textWidth(cut)));
	return align === 'left' ? cut + pad : pad + cut;
}

/** `950`, `12.3k`, `4.5M`. */
export function formatTokens(count: number): string {
	if (count < 1_000) return String(count);
	if (count < 1_000_000) return `${(count / 1_000).toFixed(1)}k`;
	return `${(count / 1_000_000).toFixed(1)}M`;
}

/** `$0.0123`, `$1.25`, or `no price` when any call had no known price. */
export function formatCost(costUsd: number | null): string {
	if (costUsd === null) return 'no price';
	return `$${costUsd < 1 ? costUsd.toFixed(4) : costUsd.toFixed(2)}`;
}

/** `850ms`, `12.3s`, `2m05s`. */
export function formatDuration(ms: number): string {
	if (ms < 1_000) return `${Math.round(ms)}ms`;
	if (ms < 60_000) return `${(ms / 1_000).toFixed(1)}s`;
	const minutes = Math.floor(ms / 60_000);
	const seconds = Math.floor((ms % 60_000) / 1_000);
	return `${minutes}m${String(seconds).padStart(2, '0')}s`;
}
