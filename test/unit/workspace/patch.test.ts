import { execFileSync, spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { formatPatch } from '../../../src/core/workspace/patch.js';
import { makeTree, removeTrees } from '../../support/tempTree.js';

afterEach(removeTrees);

const lines = (count: number, prefix: string) =>
	Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`).join('\n');

describe('formatPatch', () => {
	it('produces a diff that real `git apply` accepts and applies exactly', async () => {
		const root = await makeTree({
			'src/main.ts': `${lines(30, 'line')}\n`,
			'no-newline.txt': 'first\nsecond',
			'gone.txt': 'bye\n',
			'gone-empty.txt': '',
			'spaced name.md': 'old\n',
			'crlf.txt': 'one\r\ntwo\r\n',
		});
		execFileSync('git', ['init', '-q'], { cwd: root });
		const workspace = await createWorkspace(root);
		const overlay = workspace.createOverlay();
		const edited = `${lines(30, 'line').replace('line 3\n', 'line three\n').replace('line 27\n', '')}\n`;
		await overlay.write('src/main.ts', edited);
		await overlay.write('no-newline.txt', 'first\nsecond changed');
		await overlay.write('nested/deeper/new.ts', 'export {};\n');
		await overlay.write('nested/no-eol.txt', 'tail');
		await overlay.write('empty.txt', '');
		await overlay.write('spaced name.md', 'new\n');
		await overlay.write('crlf.txt', 'one\r\n2\r\n');
		await overlay.delete('gone.txt');
		await overlay.delete('gone-empty.txt');
		const changes = await overlay.changes();
		const patch = formatPatch(changes);

		expect(patch).toContain(
			'diff --git a/src/main.ts b/src/main.ts\n--- a/src/main.ts\n+++ b/src/main.ts\n@@',
		);
		expect(patch).toContain(
			'diff --git a/nested/deeper/new.ts b/nested/deeper/new.ts\nnew file mode 100644\n--- /dev/null\n+++ b/nested/deeper/new.ts\n',
		);
		expect(patch).toContain(
			'diff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\n--- a/gone.txt\n+++ /dev/null\n',
		);
		expect(patch).toContain('diff --git a/empty.txt b/empty.txt\nnew file mode 100644\n');
		expect(patch).toContain('\\ No newline at end of file');

		const patchFile = join(await makeTree(), 'changes.patch');
		await writeFile(patchFile, patch);
		const check = spawnSync('git', ['apply', '--check', patchFile], { cwd: root, encoding: 'utf8' });
		expect(check.stderr).toBe('');
		expect(check.status).toBe(0);
		execFileSync('git', ['apply', patchFile], { cwd: root });

		for (const change of changes) {
			const onDisk = await readFile(join(root, change.path), 'utf8').catch(() => null);
			expect(onDisk, change.path).toBe(change.content);
		}
	});

	it("diffs against the run snapshot's base, not against what the disk holds when the run ends", async () => {
		const base = `${lines(12, 'line')}\n`;
		const root = await makeTree({ 'notes.txt': base });
		execFileSync('git', ['init', '-q'], { cwd: root });
		const overlay = (await createWorkspace(root)).createOverlay();
		await overlay.write('notes.txt', base.replace('line 1\n', 'line one\n'));
		// The user saves an edit after the team read the file.
		await writeFile(join(root, 'notes.txt'), base.replace('line 9\n', 'line nine\n'));
		const patch = formatPatch(await overlay.changes());
		expect(patch).toContain('-line 1\n+line one\n');
		expect(patch).not.toContain('line nine');

		await writeFile(join(root, 'notes.txt'), base);
		const patchFile = join(await makeTree(), 'changes.patch');
		await writeFile(patchFile, patch);
		execFileSync('git', ['apply', patchFile], { cwd: root });
		expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe(base.replace('line 1\n', 'line one\n'));
	});

	it('is empty for an empty change set', () => {
		expect(formatPatch([])).toBe('');
	});
});
