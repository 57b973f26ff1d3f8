/**
 * The bubblewrap a coding agent's CLI process runs in (Claude Code and Codex alike). A PID
 * namespace of its own (`--unshare-pid`, `--die-with-parent`): killing bwrap ends every process
 * the CLI started, also those in sessions of their own, which a process-group kill misses. The
 * system is read-only; an empty tmpfs lies over `/tmp`, `/run` and the user's workspace (its
 * copy is the folder); the writable places are the agent's folder and the few the CLI keeps its
 * state in. The network is shared: the CLI must reach its API (a loopback one in the tests).
 */
import { realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DependencyMount } from '../../tools/scratchSpace.js';
import { isRootOrInside } from '../../util/paths.js';

export interface CliSandbox {
	/** The agent's private folder: writable, and the CLI's working directory. */
	readonly folder: string;
	/** Other folders the CLI writes (its home, its state); each must exist. */
	readonly writable: readonly string[];
	/** Writable when they exist (a config folder the CLI may not have made yet). */
	readonly writableIfPresent?: readonly string[];
	readonly dependencyMounts: readonly DependencyMount[];
	/** Folders it must not even read (the user's workspace). */
	readonly hidden: readonly string[];
	/** The CLI's install folder: read-only again when a masked folder holds it. */
	readonly install: string;
}

/** bwrap's arguments up to (not including) the `--` before the CLI's command line. */
export function cliSandboxArgs(sandbox: CliSandbox): string[] {
	const args = [
		'--die-with-parent',
		'--unshare-pid',
		'--ro-bind',
		'/',
		'/',
		'--dev',
		'/dev',
		'--proc',
		'/proc',
	];
	args.push('--tmpfs', '/tmp', '--tmpfs', '/run');
	for (const path of sandbox.hidden.filter((hidden) => hidden !== '/')) args.push('--tmpfs', path);
	// A CLI installed under a folder masked above (the workspace's node_modules, a checkout in /tmp)
	// comes back read-only.
	const masked = ['/tmp', '/run', ...sandbox.hidden];
	if (masked.some((folder) => folder !== '/' && isRootOrInside(folder, sandbox.install))) {
		args.push('--ro-bind', sandbox.install, sandbox.install);
	}
	// Name resolution must work (systemd-resolved keeps resolv.conf under /run).
	const resolver = resolverFolder();
	if (resolver !== undefined) args.push('--ro-bind', resolver, resolver);
	for (const path of [sandbox.folder, ...sandbox.writable]) args.push('--bind', path, path);
	for (const path of sandbox.writableIfPresent ?? []) args.push('--bind-try', path, path);
	for (const mount of sandbox.dependencyMounts) args.push('--ro-bind', mount.source, mount.target);
	args.push('--chdir', sandbox.folder);
	return args;
}

function resolverFolder(): string | undefined {
	try {
		const folder = dirname(realpathSync('/etc/resolv.conf'));
		return folder.startsWith('/run/') ? folder : undefined;
	} catch {
		return undefined;
	}
}

/** A folder as bwrap sees paths (links resolved); as given when it cannot be resolved. */
export function realFolder(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}
