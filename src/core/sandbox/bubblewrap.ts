/**
 * Linux: bubblewrap (`bwrap`, Debian package `bubblewrap`) driven directly. The system is bound
 * read-only; the hidden folders get an empty tmpfs over them; then the scratch copy and the
 * scratch home are bound writable and the dependency folders read-only on top (later mounts
 * shadow earlier ones, and bind sources are always host paths). Every namespace is new: PIDs (a
 * fresh `/proc` shows only the sandbox), network (none, unless allowed), IPC, UTS, user.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CommandSandbox, SandboxRequest } from './commandSandbox.js';
import { overlayArgv, type OverlayTools } from './overlayMount.js';

/** System folders hidden in every sandbox: `/run` holds sockets to daemons (Docker, D-Bus, the user session). */
const alwaysHidden = ['/tmp', '/run'].filter((path) => existsSync(path));
/** With the network allowed, name resolution must work: systemd-resolved keeps `resolv.conf` under `/run`. */
const resolverFolder = ((): string | undefined => {
	try {
		const folder = dirname(realpathSync('/etc/resolv.conf'));
		return folder.startsWith('/run/') ? folder : undefined;
	} catch {
		return undefined;
	}
})();

/**
 * Namespaces and privileges of every sandbox. Without `--cap-drop ALL` a sandbox started by root
 * keeps every capability: it could unmount what hides the workspace and remount `/` read-write.
 * `strict` (bubblewrap ≥ 0.8 with user namespaces) also forbids nested user namespaces, the way
 * to regain capabilities; setuid bubblewrap without user namespaces cannot do that.
 * `--new-session`: no terminal to push input into (TIOCSTI); `--die-with-parent`: nothing outlives us.
 */
export function isolationArgs(strict: boolean): string[] {
	const user = strict ? ['--unshare-user', '--disable-userns'] : [];
	return ['--die-with-parent', '--new-session', '--unshare-all', ...user, '--cap-drop', 'ALL'];
}

export function bubblewrapArgs(request: SandboxRequest, strict = true): string[] {
	const args = isolationArgs(strict);
	// Inside the overlay's namespace we are its root: commands get the user's own ids back, as without one.
	if (request.overlay !== undefined) args.push(...userIds());
	if (request.network) args.push('--share-net');
	args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
	for (const path of unique([...alwaysHidden, ...request.hiddenPaths])) {
		if (path !== '/') args.push('--tmpfs', path);
	}
	if (request.network && resolverFolder !== undefined) args.push('--ro-bind', resolverFolder, resolverFolder);
	// Tool folders under the hidden $HOME come back before the writable copy, dependency folders after it.
	const inScratch = (target: string) =>
		target === request.scratchDir || target.startsWith(`${request.scratchDir}/`);
	const binds = request.readOnlyBinds;
	for (const bind of binds.filter((b) => !inScratch(b.target))) {
		args.push('--ro-bind', bind.source, bind.target);
	}
	args.push('--bind', request.scratchDir, request.scratchDir, '--bind', request.homeDir, request.homeDir);
	for (const bind of binds.filter((b) => inScratch(b.target))) {
		args.push('--ro-bind', bind.source, bind.target);
	}
	args.push('--chdir', request.cwd);
	return args;
}

/** `overlay`: the tools of a copy-on-write scratch, where `detectOverlay` found that it works (strict only). */
export function bubblewrapSandbox(bwrapPath: string, strict = true, overlay?: OverlayTools): CommandSandbox {
	return {
		mode: 'bubblewrap',
		tempDir: '/tmp',
		...(overlay && strict ? { overlay } : {}),
		wrap: (argv, request) => {
			const inner = [bwrapPath, ...bubblewrapArgs(request, strict), '--', ...argv];
			if (request.overlay === undefined) return inner;
			if (!overlay || !strict) throw new Error('this sandbox cannot mount an overlay scratch');
			return overlayArgv(overlay, request.overlay, inner);
		},
	};
}

export function userIds(): string[] {
	const uid = process.getuid?.() ?? 0;
	const gid = process.getgid?.() ?? 0;
	return ['--uid', String(uid), '--gid', String(gid)];
}

function unique(paths: readonly string[]): string[] {
	return [...new Set(paths.filter((path) => path !== ''))];
}
