/**
 * The wall beneath the permission engine (docs/threat-model.md): how a `run_command` shell is started so the
 * operating system, not our text checks, keeps it inside the agent's scratch copy. The rules and
 * approvals decide *whether* a command runs (policy); a sandbox decides *what it can touch*.
 */

import type { SandboxMode } from '../../../contract/runEvents.js';
import type { OverlayLayers, OverlayTools } from './overlayMount.js';
import type { SecretMask } from './sandboxProfile.js';

/** A host folder made visible, read-only, at `target` inside the sandbox. */
export interface ReadOnlyBind {
	readonly source: string;
	readonly target: string;
	/** Secret files and folders inside it (absolute, under `target`): covered in the sandbox. */
	readonly masks?: readonly SecretMask[];
}

/** What one command may see. Every path is absolute and already resolved (realpath). */
export interface SandboxRequest {
	/** The agent's scratch copy: the only writable folder besides `homeDir`. */
	readonly scratchDir: string;
	/** Where the shell starts (inside `scratchDir`). */
	readonly cwd: string;
	/** The scratch home (`HOME` of the command), writable. */
	readonly homeDir: string;
	/** Dependency folders at their place in the copy, and tool folders under the hidden `$HOME`. */
	readonly readOnlyBinds: readonly ReadOnlyBind[];
	/** Folders that must not be readable: the real workspace, `$HOME`, the temp folder holding other copies. */
	readonly hiddenPaths: readonly string[];
	/** Whether the command may use the network (all or nothing: neither backend filters by domain). */
	readonly network: boolean;
	/** The scratch folder is an overlay mounted for the command (only where `CommandSandbox.overlay`). */
	readonly overlay?: OverlayLayers;
}

export interface CommandSandbox {
	readonly mode: SandboxMode;
	/** `TMPDIR` inside the sandbox; undefined = a `tmp` folder in the scratch home. */
	readonly tempDir?: string;
	/** Set where a copy-on-write scratch (an overlay in a user namespace) was tried and works here. */
	readonly overlay?: OverlayTools;
	/** The argv to spawn instead of `argv` (`argv[0]` is the shell). */
	wrap(argv: readonly string[], request: SandboxRequest): readonly string[];
}

/** No wall at all: only for a user who opted in (`permissions.command_sandbox: allow-unsandboxed`). */
export const unsandboxed: CommandSandbox = {
	mode: 'none',
	wrap: (argv) => argv,
};
