/**
 * Which sandbox can start here. Finding `bwrap` is not enough: containers without user
 * namespaces have it and still cannot start one, so a trial run decides (once per path), first
 * with the strict isolation, then without nested-namespace blocking (older or setuid bubblewrap).
 */
import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { bubblewrapSandbox } from './bubblewrap.js';
import type { CommandSandbox } from './commandSandbox.js';
import { detectOverlay } from './detectOverlay.js';
import { sandboxExecPath, sandboxExecSandbox } from './sandboxExec.js';
import { isolationArgs } from './sandboxProfile.js';

export type SandboxDetection =
	{ readonly sandbox: CommandSandbox } | { readonly sandbox: null; readonly reason: string };

export interface DetectOptions {
	readonly platform?: NodeJS.Platform;
	/** `bwrap` to use (`MASSGEN_BWRAP_PATH`); default: found on `PATH`. */
	readonly bwrapPath?: string;
	/** For finding `bwrap` (and `unshare`, `mount`, `tar` for the overlay scratch). */
	readonly path?: string;
	/** Try the copy-on-write scratch (default true; `MASSGEN_SCRATCH=copy` turns it off). */
	readonly overlay?: boolean;
}

type Probe = { readonly strict: boolean } | { readonly failure: string };
const probes = new Map<string, Promise<Probe>>();
/** The probes that have finished, for callers that build a sandbox's arguments synchronously. */
const settled = new Map<string, Probe>();

/**
 * Whether `bwrap` passed the strict probe (user namespaces: nested ones can be forbidden). Known
 * once `detectSandbox` has run for it; assumed true before (the arguments then fail loudly).
 */
export function isStrictBubblewrap(bwrap: string): boolean {
	const probe = settled.get(bwrap);
	return probe === undefined || !('strict' in probe) || probe.strict;
}

export async function detectSandbox(options: DetectOptions = {}): Promise<SandboxDetection> {
	const platform = options.platform ?? process.platform;
	if (platform === 'darwin') {
		return (await isExecutable(sandboxExecPath))
			? { sandbox: sandboxExecSandbox() }
			: { sandbox: null, reason: `${sandboxExecPath} is missing` };
	}
	if (platform !== 'linux') return { sandbox: null, reason: `no OS sandbox is supported on ${platform}` };
	const bwrap = options.bwrapPath ?? (await findOnPath('bwrap', options.path ?? process.env['PATH'] ?? ''));
	if (bwrap === undefined || !(await isExecutable(bwrap))) {
		return {
			sandbox: null,
			reason: `bubblewrap is not installed (${bwrap ?? 'bwrap'} not found; Debian/Ubuntu: apt-get install bubblewrap)`,
		};
	}
	let probe = probes.get(bwrap);
	if (probe === undefined) {
		probe = probeBubblewrap(bwrap).then((result) => {
			settled.set(bwrap, result);
			return result;
		});
		probes.set(bwrap, probe);
	}
	const result = await probe;
	if (!('strict' in result)) {
		return { sandbox: null, reason: `bubblewrap cannot start a sandbox here (${result.failure})` };
	}
	const wantOverlay = result.strict && options.overlay !== false;
	const overlay = wantOverlay ? await detectOverlay(bwrap, options.path ?? process.env['PATH'] ?? '') : null;
	return { sandbox: bubblewrapSandbox(bwrap, result.strict, overlay ?? undefined) };
}

async function probeBubblewrap(bwrap: string): Promise<Probe> {
	if ((await tryBubblewrap(bwrap, true)) === null) return { strict: true };
	const failure = await tryBubblewrap(bwrap, false);
	return failure === null ? { strict: false } : { failure };
}

/** Null when a minimal sandbox with the isolation `run_command` uses runs; else why not. */
function tryBubblewrap(bwrap: string, strict: boolean): Promise<string | null> {
	return new Promise((resolve) => {
		const args = [
			...isolationArgs({ strict, network: false }),
			'--ro-bind',
			'/',
			'/',
			'--dev',
			'/dev',
			'--proc',
			'/proc',
			'--',
			'true',
		];
		const child = spawn(bwrap, args, { stdio: ['ignore', 'ignore', 'pipe'], env: {} });
		let stderr = '';
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
		child.once('error', (error) => {
			clearTimeout(timer);
			resolve(error.message);
		});
		child.once('close', (code, signal) => {
			clearTimeout(timer);
			resolve(code === 0 ? null : stderr.trim().split('\n')[0] || `exit ${code ?? signal}`);
		});
	});
}

async function findOnPath(name: string, path: string): Promise<string | undefined> {
	for (const folder of path.split(delimiter)) {
		if (folder !== '' && (await isExecutable(join(folder, name)))) return join(folder, name);
	}
	return undefined;
}

async function isExecutable(file: string): Promise<boolean> {
	return access(file, constants.X_OK).then(
		() => true,
		() => false,
	);
}
