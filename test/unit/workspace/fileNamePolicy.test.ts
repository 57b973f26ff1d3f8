/**
 * The file-name half of the write policy: names holding controls, line separators, unpaired
 * surrogates or invisible format characters (bidi, zero-width, BOM, soft hyphen), and names with a
 * leading space or a trailing space or dot, are never written; reading them stays allowed.
 */
import { describe, expect, it } from 'vitest';
import { escapeFileName, policyRefusal } from '../../../src/core/workspace/pathPolicy.js';

const refusedCodePoints = [
	...Array.from({ length: 0x20 }, (_, n) => n),
	0x7f,
	...Array.from({ length: 0x20 }, (_, n) => 0x80 + n),
	0x00ad,
	0x061c,
	0x180e,
	0x200b,
	0x200c,
	0x200d,
	0x200e,
	0x200f,
	0x2028,
	0x2029,
	0x202a,
	0x202b,
	0x202c,
	0x202d,
	0x202e,
	0x2060,
	0x2066,
	0x2067,
	0x2068,
	0x2069,
	0x206f,
	0xfeff,
	0xd800,
	0xdfff,
	0xe0041,
];

const write = (path: string) => policyRefusal(path, path, 'write', []);
const read = (path: string) => policyRefusal(path, path, 'read', []);
const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

describe('file names a write may create', () => {
	it('refuses each unsafe code point in any segment and names it; reading the same path is allowed', () => {
		for (const code of refusedCodePoints) {
			const char = code >= 0xd800 && code <= 0xdfff ? String.fromCharCode(code) : String.fromCodePoint(code);
			for (const path of [`a${char}b.txt`, `src/${char}x/y.js`, `${char}`]) {
				const reason = write(path);
				expect(reason, `${hex(code)} in ${JSON.stringify(path)}`).toContain(`has ${hex(code)} (`);
				// The quoted name shows the character as text, never raw.
				expect(reason).not.toContain(char);
				expect(read(path)).toBeNull();
			}
		}
	});

	it('refuses a leading space and a trailing space or dot in any segment', () => {
		for (const path of [' a.txt', 'a.txt ', 'a.', 'src./x.js', 'dir /x.js', 'x/\u3000y', 'x/y\u00a0']) {
			expect(write(path), path).toMatch(/starts with a space or ends with a space or dot/);
			expect(read(path)).toBeNull();
		}
	});

	it('control: ordinary names, inner spaces and dots, non-Latin letters, emoji and combining marks are written', () => {
		for (const path of [
			'a b.txt',
			'.github/x.y.yml',
			'docs/Über uns.md',
			'src/日本語.ts',
			'مرحبا.txt',
			'café.md',
			'cafe\u0301.md',
			'rocket🚀.md',
			'...hidden',
			'a-b_c~d(1)[2]{3}.js',
		]) {
			expect(write(path), path).toBeNull();
		}
	});

	it('the bidi repro from the attack: the refusal quotes the path with the override and newline visible', () => {
		const reason = write('src/\u202esj.piz\nx.js');
		expect(reason).toBe(
			"refused: 'src/<U+202E>sj.piz<U+000A>x.js' has U+202E (a bidi control) in a file name: agents never write names with control, invisible or bidi characters; use plain characters",
		);
		expect(escapeFileName('f\u001b]0;PWN\u0007.txt')).toBe('f<U+001B>]0;PWN<U+0007>.txt');
	});

	it('refuses writes inside dependency folders at any depth; reads and look-alike names stay allowed', () => {
		for (const path of [
			'node_modules/pkg/index.js',
			'node_modules/.bin/eslint',
			'packages/a/node_modules/b/x.js',
			'.venv/lib/python3/site.py',
			'venv/bin/activate',
			'Node_Modules/pkg/index.js',
		]) {
			expect(write(path), path).toMatch(/is inside a dependency folder/);
			expect(read(path)).toBeNull();
		}
		for (const path of ['src/node_modules_helper.js', 'docs/venv.md', 'my.venv/x']) {
			expect(write(path), path).toBeNull();
		}
	});
});
