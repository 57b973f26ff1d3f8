/**
 * The scratch copy as a copy-on-write view instead of a copy (docs/tools-and-sandbox.md): an overlay mount,
 * made in a user and mount namespace of its own for each command, then the usual bubblewrap sandbox
 * inside it. Layers, top first:
 * - `upper`: what commands changed (the kernel writes every change here: the real workspace is
 *   only ever a read-only lower layer, and copy-up never writes through to it, unlike hard links);
 * - `view`: ours, written between commands: whiteouts hiding what the scratch copy leaves out
 *   (`.git/`, secrets, ignored files), the run snapshot's bases, the agent's deletions;
 * - the real workspace, bound at `lower` first so its path (which may hold `,` or `:`) never
 *   enters the mount options.
 * The namespace is gone when the command ends; the layers stay for the agent's next command.
 */

export interface OverlayLayers {
	/** The real workspace (realpath). */
	readonly workspace: string;
	/** Empty folder the workspace is bound at inside the namespace. */
	readonly lower: string;
	readonly view: string;
	readonly upper: string;
	/** Overlayfs' work folder (same filesystem as `upper`). */
	readonly work: string;
	/** Where the merged tree is mounted: the command's scratch folder. */
	readonly merged: string;
}

export interface OverlayTools {
	readonly unshare: string;
	readonly mount: string;
	/** Makes the whiteouts (`writeWhiteouts`). */
	readonly tar: string;
}

/** Paths that can go into mount options as they are (ours: made under the temp folder). */
export function isPlainOptionPath(path: string): boolean {
	return /^\/[A-Za-z0-9._/+-]*$/.test(path);
}

/**
 * The options: `userxattr` (an unprivileged overlay keeps its own bookkeeping in `user.*`
 * attributes); `index`/`metacopy` off, so changing the lower layers between mounts is defined.
 */
export function overlayOptions(layers: OverlayLayers): string {
	for (const path of [layers.lower, layers.view, layers.upper, layers.work]) {
		if (!isPlainOptionPath(path)) throw new Error(`not a plain path for overlay options: ${path}`);
	}
	return `lowerdir=${layers.view}:${layers.lower},upperdir=${layers.upper},workdir=${layers.work},userxattr,index=off,metacopy=off`;
}

/**
 * The script run as root of the new user namespace: bind the workspace, mount the overlay, then
 * exec the sandbox (argv after the four fixed arguments). Exit 125 = the mount failed.
 */
const script =
	'm=$1; shift; "$m" --bind "$1" "$2" && "$m" -t overlay overlay -o "$3" "$4" || exit 125; shift 4; exec "$@"';

/** The argv that mounts the overlay, then runs `inner` (a bubblewrap argv) in it. */
export function overlayArgv(tools: OverlayTools, layers: OverlayLayers, inner: readonly string[]): string[] {
	return [
		tools.unshare,
		'--user',
		'--map-root-user',
		'--mount',
		'--',
		'/bin/sh',
		'-c',
		script,
		'massgen-overlay',
		tools.mount,
		layers.workspace,
		layers.lower,
		overlayOptions(layers),
		layers.merged,
		...inner,
	];
}
