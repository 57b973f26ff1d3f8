/**
 * The panel's texts. The host sends its table (`WebviewStrings`, each text from `vscode.l10n.t`, so
 * in the display language) with the snapshot; the panel is built only once it has one, so every
 * label, button, placeholder, aria-label and empty state reads from it.
 */
import { formatString, type WebviewStringKey, type WebviewStrings } from '../src/protocol/stringsTable.js';

let table: WebviewStrings | undefined;

export function setStrings(strings: WebviewStrings): void {
	table = strings;
}

export function hasStrings(): boolean {
	return table !== undefined;
}

/** The text of `key`, its `{0}`, `{1}`… filled from `args`. */
export function t(key: WebviewStringKey, ...args: readonly (string | number)[]): string {
	return formatString(table?.[key] ?? key, args);
}

/** A phrase with a count: the table holds `one|other`, picked by `count` (English and German agree on 1). */
export function tc(key: WebviewStringKey, count: number, ...args: readonly (string | number)[]): string {
	const [one, other = one] = (table?.[key] ?? key).split('|');
	return formatString(count === 1 ? one! : other, args);
}
