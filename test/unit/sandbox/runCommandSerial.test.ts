/**
 * `run_command` through the tool itself, on real bubblewrap: a cancelled call returns at once,
 * but the agent's next call waits until the cancelled command's sandbox is gone, so no command
 * is still running while the overlay is written into the copy.
 */
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../../src/core/exec/sandbox/detectSandbox.js';
import { ScratchCopy } from '../../../src/core/exec/commandScratch.js';
import { runCommandTool } from '../../../src/core/tools/runCommandTool.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { waitFor } from '../../support/waitFor.js';

const detection = process.platform === 'linux' ? await detectSandbox() : { sandbox: null };
const copies: ScratchCopy[] = [];
afterAll(() => Promise.all(copies.map((copy) => copy.dispose())));

describe.runIf(detection.sandbox !== null)('run_command (the tool, real bubblewrap)', () => {
	it('runs one command of an agent at a time, even after a cancel', async () => {
		const root = makeWorkspaceDir({ 'README.md': '# x\n' });
		const workspace = await createWorkspace(root);
		const overlay = workspace.createOverlay();
		const copy = new ScratchCopy({ workspaceRoot: root, label: 'serial', dependencies: 'mount' });
		copies.push(copy);
		const tool = runCommandTool({
			timeoutMs: 20_000,
			maxOutputBytes: 64 * 1024,
			parentEnv: { PATH: process.env['PATH'], HOME: tmpdir() },
			sandbox: detection.sandbox!,
			network: false,
			workspaceRoot: root,
			scratch: () => copy,
		});
		const context = (signal: AbortSignal) => ({
			agentId: 'a',
			overlay,
			phase: 'coordination' as const,
			signal,
		});
		const first = new AbortController();
		// The first command notes when it started, then sleeps until cancelled; the second notes when it starts.
		const slow = tool.execute({ command: 'date +%s%N > started.txt; sleep 5' }, context(first.signal));
		// Asked while the first still runs: it must wait for the first's sandbox to be gone.
		const second = tool.execute(
			{ command: 'cat started.txt; date +%s%N' },
			context(new AbortController().signal),
		);
		// Cancelled once it has surely started (a loaded machine can take long to start bubblewrap).
		// The shell creates the file before `date` writes to it: wait for the whole line.
		const started = () => {
			const file = copy.dir === undefined ? undefined : join(copy.dir, 'started.txt');
			return file !== undefined && existsSync(file) && readFileSync(file, 'utf8').endsWith('\n');
		};
		await waitFor(started, 'the first command to start');
		const cancelledAt = Date.now();
		first.abort();
		expect((await slow).text).toMatch(/^cancelled/);
		const outcome = await second;
		expect(outcome).toMatchObject({ isError: false });
		const [startedFirst, startedSecond] = outcome.text
			.split('\n')
			.slice(1)
			.map((line) => Number(line) / 1e6);
		// `Date.now()` is whole milliseconds (floored): the first may have started within that one.
		expect(startedFirst).toBeLessThan(cancelledAt + 1);
		// The same wall clock: the second started only after the cancel, not beside the first.
		expect(startedSecond).toBeGreaterThanOrEqual(cancelledAt);
	});
});
