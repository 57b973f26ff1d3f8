import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The user's own state folder for MassGen (`$XDG_STATE_HOME/massgen`, `~/.local/state/massgen`,
 * `%LOCALAPPDATA%\massgen`): what a repository must not be able to write (workspace locks, the
 * record of runs made here) lives there, never in the workspace.
 */
export function userStateDir(env: NodeJS.ProcessEnv): string {
	const base =
		env['XDG_STATE_HOME'] ||
		(process.platform === 'win32' ? env['LOCALAPPDATA'] : undefined) ||
		join(env['HOME'] || homedir(), '.local', 'state');
	return join(base, 'massgen');
}
