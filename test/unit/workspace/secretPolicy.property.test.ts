/**
 * The path and secret policy over generated spellings (fast-check): case, Unicode (NFC/NFD,
 * zero-width, full-width dots), trailing dots and spaces, `./`, `//`, `..` segments, backslashes,
 * absolute paths, symlinks and hard links to secrets. Whatever the spelling, a path that names a
 * secret (by the policy's notion of the same name, `canonicalName` in secretPaths.ts) or resolves to
 * a secret file is refused by the read tools, and no command in either scratch reads a secret
 * through it. Look-alikes that are other names on every file system are not secret by name: they
 * must then reach no secret content.
 */
import { linkSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../../src/core/exec/sandbox/detectSandbox.js';
import { ScratchCopy } from '../../../src/core/exec/commandScratch.js';
import { OverlayScratch } from '../../../src/core/exec/overlayScratch.js';
import { runCommandTool } from '../../../src/core/tools/runCommandTool.js';
import type { ScratchSpace } from '../../../src/core/exec/scratchSpace.js';
import { ripgrepOnPath } from '../../../src/core/util/ripgrepBinary.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { policyRefusal } from '../../../src/core/workspace/pathPolicy.js';
import { secretPaths } from '../../../src/core/workspace/secretPaths.js';
import type { Workspace } from '../../../src/core/workspace/types.js';
import { addFiles } from '../../support/tempTree.js';

// The same generated cases on every run: a failure here is reproducible, never a lucky draw.
fc.configureGlobal({ seed: 20261203 });

const userPattern = 'geheimnis-\u00e4.txt';
const policy = secretPaths([userPattern]);
/** Secret files (content holds SECRET), by the policy's names. */
const secretFiles: Record<string, string> = {
	'.env': 'SECRET-dotenv',
	'.npmrc': 'SECRET-npmrc',
	'deploy/server.pem': 'SECRET-pem',
	'.ssh/id_x': 'SECRET-ssh',
	'node_modules/pkg/.env': 'SECRET-dependency',
	[`config/${userPattern}`]: 'SECRET-user-pattern',
};
const plainFiles: Record<string, string> = {
	'README.md': 'PLAIN-readme',
	'deploy/readme.txt': 'PLAIN-deploy',
	'node_modules/pkg/index.js': 'PLAIN-dependency',
};
/** Other names of secrets: links (symlinks, hard links) whose names say nothing. */
const aliases = ['notes.txt', 'link-to-env', 'cfg/server.pem', 'nm-link'];

let root: string;
let workspace: Workspace;
beforeAll(async () => {
	// Outside the OS temp folder: the sandbox hides that, and the overlay cannot stack on itself.
	root = mkdtempSync(join('/var/tmp', 'massgen-prop-'));
	await addFiles(root, { ...secretFiles, ...plainFiles });
	linkSync(join(root, '.env'), join(root, 'notes.txt'));
	symlinkSync('.env', join(root, 'link-to-env'));
	symlinkSync('deploy', join(root, 'cfg'));
	symlinkSync('node_modules/pkg/.env', join(root, 'nm-link'));
	workspace = await createWorkspace(root, { secretPaths: policy });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** How one segment may be spelled. `same`: the policy counts it as the same name. */
const segmentSpelling = (segment: string): fc.Arbitrary<{ text: string; same: boolean }> =>
	fc
		.record({
			cases: fc.array(fc.boolean(), { minLength: segment.length, maxLength: segment.length }),
			form: fc.constantFrom('NFC', 'NFD'),
			trailing: fc.constantFrom('', '.', ' ', '. ', ' .', '..'),
			lookAlike: fc.constantFrom('none', 'none', 'none', 'zero-width', 'full-width-dot'),
		})
		.map(({ cases, form, trailing, lookAlike }) => {
			let text = [...segment].map((char, i) => (cases[i] ? char.toUpperCase() : char)).join('');
			text = text.normalize(form as 'NFC' | 'NFD');
			if (segment === '.' || segment === '..') return { text: segment, same: true };
			if (lookAlike === 'zero-width') return { text: `${text}\u200b`, same: false };
			if (lookAlike === 'full-width-dot' && text.includes('.')) {
				return { text: text.replace('.', '\uff0e'), same: false };
			}
			return { text: text + trailing, same: true };
		});

interface Spelling {
	readonly path: string;
	/** Every segment is the same name to the policy. */
	readonly same: boolean;
	/** Only forward slashes and no absolute root: a spelling a POSIX shell reads the same way. */
	readonly posix: boolean;
}

/** A spelling of `base` with `.`/`..` detours, doubled separators, backslashes or the absolute root. */
const spelling = (base: string): fc.Arbitrary<Spelling> => {
	const segments = base.split('/');
	return fc
		.record({
			parts: fc.tuple(...segments.map(segmentSpelling)),
			detour: fc.constantFrom('', './', 'deploy/../', 'x/../', './/'),
			separator: fc.constantFrom('/', '//', '/./'),
			backslash: fc.boolean(),
			absolute: fc.boolean(),
		})
		.map(({ parts, detour, separator, backslash, absolute }) => {
			let path = detour + parts.map((part) => part.text).join(separator);
			const posix = !backslash && !absolute;
			if (backslash) path = path.replace(/\//g, '\\');
			if (absolute) path = `${root}/${path}`;
			return { path, same: parts.every((part) => part.same), posix };
		});
};

const secretSpelling = fc.constantFrom(...Object.keys(secretFiles)).chain(spelling);
const aliasSpelling = fc.constantFrom(...aliases).chain(spelling);
const anySpelling = fc.oneof(
	secretSpelling,
	aliasSpelling,
	fc.constantFrom(...Object.keys(plainFiles)).chain(spelling),
);

/** The file's content when the path reaches a regular file, else null. */
function contentAt(absolute: string): string | null {
	try {
		return statSync(absolute).isFile() ? readFileSync(absolute, 'utf8') : null;
	} catch {
		return null;
	}
}

describe('the secret policy over generated spellings', () => {
	it('every spelling the policy counts as the same name is secret, at any depth; plain names are not', () => {
		fc.assert(
			fc.property(secretSpelling, fc.constantFrom('', 'a/', 'node_modules/x/', '.venv/lib/'), (s, folder) => {
				fc.pre(s.same && s.posix);
				const normal = (folder + s.path).split('/').filter((part) => part !== '' && part !== '.');
				// `x/..` detours are folded by the path policy before the secret policy sees the path.
				const folded: string[] = [];
				for (const part of normal) {
					if (part === '..') folded.pop();
					else folded.push(part);
				}
				expect(policy.match(folded.join('/'))).not.toBeNull();
			}),
			{ numRuns: 500 },
		);
		fc.assert(
			fc.property(fc.constantFrom(...Object.keys(plainFiles)).chain(spelling), (s) => {
				fc.pre(s.same && s.posix && !s.path.includes('..'));
				expect(
					policy.match(
						s.path
							.split('/')
							.filter((p) => p !== '' && p !== '.')
							.join('/'),
					),
				).toBeNull();
			}),
			{ numRuns: 200 },
		);
	});

	it('read tools: a spelling of a secret name is refused; no spelling that is allowed reaches secret content', async () => {
		await fc.assert(
			fc.asyncProperty(anySpelling, async (s) => {
				const resolved = await workspace.resolve(s.path, 'read');
				if (resolved.ok) {
					expect(contentAt(resolved.absolute) ?? '').not.toContain('SECRET');
				}
			}),
			{ numRuns: 400 },
		);
		await fc.assert(
			fc.asyncProperty(fc.oneof(secretSpelling, aliasSpelling), async (s) => {
				fc.pre(s.same);
				const resolved = await workspace.resolve(s.path, 'read');
				// The exact names of links resolve to secrets; their case variants name nothing on ext4.
				const reaches = resolved.ok ? contentAt(resolved.absolute) : null;
				expect(reaches ?? '').not.toContain('SECRET');
			}),
			{ numRuns: 300 },
		);
		await fc.assert(
			fc.asyncProperty(secretSpelling, async (s) => {
				fc.pre(s.same);
				// Refused by name, whether or not the file system has a file by this spelling.
				expect((await workspace.resolve(s.path, 'read')).ok, s.path).toBe(false);
			}),
			{ numRuns: 300 },
		);
		// Every exact alias is refused (by identity: a symlink's target, a hard link's inode).
		for (const alias of aliases) expect((await workspace.resolve(alias, 'read')).ok, alias).toBe(false);
		for (const plain of Object.keys(plainFiles)) {
			expect((await workspace.resolve(plain, 'read')).ok).toBe(true);
		}
	});
});

const detection = process.platform === 'linux' ? await detectSandbox() : { sandbox: null };
const ripgrep = ripgrepOnPath(process.env) ?? undefined;

describe.runIf(detection.sandbox?.mode === 'bubblewrap')(
	'the scratch over generated spellings (real bubblewrap)',
	() => {
		const scratches: ScratchSpace[] = [];
		afterAll(async () => {
			await Promise.all(scratches.map((scratch) => scratch.dispose()));
		});

		/** `cat`s every path in one sandboxed command of the given scratch; returns the output. */
		async function catAll(scratch: ScratchSpace, paths: readonly string[]): Promise<string> {
			scratches.push(scratch);
			const tool = runCommandTool({
				timeoutMs: 20_000,
				maxOutputBytes: 1024 * 1024,
				parentEnv: { PATH: process.env['PATH'], HOME: '/nonexistent' },
				sandbox: detection.sandbox!,
				network: false,
				workspaceRoot: root,
				scratch: () => scratch,
			});
			const list = paths.join('\n');
			const command = `while IFS= read -r p; do cat -- "$p" 2>/dev/null; echo; done <<'LIST'\n${list}\nLIST`;
			const outcome = await tool.execute(
				{ command },
				{
					agentId: 'a',
					overlay: workspace.createOverlay(),
					phase: 'coordination',
					signal: new AbortController().signal,
				},
			);
			expect(outcome.isError, outcome.text).toBe(false);
			return outcome.text;
		}

		const samples = () => {
			const generated = fc.sample(anySpelling, { numRuns: 300, seed: 21 }).filter((s) => s.posix);
			// The exact names too: the controls must print, the aliases must not.
			return [
				...generated.map((s) => s.path),
				...Object.keys(secretFiles),
				...aliases,
				...Object.keys(plainFiles),
			];
		};
		const kinds = [
			[
				'copy',
				() =>
					new ScratchCopy({ workspaceRoot: root, label: 'prop', dependencies: 'mount', secretPaths: policy }),
			],
			...(detection.sandbox?.overlay && ripgrep
				? [
						[
							'overlay',
							() =>
								new OverlayScratch({
									workspaceRoot: root,
									label: 'prop',
									tools: detection.sandbox!.overlay!,
									ripgrep: ripgrep!,
									secretPaths: policy,
								}),
						] as const,
					]
				: []),
		] as const;

		it.each(kinds)(
			'%s: no generated spelling prints a secret; the plain files print',
			async (_kind, make) => {
				const output = await catAll(make(), samples());
				expect(output).not.toContain('SECRET');
				for (const content of Object.values(plainFiles)) expect(output).toContain(content);
			},
		);
	},
);

describe('file names a write may create, over generated names', () => {
	/** Controls, separators, surrogates and invisible format characters (`\p{Cc}`, `\p{Cf}`, `\p{Cs}`). */
	const unsafe = fc
		.integer({ min: 0, max: 0xe007f })
		.map((code) =>
			code >= 0xd800 && code <= 0xdfff ? String.fromCharCode(code) : String.fromCodePoint(code),
		)
		.filter((char) => /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/u.test(char));
	const plainSegment = fc.stringMatching(
		/^[A-Za-z0-9_\u00c0-\u024f\u4e00-\u4e2f-]([A-Za-z0-9_. -]{0,10}[A-Za-z0-9_])?$/,
	);
	const plainPath = fc.array(plainSegment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));

	it('an unsafe character anywhere in any segment refuses the write with its code point; reading is allowed', () => {
		fc.assert(
			fc.property(plainPath, unsafe, fc.nat(), (path, char, at) => {
				const position = at % (path.length + 1);
				const hostile = path.slice(0, position) + char + path.slice(position);
				fc.pre(!hostile.split('/').some((segment) => segment === '' || segment === '.' || segment === '..'));
				const code = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
				const reason = policyRefusal(hostile, hostile, 'write', []) ?? '';
				expect(reason).toContain(`has ${code} (`);
				expect(reason).not.toContain(char);
				expect(policyRefusal(hostile, hostile, 'read', [])).toBeNull();
			}),
			{ numRuns: 1000 },
		);
	});

	it('control: plain names (letters of several scripts, inner spaces and dots) are written', () => {
		fc.assert(
			fc.property(plainPath, (path) => {
				expect(policyRefusal(path, path, 'write', [])).toBeNull();
			}),
			{ numRuns: 500 },
		);
	});
});
