// In-host: what the change review reads of a workspace file, through VS Code's file system, on odd
// files a repository or a build can leave at an accepted path: a FIFO is refused with a reason (a
// read would wait for a writer forever and hold one of the extension host's I/O threads).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { readCurrent } from '../../src/vscode/changes/workspaceFiles';

describe('readCurrent on odd files (in VS Code)', function () {
	this.timeout(20_000);
	const dir = mkdtempSync(join(tmpdir(), 'massgen-odd-'));
	after(() => rmSync(dir, { recursive: true, force: true }));

	it('reads a regular file, says null for a missing one, and refuses a FIFO without waiting', async () => {
		writeFileSync(join(dir, 'plain.txt'), 'text\n');
		assert.deepEqual(await readCurrent(vscode.Uri.file(join(dir, 'plain.txt'))), {
			text: 'text\n',
			dirty: false,
		});
		assert.deepEqual(await readCurrent(vscode.Uri.file(join(dir, 'missing.txt'))), {
			text: null,
			dirty: false,
		});
		execFileSync('mkfifo', [join(dir, 'pipe.txt')]);
		await assert.rejects(readCurrent(vscode.Uri.file(join(dir, 'pipe.txt'))), /not a regular file/);
	});
});
