/**
 * The one bubblewrap profile: namespaces, privileges and the base file system of every sandbox we
 * start, the command sandbox (`bubblewrap.ts`) and the coding agents' CLIs (`cliSandbox.ts`) alike,
 * so a hardening of one is a hardening of both. What differs between them comes after these
 * arguments: which folders are writable, which are bound back read-only.
 */
import { existsSync, realpathSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { delimiter, dirname, isAbsolute } from 'node:path';
import { isInside, realpathOrNull } from '../../util/paths.js';

export interface Isolation {
	/** bubblewrap with user namespaces (`detectSandbox`'s probe); false: setuid bubblewrap without them. */
	readonly strict: boolean;
	/** Share the host's network (a command allowed it; a CLI must reach its API). */
	readonly network: boolean;
	/**
	 * Allow user namespaces inside (strict only). Codex runs its own bubblewrap (its vendored
	 * `codex-resources/bwrap`) for its patches, which needs one; mounts inherited from ours stay
	 * locked in it (the kernel's MNT_LOCKED), so it cannot unmount a mask or remount `/` writable.
	 * Started by root, the sandbox's user is then not root inside (`nestedUid`): since Linux 5.12
	 * mapping uid 0 into a nested namespace needs CAP_SETFCAP, which the sandbox does not have
	 * ("bwrap: setting up uid map: Operation not permitted"). Files keep their real owner outside.
	 */
	readonly nestedUserNamespaces?: boolean;
}

/**
 * Namespaces and privileges. Without `--cap-drop ALL` a sandbox started by root keeps every
 * capability: it could unmount what hides the workspace and remount `/` read-write. `strict`
 * (bubblewrap ≥ 0.8 with user namespaces) also forbids nested user namespaces, the way to regain
 * capabilities; setuid bubblewrap without user namespaces cannot do that. `--unshare-all`: new
 * PID (a fresh `/proc` shows only the sandbox), IPC, UTS, cgroup and network namespaces.
 * `--new-session`: no terminal to push input into (TIOCSTI); `--die-with-parent`: nothing outlives us.
 */
export function isolationArgs(isolation: Isolation): string[] {
	const user = isolation.strict
		? ['--unshare-user', ...(isolation.nestedUserNamespaces === true ? [] : ['--disable-userns'])]
		: [];
	const nested = isolation.strict && isolation.nestedUserNamespaces === true;
	const ids = nested && process.getuid?.() === 0 ? ['--uid', nestedUid, '--gid', nestedUid] : [];
	const network = isolation.network ? ['--share-net'] : [];
	return [
		'--die-with-parent',
		'--new-session',
		'--unshare-all',
		...user,
		...ids,
		...network,
		'--cap-drop',
		'ALL',
	];
}

/** The uid and gid a sandbox that allows nested user namespaces runs as when root starts it. */
export const nestedUid = '1000';

/** System folders hidden in every sandbox: `/run` holds sockets to daemons (Docker, D-Bus, the user session). */
export const alwaysHidden: readonly string[] = ['/tmp', '/run'].filter((path) => existsSync(path));

/** With the network allowed, name resolution must work: systemd-resolved keeps `resolv.conf` under `/run`. */
export const resolverFolder = ((): string | undefined => {
	try {
		const folder = dirname(realpathSync('/etc/resolv.conf'));
		return folder.startsWith('/run/') ? folder : undefined;
	} catch {
		return undefined;
	}
})();

/**
 * The base file system: the system read-only, a fresh `/dev` and `/proc`, an empty tmpfs over
 * `/tmp`, `/run` and each of `hidden` (the workspace, `$HOME`, the temp folder holding other
 * copies), the resolver back when the network is shared. Writable folders come after it.
 */
export function baseMounts(hidden: readonly string[], network: boolean): string[] {
	const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
	for (const path of new Set([...alwaysHidden, ...hidden])) {
		if (path !== '/' && path !== '') args.push('--tmpfs', path);
	}
	if (network && resolverFolder !== undefined) args.push('--ro-bind', resolverFolder, resolverFolder);
	return args;
}

/**
 * Covers secret files and folders inside a read-only bind (a dependency folder bound whole): a
 * file gets `/dev/null` over it (reads give nothing), a folder an empty tmpfs. Must come after
 * the bind it covers. `folders`: the masked paths that are folders.
 */
export function maskArgs(masks: readonly SecretMask[]): string[] {
	return masks.flatMap((mask) =>
		mask.folder ? ['--tmpfs', mask.target] : ['--ro-bind', '/dev/null', mask.target],
	);
}

/** A secret path to cover inside the sandbox (absolute, where the sandbox sees it). */
export interface SecretMask {
	readonly target: string;
	readonly folder: boolean;
}

/**
 * Where a user's data lives outside `$HOME`: other users' and root's homes, mounted drives (WSL's
 * `/mnt/c/Users/…` with its `.ssh` and `.aws`), served and dev-container checkouts, `/var/tmp`.
 * The rest of the system stays visible read-only: commands and CLIs need its tools and libraries.
 */
const userDataRoots = ['/home', '/root', '/mnt', '/media', '/srv', '/workspaces', '/var/tmp'];

/** Folders whose contents every sandboxed process needs (tools, libraries, configuration): never hidden whole. */
const systemFolders = new Set([
	'/',
	'/usr',
	'/etc',
	'/bin',
	'/sbin',
	'/lib',
	'/lib32',
	'/lib64',
	'/libx32',
	'/opt',
	'/var',
	'/nix',
	'/snap',
	'/proc',
	'/dev',
	'/sys',
	'/boot',
	'/run',
	'/tmp',
]);

/**
 * The user's data every sandbox hides (realpaths of existing folders only: bwrap cannot mount over
 * what is not there): the workspace and its sibling checkouts (`~/src/other/.env`), `$HOME` and
 * the passwd home (`$HOME` may point elsewhere: CI, `sudo -E`), the user-data roots and `extra`.
 */
export function userDataFolders(place: {
	readonly workspaceRoot?: string | undefined;
	/** Default: the OS's `$HOME`. */
	readonly home?: string | undefined;
	readonly extra?: readonly string[];
}): string[] {
	const workspace = realOrUndefined(place.workspaceRoot);
	const folders = [
		workspace,
		realOrUndefined(place.home ?? homedir()),
		realOrUndefined(accountHome()),
		...(place.extra ?? []).map(realOrUndefined),
		workspace === undefined ? undefined : realOrUndefined(dirname(workspace)),
		...userDataRoots.map(realOrUndefined),
	];
	return [
		...new Set(folders.filter((path): path is string => path !== undefined && !systemFolders.has(path))),
	];
}

/**
 * The tool folders to bind back read-only over `hidden`: the `PATH` folders and the running Node's
 * install (nvm keeps it under the home) that lie below a hidden folder, never one that holds or is
 * inside one of `keepOut` (the workspace, the other agents' copies).
 */
export function toolFolders(
	hidden: readonly string[],
	path: string | undefined,
	execPath: string | undefined,
	keepOut: readonly (string | undefined)[],
): string[] {
	const folders = (path ?? '').split(delimiter).filter(isAbsolute).map(realOrUndefined);
	if (execPath !== undefined) folders.push(realOrUndefined(dirname(dirname(execPath))));
	const overlaps = (a: string, b: string | undefined) =>
		b !== undefined && (a === b || isInside(a, b) || isInside(b, a));
	return [...new Set(folders)].filter(
		(folder): folder is string =>
			folder !== undefined &&
			hidden.some((root) => isInside(root, folder)) &&
			!keepOut.some((out) => overlaps(folder, out)),
	);
}

function accountHome(): string | undefined {
	try {
		return userInfo().homedir;
	} catch {
		return undefined;
	}
}

/** The realpath of an existing path, else undefined. */
export function realOrUndefined(path: string | undefined): string | undefined {
	return path ? (realpathOrNull(path) ?? undefined) : undefined;
}
