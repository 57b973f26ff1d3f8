/**
 * Untrusted text (a model's, a repository's, an MCP server's) shown to the user as it is, with
 * every control and invisible character made visible: on a terminal (the CLI's stdout and stderr,
 * src/cli/display/terminalStream.ts) nothing arrives as an escape sequence, and anywhere (the
 * panel's approval card too) no bidi override shows a command in another order than it runs.
 */

/**
 * What must never reach a terminal as it is: C0 controls (ESC starts every CSI/OSC/DCS/APC/PM/SOS
 * sequence, so showing ESC visibly disarms them all), DEL, C1 (0x9B is an 8-bit CSI on some
 * terminals), bidi marks, overrides and isolates (Trojan Source: text shown in another order
 * than it runs) and invisible characters that could hide a word. Zero-width (non-)joiners stay:
 * emoji and Persian or Indic text need them.
 */
export const unsafeText =
	/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
/** For a command to approve, every invisible format character counts (`\\p{Cf}`), line separators too. */
const unsafeInCommand = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu;
/** A carriage return not followed by a line feed (which would overwrite the line it is on). */
const loneReturn = /\r(?!\n)/g;

/** The stand-in for a control: its Control Pictures glyph (`␛`, `␍`, `␡`), else `<U+202E>`. */
function visible(char: string): string {
	const code = char.codePointAt(0)!;
	if (code < 0x20) return String.fromCodePoint(0x2400 + code);
	if (code === 0x7f) return '\u2421';
	return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/**
 * Text as it is, with every control but line breaks and tabs shown as a visible stand-in:
 * `ESC[2J` prints as `␛[2J`, a bidi override as `<U+202E>`. Nothing else changes.
 */
export function visibleControls(text: string): string {
	return text
		.replace(unsafeText, (char) => (char === '\r' ? char : visible(char)))
		.replace(loneReturn, visible);
}

/** A command shown for approval: every control and invisible character visible (only `\n` and `\t` stay). */
export function visibleCommand(text: string): string {
	return text.replace(unsafeInCommand, visible);
}
