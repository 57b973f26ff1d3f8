/**
 * The project's instruction files as a hostile repository may lay them out: which files are used
 * for which files in play, and what is refused (links, FIFOs, secret paths, binary, huge) without
 * being read or waited on.
 */
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesInPlay, pathWords } from '../../../src/core/context/filesInPlay.js';
import { decode } from '../../../src/core/context/instructionFile.js';
import { applies, parseFrontmatter } from '../../../src/core/context/instructionFrontmatter.js';
import { instructionsSection } from '../../../src/core/context/instructionsSection.js';
import {
	instructionRecord,
	readProjectInstructions,
	type InPlay,
} from '../../../src/core/context/projectInstructions.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { secretPaths } from '../../../src/core/workspace/secretPaths.js';
import { makeTree } from '../../support/tempTree.js';

const file = (path: string): InPlay => ({ path, folder: false });

async function read(
	files: Record<string, string | Uint8Array>,
	inPlay: InPlay[] = [],
	extraSecrets: string[] = [],
) {
	const root = await makeTree(files);
	const workspace = await createWorkspace(root, { secretPaths: secretPaths(extraSecrets) });
	return { root, workspace, instructions: await readProjectInstructions(workspace, inPlay) };
}

describe('readProjectInstructions', () => {
	it('reads the root files in a fixed order, front matter of .instructions.md left out', async () => {
		const { instructions } = await read({
			'.cursorrules': 'cursor rule\n',
			'CLAUDE.md': 'claude rule\n',
			'AGENTS.md': 'agents rule\n',
			'.github/copilot-instructions.md': 'copilot rule\n',
			'.github/instructions/all.instructions.md': '---\napplyTo: "**"\n---\neverywhere rule\n',
		});
		expect(instructions.files.map((f) => [f.path, f.text])).toEqual([
			['AGENTS.md', 'agents rule\n'],
			['CLAUDE.md', 'claude rule\n'],
			['.github/copilot-instructions.md', 'copilot rule\n'],
			['.github/instructions/all.instructions.md', 'everywhere rule\n'],
			['.cursorrules', 'cursor rule\n'],
		]);
		expect(instructions.skipped).toEqual([]);
	});

	it('uses a nested AGENTS.md only when a file below it is in play, the nearest one only', async () => {
		const tree = {
			'AGENTS.md': 'root\n',
			'pkg/AGENTS.md': 'pkg\n',
			'pkg/deep/AGENTS.md': 'deep\n',
			'pkg/deep/x/y.ts': '',
			'pkg/z.ts': '',
			'other/w.ts': '',
		};
		const none = await read(tree);
		expect(none.instructions.files.map((f) => f.path)).toEqual(['AGENTS.md']);
		const deep = await read(tree, [file('pkg/deep/x/y.ts')]);
		expect(deep.instructions.files.map((f) => f.path)).toEqual(['AGENTS.md', 'pkg/deep/AGENTS.md']);
		const both = await read(tree, [file('pkg/z.ts'), file('other/w.ts'), { path: 'pkg/deep', folder: true }]);
		expect(both.instructions.files.map((f) => f.path)).toEqual([
			'AGENTS.md',
			'pkg/AGENTS.md',
			'pkg/deep/AGENTS.md',
		]);
	});

	it('uses an .instructions.md only when its applyTo matches a file in play', async () => {
		const tree = {
			'.github/instructions/ts.instructions.md': '---\napplyTo: "**/*.ts, docs/{a,b}.md"\n---\nts rule\n',
			'.github/instructions/none.instructions.md': 'no front matter: never applies\n',
			'.github/instructions/README.md': '---\napplyTo: "**"\n---\nnot an instructions file\n',
		};
		expect((await read(tree, [file('src/a.py')])).instructions.files).toEqual([]);
		const ts = await read(tree, [file('src/a.ts')]);
		expect(ts.instructions.files.map((f) => [f.path, f.text])).toEqual([
			['.github/instructions/ts.instructions.md', 'ts rule\n'],
		]);
		expect((await read(tree, [file('docs/b.md')])).instructions.files).toHaveLength(1);
	});

	it('never reads a secret path named as an instructions file, nor a link to one or out of the workspace', async () => {
		const outside = await makeTree({ 'rules.md': 'OUTSIDE-BYTES\n' });
		const root = await makeTree({ '.env': 'KEY=SECRET-BYTES\n', 'CLAUDE.md': 'claude SECRET-NAMED\n' });
		symlinkSync('.env', join(root, 'AGENTS.md'));
		symlinkSync(join(outside, 'rules.md'), join(root, '.cursorrules'));
		symlinkSync('README.md', join(root, '.github-missing'));
		const workspace = await createWorkspace(root, { secretPaths: secretPaths(['CLAUDE.md']) });
		const instructions = await readProjectInstructions(workspace, []);
		expect(instructions.files).toEqual([]);
		const reasons = instructions.skipped.map((s) => s.reason).join('\n');
		expect(reasons).toMatch(/'AGENTS\.md'.*secret/);
		expect(reasons).toMatch(/'CLAUDE\.md' is a secret path/);
		expect(reasons).toMatch(/'\.cursorrules' resolves outside the workspace through a symlink/);
		expect(JSON.stringify(instructions)).not.toMatch(/SECRET-BYTES|OUTSIDE-BYTES|SECRET-NAMED/);
	});

	it('refuses a link inside the workspace, a FIFO and a folder without opening them', async () => {
		const root = await makeTree({ 'real.md': 'linked rule\n', 'CLAUDE.md/inner': '' });
		symlinkSync('real.md', join(root, 'AGENTS.md'));
		execFileSync('mkfifo', [join(root, '.cursorrules')]);
		mkdirSync(join(root, '.github'));
		execFileSync('mkfifo', [join(root, '.github/copilot-instructions.md')]);
		const workspace = await createWorkspace(root);
		// A FIFO opened for reading would block until a writer comes: this resolves at once.
		const instructions = await readProjectInstructions(workspace, []);
		expect(instructions.files).toEqual([]);
		expect(instructions.skipped.map((s) => s.reason)).toEqual([
			"'AGENTS.md' is a symbolic link: instruction files are read only as regular files",
			"'CLAUDE.md' is a folder: instruction files are read only as regular files",
			"'.github/copilot-instructions.md' is a FIFO (named pipe): instruction files are read only as regular files",
			"'.cursorrules' is a FIFO (named pipe): instruction files are read only as regular files",
		]);
	});

	it('refuses a hard link to a secret, a linked instructions folder and a linked parent folder', async () => {
		const outside = await makeTree({
			'x.instructions.md': '---\napplyTo: "**"\n---\nOUTSIDE-RULE\n',
			'AGENTS.md': 'OUTSIDE-NESTED\n',
		});
		const root = await makeTree({ '.env': 'KEY=HARDLINK-SECRET\n', 'src/a.ts': '' });
		linkSync(join(root, '.env'), join(root, 'AGENTS.md'));
		mkdirSync(join(root, '.github'));
		symlinkSync(outside, join(root, '.github/instructions'));
		symlinkSync(outside, join(root, 'vendor'));
		const workspace = await createWorkspace(root);
		const instructions = await readProjectInstructions(workspace, [file('src/a.ts'), file('vendor/lib.ts')]);
		expect(instructions.files).toEqual([]);
		const reasons = instructions.skipped.map((s) => s.reason).join('\n');
		expect(reasons).toContain("'AGENTS.md' is a hard link to a secret file");
		expect(reasons).toContain("'.github/instructions' resolves outside the workspace through a symlink");
		expect(reasons).toContain("'vendor/AGENTS.md' resolves outside the workspace through a symlink");
		expect(JSON.stringify(instructions)).not.toMatch(/HARDLINK-SECRET|OUTSIDE-RULE|OUTSIDE-NESTED/);
	});

	it('looks at no more than 16 .instructions.md files, however many the folder holds', async () => {
		const many = Object.fromEntries(
			Array.from({ length: 40 }, (_, i) => [
				`.github/instructions/r${String(i).padStart(2, '0')}.instructions.md`,
				`---\napplyTo: "**"\n---\nrule ${i}\n`,
			]),
		);
		const { instructions } = await read(many);
		expect(instructions.files).toHaveLength(16);
		expect(instructions.files.at(-1)!.path).toBe('.github/instructions/r15.instructions.md');
	});

	it('cuts a huge file to the cap per file and the rest to the total, and refuses binary text', async () => {
		const huge = 'a'.repeat(5 * 1024 * 1024);
		const { instructions } = await read({
			'AGENTS.md': huge,
			'CLAUDE.md': 'b'.repeat(40 * 1024),
			'.github/copilot-instructions.md': 'c',
		});
		const [agents, claude] = instructions.files;
		expect(agents!.truncated).toBe(true);
		expect(agents!.text).toMatch(
			/^a{32768}\n\[truncated: the first 32 KiB of 5 MiB; the cap per instruction file is 32 KiB\]$/,
		);
		expect(claude!.text).toMatch(
			/^b{32768}\n\[truncated: the first 32 KiB of 40 KiB; the cap per instruction file is 32 KiB\]$/,
		);
		expect(instructions.files).toHaveLength(2);
		expect(instructions.skipped.map((s) => s.reason)).toEqual([
			"'.github/copilot-instructions.md' left out: the 64 KiB cap for all instruction files is reached",
		]);
		expect(instructionRecord(agents!)).toMatchObject({ path: 'AGENTS.md', truncated: true });
		const binary = await read({ '.cursorrules': Buffer.from([0x50, 0x00, 0x4b, 0x03]) });
		expect(binary.instructions.skipped.map((s) => s.reason)).toEqual([
			"'.cursorrules' is not UTF-8 text (binary or another encoding): it is not used",
		]);
	});

	it('decodes UTF-8 with or without a BOM and UTF-16 with one; refuses invalid UTF-8', () => {
		expect(decode(Buffer.from('\uFEFFrègle\n', 'utf8'), false)).toBe('règle\n');
		expect(decode(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('rule', 'utf16le')]), false)).toBe(
			'rule',
		);
		expect(decode(Buffer.from([0x61, 0xff, 0x62]), false)).toBeNull();
		// A cut inside a character: the partial character is dropped, not refused.
		expect(decode(Buffer.from('aé', 'utf8').subarray(0, 2), true)).toBe('a');
	});

	it('renders the same section bytes for the same files', async () => {
		const { instructions } = await read({ 'AGENTS.md': 'Use tabs.' });
		const section = instructionsSection(instructions);
		expect(section).toBe(instructionsSection(instructions));
		expect(section).toContain('<instructions source="AGENTS.md">\nUse tabs.\n</instructions>');
		expect(instructionsSection({ files: [], skipped: [] })).toBe('');
	});
});

describe('files in play', () => {
	it('takes attachments and the question words that name existing files or folders', async () => {
		const root = await makeTree({ 'src/app.ts': '', 'docs/guide.md': '', '.env': 'K=v' });
		writeFileSync(join(root, 'plain'), '');
		const workspace = await createWorkspace(root);
		const found = await filesInPlay(
			'Fix src/app.ts and the docs/ folder, see missing/x.ts, .env and https://example.com/a.js.',
			[{ kind: 'file', path: 'lib/b.ts', text: '' }],
			workspace,
		);
		expect(found).toEqual([
			{ path: 'lib/b.ts', folder: false },
			{ path: 'src/app.ts', folder: false },
			{ path: 'docs', folder: true },
		]);
		expect(pathWords('see `a/b.ts`, c.md.')).toEqual(['a/b.ts', 'c.md']);
	});

	it('applyTo globs: ** applies always, none never, a bad class never', () => {
		expect(applies(['**'], [])).toBe(true);
		expect(applies([], ['a.ts'])).toBe(false);
		expect(applies(['[z-a].ts'], ['a.ts'])).toBe(false);
		expect(parseFrontmatter('---\napplyTo: src/**\n---\nbody').applyTo).toEqual(['src/**']);
	});
});
