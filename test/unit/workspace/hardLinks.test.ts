/**
 * Hard links to secret files (the same file under another name) are secret: the read tools, the
 * write path and attachments refuse them by identity (dev+inode), at any depth; a file with
 * several names none of which is secret stays readable (control).
 */
import { linkSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AttachmentError } from '../../../src/core/context/attachment.js';
import { resolveAttachments } from '../../../src/core/context/resolveAttachments.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { scanSecrets } from '../../../src/core/workspace/secretScan.js';
import { builtinSecretPaths } from '../../../src/core/workspace/secretPaths.js';
import { makeTree, removeTrees } from '../../support/tempTree.js';

afterEach(removeTrees);

async function tree() {
	const root = await makeTree({
		'.env': 'TOKEN=hardlink-secret-1\n',
		'node_modules/pkg/.npmrc': '_authToken=hardlink-secret-2\n',
		'.ssh/id_x': 'hardlink-secret-3\n',
		'plain.txt': 'plain\n',
	});
	mkdirSync(join(root, 'docs'));
	linkSync(join(root, '.env'), join(root, 'notes.txt'));
	linkSync(join(root, 'node_modules/pkg/.npmrc'), join(root, 'docs/readme.md'));
	linkSync(join(root, '.ssh/id_x'), join(root, 'docs/key.txt'));
	linkSync(join(root, 'plain.txt'), join(root, 'docs/plain-copy.txt'));
	return root;
}

describe('hard links to secret files', () => {
	it('the secret walk finds every other name, also of files inside a secret folder and a dependency folder', async () => {
		const index = await scanSecrets(await tree(), builtinSecretPaths);
		expect([...index.hardLinks].sort()).toEqual(['docs/key.txt', 'docs/readme.md', 'notes.txt']);
		expect(index.secrets.map((entry) => entry.path).sort()).toEqual([
			'.env',
			'.ssh',
			'node_modules/pkg/.npmrc',
		]);
		expect(index.covers('docs/readme.md')).toBe(true);
		expect(index.covers('docs/plain-copy.txt')).toBe(false);
	});

	it('read and write refuse them; attachments too; another name of a plain file is fine', async () => {
		const workspace = await createWorkspace(await tree());
		for (const path of ['notes.txt', 'docs/readme.md', 'docs/key.txt', './docs//key.txt']) {
			for (const mode of ['read', 'write'] as const) {
				const resolved = await workspace.resolve(path, mode);
				expect(resolved.ok, `${mode} ${path}`).toBe(false);
				if (!resolved.ok) expect(resolved.reason).toContain('is a hard link to a secret file');
			}
		}
		expect((await workspace.resolve('docs/plain-copy.txt', 'read')).ok).toBe(true);
		const attached = await resolveAttachments([{ kind: 'path', path: 'notes.txt' }], workspace).catch(
			(error: unknown) => error,
		);
		expect(attached).toBeInstanceOf(AttachmentError);
		expect(String(attached)).toContain('hard link to a secret file');
		expect(String(attached)).not.toContain('hardlink-secret-1');
		const [plain] = await resolveAttachments([{ kind: 'path', path: 'docs/plain-copy.txt' }], workspace);
		expect(plain).toMatchObject({ kind: 'file' });
	});
});
