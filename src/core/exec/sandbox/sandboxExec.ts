/**
 * macOS: `sandbox-exec` with a generated SBPL profile. Writes are denied except in the scratch
 * copy and the scratch home; the hidden folders are unreadable (the read-only binds are allowed
 * back, since macOS has no bind mounts: dependency folders stay links to the real ones and are
 * readable, not writable, their secret files not even that); network is denied unless allowed; other processes cannot be
 * inspected. Not testable on the project's Linux machines: only the profile text is unit-tested.
 */
import type { CommandSandbox, SandboxRequest } from './commandSandbox.js';

export const sandboxExecPath = '/usr/bin/sandbox-exec';

export function sandboxExecProfile(request: SandboxRequest): string {
	const subpaths = (paths: readonly string[]) => paths.map((path) => `(subpath ${quote(path)})`).join(' ');
	const lines = ['(version 1)', '(allow default)'];
	if (!request.network) lines.push('(deny network*)');
	lines.push('(deny process-info* (target others))');
	if (request.hiddenPaths.length > 0) lines.push(`(deny file-read* ${subpaths(request.hiddenPaths)})`);
	const readable = [...request.readOnlyBinds.map((bind) => bind.source), request.scratchDir, request.homeDir];
	lines.push(`(allow file-read* ${subpaths(readable)})`);
	// Secret files inside a dependency folder (a link to the real one here): unreadable at their source.
	const masked = request.readOnlyBinds.flatMap((bind) =>
		(bind.masks ?? []).map((mask) => `${bind.source}${mask.target.slice(bind.target.length)}`),
	);
	if (masked.length > 0) lines.push(`(deny file-read* ${subpaths(masked)})`);
	lines.push('(deny file-write*)');
	lines.push(
		`(allow file-write* ${subpaths([request.scratchDir, request.homeDir])} (literal "/dev/null") (regex #"^/dev/(tty|fd/)"))`,
	);
	return `${lines.join('\n')}\n`;
}

export function sandboxExecSandbox(path = sandboxExecPath): CommandSandbox {
	return {
		mode: 'sandbox-exec',
		wrap: (argv, request) => [path, '-p', sandboxExecProfile(request), ...argv],
	};
}

/** An SBPL string literal. */
function quote(path: string): string {
	return `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
