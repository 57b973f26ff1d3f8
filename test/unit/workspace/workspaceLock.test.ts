/**
 * The workspace lock with an injected clock and process table (no sleeps): a live owner is waited
 * for and never taken over, a dead one (or a reused pid) at once, a foreign host's is waited for,
 * a torn lock file after its grace; and a lock left by a really killed process is taken over.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
	acquireWorkspaceLock,
	defaultLockDir,
	type LockClock,
	type LockOptions,
	WorkspaceLockedError,
	withWorkspaceLock,
} from '../../../src/core/workspace/workspaceLock.js';
import { hostProcesses, type ProcessTable } from '../../../src/core/util/processLiveness.js';
import { makeTree, removeTrees } from '../../support/tempTree.js';

afterEach(removeTrees);

/** A clock whose sleep advances time and runs `onSleep` (the test's way to act while a caller waits). */
function fakeClock(onSleep: (now: number) => void | Promise<void> = () => undefined) {
	// Starts at the real time: lock files carry real mtimes.
	let now = Date.now();
	const sleeps: number[] = [];
	const clock: LockClock = {
		now: () => now,
		sleep: async (ms) => {
			sleeps.push(ms);
			now += ms;
			await onSleep(now);
		},
	};
	return { clock, sleeps };
}

function processes(alive: Record<number, string | null>): ProcessTable {
	return {
		alive: (pid) => pid in alive,
		startOf: (pid) => alive[pid] ?? null,
	};
}

async function setup() {
	const root = await makeTree({ 'a.txt': 'a\n' });
	const dir = mkdtempSync(join(tmpdir(), 'massgen-locks-'));
	const base = (pid: number, extra: Partial<LockOptions> = {}): LockOptions => ({
		tool: `tool ${pid}`,
		dir,
		host: 'here',
		pid,
		processes: processes({ 100: 'boot:1', 200: 'boot:2' }),
		...extra,
	});
	const lockFiles = () => readdirSync(dir);
	return { root, dir, base, lockFiles };
}

