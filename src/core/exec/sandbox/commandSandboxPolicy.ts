/**
 * Where no sandbox can start, `run_command` is off unless the user opted in to running commands
 * without one (`--unsandboxed-commands`, `massgen.commands.allowUnsandboxed`, or
 * `permissions.command_sandbox: allow-unsandboxed` in a config outside the workspace: a
 * repository's own config cannot opt out). Either way the run says which mode it used.
 */
import { unsandboxed, type CommandSandbox } from './commandSandbox.js';
import type { SandboxDetection } from './detectSandbox.js';

export type CommandSandboxPolicy = 'required' | 'allow-unsandboxed';

export interface CommandSandboxChoice {
	/** Null: `run_command` is off. */
	readonly sandbox: CommandSandbox | null;
	/** For the user (CLI stderr, the editor's log and notification). */
	readonly notice: string;
}

const optInHint =
	'--unsandboxed-commands (CLI), massgen.commands.allowUnsandboxed (VS Code user settings) or permissions.command_sandbox: allow-unsandboxed in a team config outside the workspace';

export function chooseCommandSandbox(
	policy: CommandSandboxPolicy,
	detection: SandboxDetection,
	network: boolean,
): CommandSandboxChoice {
	const net = network ? 'network allowed' : 'no network';
	if (detection.sandbox !== null) {
		const name = detection.sandbox.mode === 'bubblewrap' ? 'a bubblewrap sandbox' : 'a sandbox-exec sandbox';
		return {
			sandbox: detection.sandbox,
			notice: `run_command: commands run in ${name} (only the scratch copy is writable; ${net})`,
		};
	}
	if (policy === 'allow-unsandboxed') {
		return {
			sandbox: unsandboxed,
			notice: `run_command: commands run WITHOUT a sandbox (${detection.reason}), as opted in: a command can read and change anything your user can`,
		};
	}
	return {
		sandbox: null,
		notice: `run_command is off: ${detection.reason}. To run commands without a sandbox (they could read and change anything your user can), set ${optInHint}`,
	};
}
