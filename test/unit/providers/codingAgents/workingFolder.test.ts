import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkingFolder } from '../../../../src/core/providers/codingAgents/workingFolder.js';
import { createWorkspace } from '../../../../src/core/workspace/createWorkspace.js';
import { makeWorkspaceDir } from '../../../fakes/team.js';

describe("a coding agent's working folder", () => {
	const folders: WorkingFolder[] = [];
	afterEach(async () => {
		for (const folder of folders.splice(0)) await folder.dispose();
	});

	async function setUp(files: Record<string, string>) {
		const root = makeWorkspaceDir(files);
		const workspace = await createWorkspace(root);
		const overlay = workspace.createOverlay();
		const folder = new WorkingFolder(root, 'test', overlay);
		folders.push(folder);
		return { root, overlay, folder };
	}

	it("shows the overlay's edits over the workspace, leaves secrets out, and reports what the CLI changed", async () => {
		const { root, overlay, folder } = await setUp({ 'a.txt': 'a\n', 'b.txt': 'b\n', '.env': 'KEY=1\n' });
		await overlay.write('a.txt', 'edited\n');
		const dir = await folder.prepare(overlay);
		expect(dir).not.toBe(root);
		expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('edited\n');
		expect(existsSync(join(dir, '.env'))).toBe(false);
		expect(await folder.diff()).toEqual({ edits: [], skipped: [] });

		writeFileSync(join(dir, 'b.txt'), 'changed\n');
		mkdirSync(join(dir, 'src'));
		writeFileSync(join(dir, 'src', 'new.ts'), 'export {};\n');
		writeFileSync(join(dir, 'blob.bin'), Buffer.from([0xff, 0xfe, 0x00]));
		rmSync(join(dir, 'a.txt'));
		const diff = await folder.diff();
		expect([...diff.edits].sort((x, y) => x.path.localeCompare(y.path))).toEqual([
			{ path: 'a.txt', content: null },
			{ path: 'b.txt', content: 'changed\n' },
			{ path: 'src/new.ts', content: 'export {};\n' },
		]);
		expect(diff.skipped).toEqual(['blob.bin']);
		// The workspace itself never changes.
		expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a\n');
		expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('b\n');
	});

	it('puts a refused change back as the overlay sees the file (restored, or removed when new)', async () => {
		const { overlay, folder } = await setUp({ 'a.txt': 'a\n' });
		const dir = await folder.prepare(overlay);
		writeFileSync(join(dir, 'a.txt'), 'refused\n');
		writeFileSync(join(dir, 'new.txt'), 'refused\n');
		await folder.revert('a.txt', overlay);
		await folder.revert('new.txt', overlay);
		await folder.revert('../outside.txt', overlay);
		expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('a\n');
		expect(existsSync(join(dir, 'new.txt'))).toBe(false);
		await folder.prepare(overlay);
		expect(await folder.diff()).toEqual({ edits: [], skipped: [] });
		// A rewrite of the same size right away is still seen (a file is re-read when its ctime moves).
		writeFileSync(join(dir, 'a.txt'), 'z\n');
		expect(await folder.diff()).toEqual({ edits: [{ path: 'a.txt', content: 'z\n' }], skipped: [] });
	});
});
