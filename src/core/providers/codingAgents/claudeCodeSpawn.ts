/**
 * How the Claude Code CLI process is started: inside bubblewrap where it can start (Linux), in a
 * process group of its own otherwise. In bubblewrap the CLI has a PID namespace of its own
 * (`--unshare-pid`, `--die-with-parent`): killing bwrap ends every process the CLI started, also
 * those in sessions of their own, which a process-group kill misses (the spike). The system is
 * read-only; the private folder, its home and the CLI's config folder are the writable places;
 * the network is shared (the CLI must reach its API).
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SpawnedProcess, SpawnOptions } from '@anthropic-ai/claude-agent-sdk';
import { killProcessTree, spawnGroup } from '../../tools/commandProcess.js';
import { isRootOrInside } from '../../util/paths.js';
import type { DependencyMount } from '../../tools/scratchSpace.js';

export interface CliContainment {
	/** The `bwrap` binary, or undefined to run without one (process-group kill only). */
	readonly bwrap: string | undefined;
	readonly folder: string;
	readonly home: string;
	/** The CLI's own config folder (its login), bound writable when it is not inside `home`. */
	readonly configDir: string | undefined;
	readonly dependencyMounts: readonly DependencyMount[];
	/** Folders it must not even read (the user's workspace: its copy is the folder). */
	readonly hidden: readonly string[];
}

/** Starts the CLI as the SDK asks; `started` receives the child so the adapter can kill its group. */
export function spawnContained(
	spec: SpawnOptions,
	containment: CliContainment,
	started: (child: ChildProcess) => void,
): SpawnedProcess {
	// The SDK checks its own default spawn's binary; ours must too, for the same clear error.
	if (!existsSync(spec.command)) throw new Error(`Claude Code native binary not found at ${spec.command}`);
	const env = Object.fromEntries(
		Object.entries(spec.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
	);
	const [command, args] =
		containment.bwrap === undefined
			? [spec.command, spec.args]
			: [containment.bwrap, [...bwrapArgs(containment, spec.command), '--', spec.command, ...spec.args]];
	const child = spawnGroup(command, args, {
		cwd: containment.folder,
		env,
		stdio: ['pipe', 'pipe', 'ignore'],
	});
	started(child);
	spec.signal?.addEventListener('abort', () => killProcessTree(child.pid), { once: true });
	// Piped stdin and stdout (above): both streams exist.
	return child as SpawnedProcess & ChildProcess;
}

function bwrapArgs(containment: CliContainment, cli: string): string[] {
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
	for (const path of containment.hidden.filter((hidden) => hidden !== '/')) args.push('--tmpfs', path);
	// A CLI installed under a folder masked above (the workspace's node_modules, a checkout in /tmp)
	// comes back read-only.
	const masked = ['/tmp', '/run', ...containment.hidden];
	if (masked.some((folder) => folder !== '/' && isRootOrInside(folder, cli))) {
		args.push('--ro-bind', dirname(cli), dirname(cli));
	}
	// Name resolution must work (systemd-resolved keeps resolv.conf under /run).
	const resolver = resolverFolder();
	if (resolver !== undefined) args.push('--ro-bind', resolver, resolver);
	args.push('--bind', containment.folder, containment.folder, '--bind', containment.home, containment.home);
	const { configDir, home } = containment;
	if (configDir !== undefined && !configDir.startsWith(`${home}/`)) {
		args.push('--bind-try', configDir, configDir);
	}
	for (const mount of containment.dependencyMounts) args.push('--ro-bind', mount.source, mount.target);
	args.push('--chdir', containment.folder);
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
