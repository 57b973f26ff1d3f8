/**
 * The bubblewrap a coding agent's CLI process runs in (Claude Code and Codex alike), on the profile
 * every sandbox of ours shares (`sandboxProfile.ts`: no capabilities, a new session, new PID, IPC,
 * UTS, user namespaces, die-with-parent, the system read-only, an empty tmpfs over `/tmp`, `/run`
 * and the user's data as the command sandbox hides it: the workspace — its copy is the folder —,
 * its siblings, `$HOME`, the passwd home, `/home`, `/root`, `/mnt`, `/var/tmp`…). Read-only again:
 * the CLI's install and the tool folders (`PATH`, Node) under a hidden folder. Killing bwrap ends
 * every process the CLI started, also those in sessions of their own, which a process-group kill
 * misses. The writable places are the agent's folder and the few the CLI keeps its state in. The
 * network is shared: the CLI must reach its API (a loopback one in the tests).
 */
import { tmpdir } from 'node:os';
import {
	alwaysHidden,
	baseMounts,
	isolationArgs,
	maskArgs,
	realOrUndefined,
	toolFolders,
	userDataFolders,
} from '../../exec/sandbox/sandboxProfile.js';
import type { DependencyMount } from '../../exec/scratchSpace.js';
import { isRootOrInside, realpathOrNull } from '../../util/paths.js';

export interface CliSandbox {
	/** The agent's private folder: writable, and the CLI's working directory. */
	readonly folder: string;
	/** Other folders the CLI writes (its home, its state); each must exist. */
	readonly writable: readonly string[];
	/** Writable when they exist (a config folder the CLI may not have made yet). */
	readonly writableIfPresent?: readonly string[];
	readonly dependencyMounts: readonly DependencyMount[];
	/** Folders it must not even read (the user's workspace; the first one's siblings are hidden too). */
	readonly hidden: readonly string[];
	/** The user's `$HOME` as the CLI's environment had it (default: the OS's); hidden with its neighbours. */
	readonly hostHome?: string | undefined;
	/** The CLI's `PATH`: its folders under a hidden one come back read-only (a Node script CLI needs Node). */
	readonly path?: string | undefined;
	/**
	 * The CLI's install folder (or folders: where it is started from and where its link leads,
	 * `~/.local/bin/claude` → `~/.local/share/claude/versions/…`): read-only again when a masked folder holds it.
	 */
	readonly install: string | readonly string[];
	/** bubblewrap passed the strict probe (`isStrictBubblewrap`); default true. */
	readonly strict?: boolean;
	/** Codex only: its own sandbox is a nested bubblewrap (see `Isolation.nestedUserNamespaces`). */
	readonly nestedUserNamespaces?: boolean;
}

/** bwrap's arguments up to (not including) the `--` before the CLI's command line. */
export function cliSandboxArgs(sandbox: CliSandbox): string[] {
	const args = isolationArgs({
		strict: sandbox.strict ?? true,
		network: true,
		...(sandbox.nestedUserNamespaces ? { nestedUserNamespaces: true } : {}),
	});
	const hidden = [
		...sandbox.hidden,
		...userDataFolders({ workspaceRoot: sandbox.hidden[0], home: sandbox.hostHome }),
	];
	args.push(...baseMounts(hidden, true));
	// A CLI installed under a folder masked above (the workspace's node_modules, a checkout in /tmp,
	// `~/.local/bin`, an nvm folder) comes back read-only, and so do its tools (Node for a script CLI).
	const masked = [...alwaysHidden, ...hidden];
	for (const install of new Set(typeof sandbox.install === 'string' ? [sandbox.install] : sandbox.install)) {
		if (masked.some((folder) => folder !== '/' && isRootOrInside(folder, install))) {
			args.push('--ro-bind', install, install);
		}
	}
	// Never from the workspace or the other agents' copies (the temp folder).
	const keepOut = [...sandbox.hidden, realOrUndefined(tmpdir())];
	const tools = toolFolders(masked, sandbox.path, process.execPath, keepOut);
	for (const tool of tools) args.push('--ro-bind', tool, tool);
	// Writable folders after every mask: the CLI's home and state survive a hidden folder holding them.
	for (const path of [sandbox.folder, ...sandbox.writable]) args.push('--bind', path, path);
	for (const path of sandbox.writableIfPresent ?? []) args.push('--bind-try', path, path);
	// Secret files inside a dependency folder are covered after it is bound.
	for (const mount of sandbox.dependencyMounts) {
		args.push('--ro-bind', mount.source, mount.target, ...maskArgs(mount.masks ?? []));
	}
	args.push('--chdir', sandbox.folder);
	return args;
}

/** A folder as bwrap sees paths (links resolved); as given when it cannot be resolved. */
export function realFolder(path: string): string {
	return realpathOrNull(path) ?? path;
}
