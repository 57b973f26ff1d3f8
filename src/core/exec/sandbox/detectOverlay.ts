/**
 * Whether the copy-on-write scratch works here. Kernels before 5.11 have no unprivileged overlay,
 * some distributions forbid user namespaces or give them no capabilities (Ubuntu's AppArmor
 * restriction), a temp folder may lack user xattrs: so a trial decides, once per `bwrap`, with the
 * whole chain a command uses — whiteouts by `tar`, the overlay mount, strict bubblewrap inside —
 * and checks what the promise needs: the hidden file is gone, the visible one readable, a write
 * lands in the upper layer and the workspace is unchanged. Otherwise the scratch is a copy.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, lstat, mkdir, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { userIds } from './bubblewrap.js';
import { isolationArgs } from './sandboxProfile.js';
import { isPlainOptionPath, overlayArgv, type OverlayLayers, type OverlayTools } from './overlayMount.js';
import { writeWhiteouts } from './whiteouts.js';

const trials = new Map<string, Promise<OverlayTools | null>>();

/** The overlay tools when a trial overlay sandbox worked here, else null. */
export function detectOverlay(bwrap: string, path: string): Promise<OverlayTools | null> {
	let trial = trials.get(bwrap);
	if (trial === undefined) {
		trial = tryOverlay(bwrap, path).catch(() => null);
		trials.set(bwrap, trial);
	}
	return trial;
}

async function tryOverlay(bwrap: string, path: string): Promise<OverlayTools | null> {
	if (process.platform !== 'linux') return null;
	const find = (name: string) =>
		[...path.split(delimiter), '/usr/bin', '/bin'].map((folder) => join(folder, name)).find(existsSync);
	const [unshare, mount, tar] = [find('unshare'), find('mount'), find('tar')];
	if (unshare === undefined || mount === undefined || tar === undefined) return null;
	const tools = { unshare, mount, tar };
	const temp = await realpath(tmpdir());
	if (!isPlainOptionPath(temp)) return null;
	const base = await mkdtemp(join(temp, 'massgen-overlay-trial-'));
	try {
		const layers: OverlayLayers = {
			workspace: join(base, 'workspace'),
			lower: join(base, 'lower'),
			view: join(base, 'view'),
			upper: join(base, 'upper'),
			work: join(base, 'work'),
			merged: join(base, 'merged'),
		};
		for (const folder of Object.values(layers)) await mkdir(folder);
		await writeFile(join(layers.workspace, 'shown'), 'shown');
		await writeFile(join(layers.workspace, 'hidden'), 'hidden');
		await writeWhiteouts(tar, layers.view, ['hidden']);
		const check = 'test "$(cat shown)" = shown && test ! -e hidden && echo made > made';
		const inner = [
			bwrap,
			...isolationArgs({ strict: true, network: false }),
			...userIds(),
			'--ro-bind',
			'/',
			'/',
			'--dev',
			'/dev',
			'--proc',
			'/proc',
			'--tmpfs',
			temp,
			'--bind',
			layers.merged,
			layers.merged,
			'--chdir',
			layers.merged,
			'--',
			'/bin/sh',
			'-c',
			check,
		];
		const code = await exitCode(overlayArgv(tools, layers, inner));
		const ok =
			code === 0 &&
			existsSync(join(layers.upper, 'made')) &&
			(await readdir(layers.workspace)).sort().join() === 'hidden,shown';
		return ok ? tools : null;
	} finally {
		await removeTree(base);
	}
}

function exitCode(argv: readonly string[]): Promise<number | null> {
	return new Promise((resolve) => {
		const child = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore', env: {} });
		const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
		child.once('error', () => {
			clearTimeout(timer);
			resolve(null);
		});
		child.once('close', (code) => {
			clearTimeout(timer);
			resolve(code);
		});
	});
}

/** Overlayfs leaves a mode-000 folder in its work folder: made removable first. */
export async function removeTree(folder: string): Promise<void> {
	await rm(folder, { recursive: true, force: true, maxRetries: 2 }).catch(async () => {
		await chmodTree(folder);
		await rm(folder, { recursive: true, force: true }).catch(() => undefined);
	});
}

async function chmodTree(folder: string): Promise<void> {
	const info = await lstat(folder).catch(() => null);
	if (!info?.isDirectory()) return;
	await chmod(folder, 0o700).catch(() => undefined);
	for (const name of await readdir(folder).catch(() => [] as string[])) await chmodTree(join(folder, name));
}
