/**
 * A local process swaps a repository's `AGENTS.md` for a link to a file outside the workspace (a
 * private key) between the reader's checks and its open: the link's target must never be read.
 * The swapper is a real process renaming a prepared link and a prepared copy over the file as fast
 * as it can; the reader reads the file many times meanwhile (every read lands in one of the two
 * states or in the swap window).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readInstructionFile } from '../../../src/core/context/instructionFile.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { makeTree } from '../../support/tempTree.js';

const secret = 'PRIVATE KEY 5f1d… never for a model';
const stops: (() => void)[] = [];
afterEach(() => {
	for (const stop of stops.splice(0)) stop();
});

describe('readInstructionFile against a file swapped for a link mid-read', () => {
	it('never returns the text of the link target, however the swap falls', async () => {
		const outside = await makeTree({ id_rsa: secret });
		const root = await makeTree({ 'AGENTS.md': 'follow the style guide\n' });
		mkdirSync(join(root, 'stage'));
		writeFileSync(join(root, 'stage', 'copy'), 'follow the style guide\n');
		const workspace = await createWorkspace(root, {});
		// Swaps AGENTS.md between a regular file and a link out, with atomic renames, until killed.
		const script = `
			const fs = require('node:fs');
			const dir = ${JSON.stringify(root)};
			const target = ${JSON.stringify(join(outside, 'id_rsa'))};
			for (;;) {
				try { fs.unlinkSync(dir + '/stage/link'); } catch {}
				fs.symlinkSync(target, dir + '/stage/link');
				fs.renameSync(dir + '/stage/link', dir + '/AGENTS.md');
				fs.writeFileSync(dir + '/stage/copy', 'follow the style guide\\n');
				fs.renameSync(dir + '/stage/copy', dir + '/AGENTS.md');
			}`;
		const swapper = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
		stops.push(() => swapper.kill('SIGKILL'));
		const outcomes = { read: 0, refused: 0, absent: 0 };
		const leaked: string[] = [];
		for (let i = 0; i < 3_000; i++) {
			const read = await readInstructionFile(workspace, 'AGENTS.md', 4_096);
			outcomes[read.kind]++;
			if (read.kind === 'read' && read.text.includes('PRIVATE KEY')) leaked.push(read.text);
		}
		swapper.kill('SIGKILL');
		// Both states were seen: the swapper really raced the reader.
		expect(outcomes.read).toBeGreaterThan(0);
		expect(outcomes.refused).toBeGreaterThan(0);
		expect(leaked).toEqual([]);
	}, 60_000);
});
