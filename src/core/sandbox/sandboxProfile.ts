/**
 * The one bubblewrap profile: namespaces, privileges and the base file system of every sandbox we
 * start, the command sandbox (`bubblewrap.ts`) and the coding agents' CLIs (`cliSandbox.ts`) alike,
 * so a hardening of one is a hardening of both. What differs between them comes after these
 * arguments: which folders are writable, which are bound back read-only.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname } from 'node:path';

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
