/** What a command may see, from where the run's files are on the host. */
import { existsSync, realpathSync } from 'node:fs';
import { homedir, tmpdir, userInfo } from 'node:os';
import { delimiter, dirname, isAbsolute } from 'node:path';
import { isInside } from '../util/paths.js';
import type { ReadOnlyBind, SandboxRequest } from './commandSandbox.js';
import type { OverlayLayers } from './overlayMount.js';

export interface HostLayout {
	/** The real workspace (realpath). */
	readonly workspaceRoot: string;
	/** Default: `$HOME` of `env`, else the OS's. */
	readonly hostHome?: string;
	/** Holds every agent's scratch copy (default: the OS temp folder). */
	readonly tempRoot?: string;
	/** The commands' `PATH` (folders under the hidden home are bound back read-only). */
	readonly path?: string;
	/** The running Node (its install folder is bound back when under the home, e.g. nvm). */
	readonly execPath?: string;
}

export interface CommandPlace {
	readonly scratchDir: string;
	readonly cwd: string;
	readonly homeDir: string;
	readonly dependencyMounts: readonly ReadOnlyBind[];
	readonly network: boolean;
	/** The scratch is an overlay: its layers, mounted at `scratchDir` for the command. */
	readonly overlay?: OverlayLayers | undefined;
}

/**
 * Where a user's data lives outside `$HOME`: other users' and root's homes, mounted drives (WSL's
 * `/mnt/c/Users/…` with its `.ssh` and `.aws`), served and dev-container checkouts, `/var/tmp`.
 * The rest of the system stays visible read-only: commands need its tools and libraries.
 */
const userDataRoots = ['/home', '/root', '/mnt', '/media', '/srv', '/workspaces', '/var/tmp'];

/** Folders whose contents commands need (tools, libraries, configuration): never hidden whole. */
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

export function sandboxRequest(host: HostLayout, place: CommandPlace): SandboxRequest {
	const home = real(host.hostHome ?? homedir());
	const temp = real(host.tempRoot ?? tmpdir());
	// The passwd home too: `$HOME` may point elsewhere (CI, `sudo -E`), leaving the real one in view.
	const accountHome = real(safeAccountHome());
	// Sibling checkouts beside the workspace (`~/src/other/.env`, `/data/projects/*`).
	const parent = host.workspaceRoot === undefined ? undefined : real(dirname(host.workspaceRoot));
	// Only existing folders: a sandbox cannot mount over (or bind) what is not there.
	const hidden = [
		...new Set(
			[host.workspaceRoot, home, accountHome, temp, parent, ...userDataRoots.map(real)].filter(
				(path): path is string => path !== undefined && !systemFolders.has(path),
			),
		),
	];
	const toolFolders = (host.path ?? '').split(delimiter).filter(isAbsolute).map(real);
	if (host.execPath !== undefined) toolFolders.push(real(dirname(dirname(host.execPath))));
	// A tool folder comes back only from under a hidden folder, and never one that holds (or is in) the workspace or the copies.
	const overlaps = (a: string, b: string | undefined) =>
		b !== undefined && (a === b || isInside(a, b) || isInside(b, a));
	const tools = [...new Set(toolFolders)]
		.filter(
			(folder): folder is string =>
				folder !== undefined &&
				hidden.some((root) => isInside(root, folder)) &&
				!overlaps(folder, host.workspaceRoot) &&
				!overlaps(folder, temp),
		)
		.map((folder) => ({ source: folder, target: folder }));
	return {
		scratchDir: place.scratchDir,
		cwd: place.cwd,
		homeDir: place.homeDir,
		readOnlyBinds: [...tools, ...place.dependencyMounts],
		hiddenPaths: hidden,
		network: place.network,
		...(place.overlay ? { overlay: place.overlay } : {}),
	};
}

function safeAccountHome(): string | undefined {
	try {
		return userInfo().homedir;
	} catch {
		return undefined;
	}
}

function real(path: string | undefined): string | undefined {
	if (path === undefined || path === '' || !existsSync(path)) return undefined;
	try {
		return realpathSync(path);
	} catch {
		return undefined;
	}
}
