/**
 * Repository text shown to the user for a decision (a command, a URL) with every control
 * character made visible: an ESC, CR or cursor movement in a command could otherwise erase or
 * overwrite the rest of the line on a terminal, so the user would approve what they did not see.
 * C0/C1 controls become `\xNN` (`\n`, `\r`, `\t` as such), bidirectional overrides and zero-width
 * characters `\u{…}`, and a backslash `\\` (so an escape the text spells itself stays distinct).
 */
const invisible = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\\]/g;

const named: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };

export function visibleText(text: string): string {
	return text.replace(invisible, (char) => {
		const known = named[char];
		if (known !== undefined) return known;
		const code = char.codePointAt(0)!;
		return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
	});
}
