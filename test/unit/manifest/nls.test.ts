import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = join(__dirname, '..', '..', '..');
const read = (file: string): unknown => JSON.parse(readFileSync(join(repo, file), 'utf8'));
const bundles = {
	'package.nls.json': read('package.nls.json'),
	'package.nls.de.json': read('package.nls.de.json'),
};

/** Every string value of the manifest, with where it sits (for the failure message). */
function strings(value: unknown, at: string, out: [string, string][] = []): [string, string][] {
	if (typeof value === 'string') out.push([at, value]);
	else if (Array.isArray(value)) value.forEach((item, i) => strings(item, `${at}[${i}]`, out));
	else if (value && typeof value === 'object') {
		for (const [key, item] of Object.entries(value)) strings(item, `${at}.${key}`, out);
	}
	return out;
}

/** The `%key%` placeholders VS Code replaces from package.nls*.json. */
function placeholders(manifest: unknown): Map<string, string> {
	const used = new Map<string, string>();
	for (const [at, text] of strings(manifest, '')) {
		const match = /^%([^%\s]+)%$/.exec(text);
		if (match) used.set(match[1], at);
	}
	return used;
}

// The fields VS Code shows to the user; each must be a %key% so every locale can translate it.
const visibleField =
	/\.(title|category|name|contextualTitle|description|markdownDescription|patternErrorMessage|contents|displayName|fullName|userDescription|altText|label|tooltip)$|\.(enumDescriptions|markdownEnumDescriptions|enumItemLabels)\[\d+\]$/;
// Fields that are ids or read by a model, not shown as UI text.
const notUi = [
	/^\.name$/,
	/^\.contributes\.chatParticipants\[\d+\]\.name$/,
	/\.commands\[\d+\]\.name$/,
	/^\.contributes\.languageModelTools\[\d+\]\.name$/,
	/\.inputSchema\./,
	/\.disambiguation\[/,
	// A URI label template (`${path}`), not text.
	/^\.contributes\.resourceLabelFormatters\[\d+\]\.formatting\.label$/,
];

/** User-visible fields that hold literal text instead of a %key%. */
function unlocalised(manifest: unknown): [string, string][] {
	return strings(manifest, '').filter(
		([at, text]) =>
			visibleField.test(at) && !notUi.some((skip) => skip.test(at)) && !/^%[^%\s]+%$/.test(text),
	);
}

describe('manifest localisation (package.nls.json, package.nls.de.json)', () => {
	const manifest = read('package.json');
	const used = placeholders(manifest);

	it('every %key% of package.json has a non-empty text in every bundle', () => {
		expect(used.size).toBeGreaterThan(50);
		for (const [file, bundle] of Object.entries(bundles)) {
			const texts = bundle as Record<string, unknown>;
			for (const [key, at] of used) {
				expect(typeof texts[key] === 'string' && texts[key] !== '', `${file} lacks "${key}" (${at})`).toBe(
					true,
				);
			}
		}
	});

	it('no bundle has a key that package.json does not use', () => {
		for (const [file, bundle] of Object.entries(bundles)) {
			expect(
				Object.keys(bundle as object).filter((key) => !used.has(key)),
				file,
			).toEqual([]);
		}
	});

	it('no user-visible manifest text is left unlocalised', () => {
		expect(unlocalised(manifest)).toEqual([]);
	});

	it('the German bundle keeps the command links and code spans of the English one', () => {
		const en = bundles['package.nls.json'] as Record<string, string>;
		const de = bundles['package.nls.de.json'] as Record<string, string>;
		const marks = (text: string) => [...text.matchAll(/\(command:[^)]+\)|`[^`]+`/g)].map((m) => m[0]).sort();
		for (const key of Object.keys(en)) expect(marks(de[key] ?? ''), key).toEqual(marks(en[key]));
	});

	it('the checks see a missing key (guards the guard)', () => {
		expect([...placeholders({ a: { title: '%x.y%' }, b: 'text' }).keys()]).toEqual(['x.y']);
		const literal = { contributes: { commands: [{ command: 'massgen.x', title: 'X', category: '%c%' }] } };
		expect(unlocalised(literal)).toEqual([['.contributes.commands[0].title', 'X']]);
		const setting = { p: { enum: ['a'], enumDescriptions: ['A'], markdownDescription: '%d%' } };
		expect(unlocalised(setting)).toEqual([['.p.enumDescriptions[0]', 'A']]);
	});
});
