/**
 * How the Claude Code CLI process is started: inside bubblewrap where it can start (Linux,
 * `cliSandbox.ts`), in a process group of its own otherwise. Writable in the sandbox: the private
 * folder, its home and the CLI's config folder (its login, when it uses one).
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SpawnedProcess, SpawnOptions } from '@anthropic-ai/claude-agent-sdk';
import { isStrictBubblewrap } from '../../exec/sandbox/detectSandbox.js';
import { killProcessTree, spawnGroup } from '../../exec/commandProcess.js';
import type { DependencyMount } from '../../exec/scratchSpace.js';
import { cliSandboxArgs, realFolder } from './cliSandbox.js';

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
	/** The user's `$HOME` and `PATH` (`CliSandbox.hostHome`, `.path`). */
	readonly hostHome?: string | undefined;
	readonly path?: string | undefined;
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
			: [
					containment.bwrap,
					[...bwrapArgs(containment, containment.bwrap, spec.command), '--', spec.command, ...spec.args],
				];
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

/** Strict: Claude Code's own shell sandbox is never used (its Bash is refused), so no user namespace inside. */
function bwrapArgs(containment: CliContainment, bwrap: string, cli: string): string[] {
	const { configDir, home } = containment;
	return cliSandboxArgs({
		folder: containment.folder,
		writable: [home],
		writableIfPresent: configDir !== undefined && !configDir.startsWith(`${home}/`) ? [configDir] : [],
		dependencyMounts: containment.dependencyMounts,
		hidden: containment.hidden,
		hostHome: containment.hostHome,
		path: containment.path,
		// Started by its path, run from where its link leads (the native installer's layout).
		install: [dirname(cli), dirname(realFolder(cli))],
		strict: isStrictBubblewrap(bwrap),
	});
}
