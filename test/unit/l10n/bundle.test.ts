import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { getL10nJson, type l10nJsonFormat } from '@vscode/l10n-dev';
import { beforeAll, describe, expect, it } from 'vitest';
import { webviewStringKeys } from '../../../src/protocol/stringsTable';

const repo = join(__dirname, '..', '..', '..');
const read = (file: string): unknown => JSON.parse(readFileSync(join(repo, file), 'utf8'));

function tsFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return tsFiles(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

const sources = tsFiles(join(repo, 'src'));
const messageOf = (value: l10nJsonFormat[string]) => (typeof value === 'string' ? value : value.message);
const placeholders = (text: string) => [...text.matchAll(/\{[^}]+\}/g)].map((m) => m[0]).sort();

/**
 * docs/l10n.md: the extension's runtime strings are `vscode.l10n.t` messages keyed by their English
 * text (English needs no bundle: VS Code shows the message itself). The strings are extracted from
 * `src` by the real extractor (`@vscode/l10n-dev`, the one `npm run l10n:export` runs to write
 * `out/l10n/bundle.l10n.json` for a translator), so a message added to the code and not to the German
 * bundle fails here.
 */
/** The product's name is the same in every language; a comment's text is not shown. */
const shownText = (match: RegExpMatchArray): boolean => {
	const text = match.input ?? '';
	const index = match.index ?? 0;
	const line = text.slice(text.lastIndexOf('\n', index) + 1, index);
	// An icon map (`kind: 'codicon-id'`) holds no text either.
	const before = text.slice(Math.max(0, index - 400), index);
	const map = before.lastIndexOf('Icons: Record<');
	if (map >= 0 && !before.slice(map).includes('};')) return false;
	return (
		!/^\s*(\/\/|\*|\/\*)/.test(line) &&
		!/^[^'"`]*['"`]MassGen['"`]/.test(
			match[0] + text.slice(index + match[0].length, index + match[0].length + 8),
		)
	);
};

describe('l10n bundles: every vscode.l10n.t message of src has its German text', () => {
	let extracted: l10nJsonFormat;
	const german = read('l10n/bundle.l10n.de.json') as Record<string, string>;

	beforeAll(async () => {
		extracted = await getL10nJson(
			sources.map((file) => ({ extension: '.ts', contents: readFileSync(file, 'utf8') })),
		);
	}, 60_000);

	it('package.json points VS Code at l10n/', () => {
		expect((read('package.json') as { l10n?: string }).l10n).toBe('./l10n');
	});

	it('finds the messages (the extractor read the sources)', () => {
		expect(extracted['MassGen: Set API Key']).toBe('MassGen: Set API Key');
	});

	it('the German bundle has every message and no message the code no longer uses', () => {
		const keys = Object.keys(extracted);
		expect(
			keys.filter((key) => !(key in german)),
			'missing in bundle.l10n.de.json',
		).toEqual([]);
		expect(
			Object.keys(german).filter((key) => !(key in extracted)),
			'unused in bundle.l10n.de.json',
		).toEqual([]);
	});

	it('each German text keeps its message’s placeholders and is not empty', () => {
		const mismatched = Object.entries(extracted)
			.filter(([key]) => key in german)
			.filter(([key, value]) => placeholders(german[key]!).join() !== placeholders(messageOf(value)).join())
			.map(([key]) => key);
		expect(mismatched).toEqual([]);
		expect(Object.keys(german).filter((key) => german[key]!.trim() === '')).toEqual([]);
	});

	it('no notification, picker, input box or tree text in src/vscode is an English literal', () => {
		// A literal (quote or backtick) right after one of the calls or fields VS Code shows as text.
		const shown =
			/(?:show(?:Information|Warning|Error)Message\(\s*|\b(?:title|placeHolder|prompt|tooltip|validationMessage):\s*)['"`][^'"`]*[A-Za-z]{2}/g;
		const found = sources
			.filter((file) => /[\\/]src[\\/](vscode[\\/]|extension\.ts$)/.test(file))
			.flatMap((file) =>
				[...readFileSync(file, 'utf8').matchAll(shown)]
					.filter(shownText)
					.map((match) => `${relative(repo, file)}: ${match[0]}`),
			);
		expect(found).toEqual([]);
	});
});

/** A literal (quote or backtick, starting with a letter) where the panel shows text to the user. */
const renderedLiteral =
	/(?:\b(?:text|title|ariaLabel|label|placeholder):\s*|'aria-label':\s*|setAttribute\('(?:aria-label|placeholder|label|title)',\s*|\b(?:button|setText|setTitle)\((?:[^,()]*,\s*)?)['"`][A-Za-z]/g;

/** A text child of `h(…)` on a line of its own (` with `): words between quotes. */
const childLiteral = /^\s+(['"`])(?=[^'"`\n$]*\b[A-Za-z]{2,}\b)[^'"`\n$]* [^'"`\n$]*\1,?$/gm;

describe('the webview shows only the host’s strings table (src/protocol/stringsTable.ts)', () => {
	const webview = tsFiles(join(repo, 'webview'));
	const text = webview.map((file) => readFileSync(file, 'utf8')).join('\n');

	it('no label, button, placeholder, aria-label or text in webview/ is a literal', () => {
		const found = webview.flatMap((file) =>
			[
				...readFileSync(file, 'utf8').matchAll(renderedLiteral),
				...readFileSync(file, 'utf8').matchAll(childLiteral),
			]
				.filter(shownText)
				.map((match) => `${relative(repo, file)}: ${match[0]}`),
		);
		expect(found).toEqual([]);
	});

	it('every key of the table is used by the webview, and the webview asks for no other', () => {
		// The hunk words the panel shares with the diff's lenses take the webview's `t` as a parameter.
		const shared = readFileSync(join(repo, 'src', 'protocol', 'hunkWords.ts'), 'utf8');
		const asked = new Set(
			[...`${text}\n${shared}`.matchAll(/\bt[c]?\(\s*'([A-Za-z0-9]+)'/g)].map((match) => match[1]!),
		);
		const keys = new Set<string>(webviewStringKeys);
		expect(
			[...keys].filter((key) => !asked.has(key)),
			'never used',
		).toEqual([]);
		expect(
			[...asked].filter((key) => !keys.has(key)),
			'not in the table',
		).toEqual([]);
	});
});
