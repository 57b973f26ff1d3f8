import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attachmentRecord, AttachmentError, type Attachment } from '../../../src/core/context/attachment.js';
import { resolveAttachments } from '../../../src/core/context/resolveAttachments.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { secretPaths } from '../../../src/core/workspace/secretPaths.js';
import { makeWorkspaceDir } from '../../fakes/team.js';

const png = Buffer.concat([
	Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
	Buffer.alloc(64, 7),
]);
const secret = 'sk-live-attach-0123456789abcdef';

async function resolve(files: Record<string, string>, ...requests: Parameters<typeof resolveAttachments>[0]) {
	const root = makeWorkspaceDir(files);
	return resolveAttachments(requests, await createWorkspace(root));
}

async function refusal(promise: Promise<unknown>): Promise<string> {
	const error = await promise.then(
		() => undefined,
		(caught: unknown) => caught,
	);
	expect(error).toBeInstanceOf(AttachmentError);
	return (error as Error).message;
}

function textOf(attachment: Attachment): string {
	if (attachment.kind === 'image') throw new Error('an image has no text');
	return attachment.text;
}

describe('resolveAttachments', () => {
	it('reads a file, a selection of it, a folder listing and the text a shell holds', async () => {
		const [file, selection, folder, text, terminal, problems] = await resolve(
			{
				'src/a.ts': 'line 1\nline 2\nline 3\nline 4\n',
				'src/b.ts': 'export {};\n',
				'src/.gitignore': 'gen/\n',
				'src/gen/out.js': 'generated\n',
				'src/.env': `KEY=${secret}\n`,
			},
			{ kind: 'path', path: 'src/a.ts' },
			{ kind: 'file', path: 'src/a.ts', range: { start: 2, end: 3 } },
			{ kind: 'path', path: 'src' },
			{ kind: 'text', source: 'stdin', text: 'piped words' },
			{ kind: 'terminal', source: 'bash', text: '$ npm test\n1 failed' },
			{
				kind: 'diagnostics',
				path: 'src/a.ts',
				items: [{ range: { start: 2, end: 2, column: 5 }, severity: 'error', message: 'bad', source: 'ts' }],
			},
		);
		expect(file).toMatchObject({ kind: 'file', path: 'src/a.ts', text: 'line 1\nline 2\nline 3\nline 4\n' });
		expect(selection).toMatchObject({ kind: 'file', range: { start: 2, end: 3 }, text: 'line 2\nline 3' });
		// The tools' walk: .gitignore'd folders and secret files are not listed.
		expect(textOf(folder!).split('\n').sort()).toEqual(['src/.gitignore', 'src/a.ts', 'src/b.ts']);
		expect(text).toEqual({ kind: 'text', source: 'stdin', text: 'piped words' });
		expect(terminal).toMatchObject({ kind: 'terminal', source: 'bash', text: '$ npm test\n1 failed' });
		expect(textOf(problems!)).toBe('src/a.ts:2:5: error: bad (ts)');
	});

	it('refuses secret paths, repository internals, run data, escapes and missing files by name', async () => {
		const root = makeWorkspaceDir({
			'.env.local': `KEY=${secret}\n`,
			'deploy/id_rsa': secret,
			'.git/config': '[core]\n',
			'.massgen/config.yaml': 'agents: []\n',
			'conf/prod.yaml': secret,
		});
		const workspace = await createWorkspace(root, { secretPaths: secretPaths(['conf/prod.yaml']) });
		const one = (path: string) => refusal(resolveAttachments([{ kind: 'path', path }], workspace));
		expect(await one('.env.local')).toMatch(/cannot attach '.env.local': .*secret path \(matches '.env\*'\)/);
		expect(await one(join(root, 'deploy/id_rsa'))).toMatch(/secret path/);
		expect(await one('conf/prod.yaml')).toMatch(/secret path \(matches 'conf\/prod.yaml'\)/);
		expect(await one('.git/config')).toMatch(/inside .git\//);
		expect(await one('.massgen/config.yaml')).toMatch(/inside .massgen\//);
		expect(await one('../outside.txt')).toMatch(/outside the workspace/);
		expect(await one('nope.ts')).toBe("cannot attach 'nope.ts': no such file or folder");
		const diagnostics = resolveAttachments(
			[{ kind: 'diagnostics', path: '.env.local', items: [] }],
			workspace,
		);
		expect(await refusal(diagnostics)).toMatch(/secret path/);
	});

	it('refuses a link that leads to a secret file, and lists no secret file in a folder', async () => {
		const root = makeWorkspaceDir({ '.env': `KEY=${secret}\n`, 'docs/readme.md': 'hi\n' });
		symlinkSync('../.env', join(root, 'docs/settings.txt'));
		const workspace = await createWorkspace(root);
		const message = await refusal(
			resolveAttachments([{ kind: 'path', path: 'docs/settings.txt' }], workspace),
		);
		expect(message).toMatch(/secret path .*via a symlink to '.env'/);
		const [listing] = await resolveAttachments([{ kind: 'path', path: '.' }], workspace);
		expect(textOf(listing!)).not.toMatch(/\.env|settings\.txt/);
		expect(textOf(listing!)).toContain('docs/readme.md');
	});

	it('cuts text to the cap per attachment and to the total, saying so', async () => {
		const root = makeWorkspaceDir({ 'big.txt': 'x'.repeat(3000), 'small.txt': 'y'.repeat(800) });
		const workspace = await createWorkspace(root);
		const [big, small, late] = await resolveAttachments(
			[
				{ kind: 'path', path: 'big.txt' },
				{ kind: 'path', path: 'small.txt' },
				{ kind: 'text', source: 'stdin', text: 'z'.repeat(10) },
			],
			workspace,
			{ limits: { perAttachmentBytes: 1024, totalBytes: 1500 } },
		);
		expect(textOf(big!)).toBe('x'.repeat(1024));
		expect(big).toMatchObject({
			truncated: '[truncated: the first 1 KiB of 2.9 KiB; the cap per attachment is 1 KiB]',
		});
		expect(textOf(small!)).toBe('y'.repeat(476));
		expect(small).toMatchObject({
			truncated: expect.stringContaining('the 1.5 KiB cap for all attachments is reached'),
		});
		expect(textOf(late!)).toBe('');
		expect(attachmentRecord(big!)).toMatchObject({
			kind: 'file',
			source: 'big.txt',
			bytes: 1024,
			truncated: true,
		});
	});

	it('keeps a multi-byte character whole when it cuts', async () => {
		const [cut] = await resolveAttachments(
			[{ kind: 'text', source: 'stdin', text: 'ab€€' }],
			await createWorkspace(makeWorkspaceDir()),
			{ limits: { perAttachmentBytes: 4 } },
		);
		expect(textOf(cut!)).toBe('ab');
	});

	it('attaches images by their bytes and refuses one over the cap, a fake one and other binaries', async () => {
		const root = makeWorkspaceDir();
		writeFileSync(join(root, 'shot.png'), png);
		writeFileSync(join(root, 'renamed.bin'), png);
		writeFileSync(join(root, 'fake.png'), 'not an image');
		writeFileSync(join(root, 'blob.dat'), Buffer.from([1, 0, 2, 0]));
		const workspace = await createWorkspace(root);
		const [shot, renamed, pasted] = await resolveAttachments(
			[
				{ kind: 'path', path: 'shot.png' },
				{ kind: 'path', path: 'renamed.bin' },
				{ kind: 'image', path: 'clipboard', data: png },
			],
			workspace,
		);
		expect(shot).toMatchObject({ kind: 'image', path: 'shot.png', mediaType: 'image/png' });
		expect(Buffer.from((shot as { data: Uint8Array }).data).equals(png)).toBe(true);
		expect(renamed).toMatchObject({ kind: 'image', mediaType: 'image/png' });
		expect(pasted).toMatchObject({ kind: 'image', path: 'clipboard' });
		expect(attachmentRecord(shot!)).toMatchObject({ bytes: png.byteLength, mediaType: 'image/png' });
		const one = (path: string, imageBytes?: number) =>
			refusal(
				resolveAttachments([{ kind: 'path', path }], workspace, {
					limits: { imageBytes: imageBytes ?? 1e6 },
				}),
			);
		expect(await one('shot.png', 50)).toBe(
			"cannot attach 'shot.png': the image is 72 B, over the 50 B cap for an image",
		);
		expect(await one('fake.png')).toBe("cannot attach 'fake.png': not a PNG, JPEG, GIF or WebP image");
		expect(await one('blob.dat')).toMatch(/a binary file/);
	});

	it('refuses a selection past the end of the file', async () => {
		const workspace = await createWorkspace(makeWorkspaceDir({ 'a.ts': 'one\ntwo\n' }));
		const request = { kind: 'file' as const, path: 'a.ts', range: { start: 5, end: 6 } };
		expect(await refusal(resolveAttachments([request], workspace))).toBe(
			"cannot attach 'a.ts': it has 2 line(s), the selection starts at 5",
		);
	});
});

describe('git diff attachments', () => {
	function repo(): string {
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n', '.env': 'KEY=old\n', 'b.ts': 'b\n' });
		const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'pipe' });
		git('init', '-q');
		git('add', '.');
		git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'base');
		writeFileSync(join(root, 'a.ts'), 'export const a = 2;\n');
		writeFileSync(join(root, '.env'), `KEY=${secret}\n`);
		writeFileSync(join(root, 'b.ts'), 'b staged\n');
		git('add', 'b.ts');
		return root;
	}

	it('holds the working tree hunks and leaves secret files out by name', async () => {
		const root = repo();
		const [diff] = await resolveAttachments(
			[{ kind: 'diff', source: 'working-tree' }],
			await createWorkspace(root),
		);
		const text = textOf(diff!);
		expect(text).toContain('-export const a = 1;\n+export const a = 2;');
		expect(text).toContain("[left out .env: refused: '.env' is a secret path");
		expect(text).not.toContain(secret);
		expect(text).not.toContain('b staged');
	});

	it('reads the index for staged, and says when there is nothing', async () => {
		const root = repo();
		const workspace = await createWorkspace(root);
		const [staged] = await resolveAttachments([{ kind: 'diff', source: 'staged' }], workspace);
		expect(textOf(staged!)).toContain('+b staged');
		expect(textOf(staged!)).not.toContain('export const a = 2');
		execFileSync('git', ['reset', '-q'], { cwd: root });
		const [none] = await resolveAttachments([{ kind: 'diff', source: 'staged' }], workspace);
		expect(textOf(none!)).toBe('(nothing is staged)');
	});

	it('keeps to a workspace that is a subfolder of the repository, with paths relative to it', async () => {
		const root = repo();
		mkdirSync(join(root, 'pkg'));
		writeFileSync(join(root, 'pkg/c.ts'), 'c\n');
		execFileSync('git', ['add', 'pkg'], { cwd: root });
		execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'c'], { cwd: root });
		writeFileSync(join(root, 'pkg/c.ts'), 'c changed\n');
		const [diff] = await resolveAttachments(
			[{ kind: 'diff', source: 'working-tree' }],
			await createWorkspace(join(root, 'pkg')),
		);
		expect(textOf(diff!)).toContain('+++ b/c.ts');
		expect(textOf(diff!)).not.toContain('a.ts');
	});

	it('is a clear error outside a repository', async () => {
		const root = makeWorkspaceDir({ 'a.ts': 'x\n' });
		const message = await refusal(
			resolveAttachments([{ kind: 'diff', source: 'working-tree' }], await createWorkspace(root)),
		);
		expect(message).toMatch(/^cannot attach the git diff: '.*' is not in a git repository$/);
	});
});
