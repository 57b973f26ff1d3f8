import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getL10nJson, type l10nJsonFormat } from '@vscode/l10n-dev';
import { beforeAll, describe, expect, it } from 'vitest';

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
});