describe('the workspace lock', () => {
	it('lives outside the workspace, in the user state folder', async () => {
		expect(defaultLockDir({ HOME: '/home/u' })).toBe('/home/u/.local/state/massgen/locks');
		expect(defaultLockDir({ HOME: '/home/u', XDG_STATE_HOME: '/s' })).toBe('/s/massgen/locks');
		const { root, dir, base, lockFiles } = await setup();
		const held = await acquireWorkspaceLock(root, base(100));
		expect(lockFiles()).toHaveLength(1);
		expect(held.file.startsWith(dir)).toBe(true);
		expect(JSON.parse(readFileSync(held.file, 'utf8'))).toMatchObject({
			pid: 100,
			host: 'here',
			start: 'boot:1',
		});
		expect(readdirSync(root)).toEqual(['a.txt']);
		await held.release();
		expect(lockFiles()).toEqual([]);
	});

	it('a second writer waits for a live owner and gets the lock once it is released', async () => {
		const { root, base } = await setup();
		const first = await acquireWorkspaceLock(root, base(100));
		const order: string[] = [];
		const { clock, sleeps } = fakeClock(async () => {
			if (sleeps.length === 3) {
				order.push('first releases');
				await first.release();
			}
		});
		const waited: unknown[] = [];
		await withWorkspaceLock(root, base(200, { clock, onWait: (owner) => waited.push(owner) }), async () => {
			order.push('second holds');
		});
		expect(order).toEqual(['first releases', 'second holds']);
		expect(sleeps).toEqual([10, 20, 40]);
		expect(waited).toEqual([expect.objectContaining({ pid: 100, tool: 'tool 100' })]);
	});

	it('gives up after the wait with an error naming the owner and the lock file', async () => {
		const { root, base } = await setup();
		const first = await acquireWorkspaceLock(root, base(100));
		const { clock } = fakeClock();
		const error = await acquireWorkspaceLock(root, base(200, { clock, waitMs: 1000 })).catch(
			(e: unknown) => e,
		);
		expect(error).toBeInstanceOf(WorkspaceLockedError);
		expect((error as Error).message).toContain('tool 100 (pid 100 on here');
		expect((error as Error).message).toContain(first.file);
		expect(existsSync(first.file)).toBe(true);
	});

	it('takes over at once a lock whose owner is dead, or whose pid now belongs to a later process', async () => {
		const { root, base } = await setup();
		for (const [owner, table] of [
			[300, processes({ 200: 'boot:2' })],
			[100, processes({ 100: 'boot:9', 200: 'boot:2' })],
		] as const) {
			await acquireWorkspaceLock(root, base(owner, { processes: processes({ [owner]: 'boot:1' }) }));
			const { clock, sleeps } = fakeClock();
			const held = await acquireWorkspaceLock(root, base(200, { clock, processes: table }));
			expect(sleeps).toEqual([]);
			expect(JSON.parse(readFileSync(held.file, 'utf8'))).toMatchObject({ pid: 200 });
			await held.release();
		}
	});

	it("waits for another host's lock (it cannot be checked) and says which file to delete", async () => {
		const { root, base } = await setup();
		const other = await acquireWorkspaceLock(root, base(100, { host: 'elsewhere' }));
		const { clock } = fakeClock();
		const error = (await acquireWorkspaceLock(
			root,
			base(200, { clock, waitMs: 500, processes: processes({}) }),
		).catch((e: unknown) => e)) as Error;
		expect(error).toBeInstanceOf(WorkspaceLockedError);
		expect(error.message).toContain(`delete ${other.file}`);
	});

	it('a lock file without an owner (its writer died mid-write) is waited for, then taken over after its grace', async () => {
		const { root, base } = await setup();
		const probe = await acquireWorkspaceLock(root, base(100));
		await probe.release();
		writeFileSync(probe.file, '');
		const { clock, sleeps } = fakeClock();
		const held = await acquireWorkspaceLock(root, base(200, { clock }));
		// Waited for while it may still be being written (5 s after its mtime), then taken over.
		const waited = sleeps.reduce((a, b) => a + b, 0);
		expect(waited).toBeGreaterThan(4_000);
		expect(waited).toBeLessThanOrEqual(5_250);
		expect(JSON.parse(readFileSync(held.file, 'utf8'))).toMatchObject({ pid: 200 });
	});

	it('release leaves alone a lock file that is no longer its own', async () => {
		const { root, base } = await setup();
		const first = await acquireWorkspaceLock(root, base(100));
		// Someone judged it stale and took it (here: by hand).
		const { clock } = fakeClock();
		await first.release();
		const second = await acquireWorkspaceLock(root, base(200, { clock }));
		await first.release();
		expect(existsSync(second.file)).toBe(true);
		expect(JSON.parse(readFileSync(second.file, 'utf8'))).toMatchObject({ pid: 200 });
	});

	it('a lock left by a killed process is taken over (the real process table)', async () => {
		const { root, dir } = await setup();
		const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
		await once(child, 'spawn');
		const pid = child.pid!;
		await acquireWorkspaceLock(root, { tool: 'killed', dir, pid });
		// Control: while it runs, its lock is respected.
		const { clock } = fakeClock();
		await expect(
			acquireWorkspaceLock(root, { tool: 'next', dir, clock, waitMs: 100 }),
		).rejects.toBeInstanceOf(WorkspaceLockedError);
		expect(hostProcesses.alive(pid)).toBe(true);
		child.kill('SIGKILL');
		await once(child, 'exit');
		const held = await acquireWorkspaceLock(root, { tool: 'next', dir, clock: fakeClock().clock });
		expect(JSON.parse(readFileSync(held.file, 'utf8'))).toMatchObject({ pid: process.pid, tool: 'next' });
		await held.release();
	});
});
