/**
 * Names a run directory gives the stats (agent ids, providers, models) as text safe to show: one
 * line, no control characters (an ESC in a model name would drive the terminal that prints the
 * table), no bidirectional overrides or zero-width characters, and a bounded length.
 */
const invisible = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** The most characters a name keeps. */
export const maxNameChars = 80;

/** `text` with each invisible character as `?`, cut to `maxNameChars` (marked `…`); empty as `unknown`. */
export function shownName(text: string): string {
	const visible = text.replace(invisible, '?').trim();
	if (visible === '') return 'unknown';
	const chars = [...visible];
	return chars.length <= maxNameChars ? visible : `${chars.slice(0, maxNameChars - 1).join('')}…`;
}
