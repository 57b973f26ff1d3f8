/** What a command may see, from where the run's files are on the host. */
import { tmpdir } from 'node:os';
import { realOrUndefined, toolFolders, userDataFolders } from './sandboxProfile.js';
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

export function sandboxRequest(host: HostLayout, place: CommandPlace): SandboxRequest {
	const temp = realOrUndefined(host.tempRoot ?? tmpdir());
	const hidden = userDataFolders({
		workspaceRoot: host.workspaceRoot,
		home: host.hostHome,
		extra: temp === undefined ? [] : [temp],
	});
	// A tool folder comes back only from under a hidden folder, never one that holds (or is in) the workspace or the copies.
	const tools = toolFolders(hidden, host.path, host.execPath, [
		realOrUndefined(host.workspaceRoot),
		temp,
	]).map((folder) => ({ source: folder, target: folder }));
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
