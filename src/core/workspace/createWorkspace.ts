import { lstat, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { MemoryOverlay } from './memoryOverlay.js';
import { normaliseRelative, policyRefusal } from './pathPolicy.js';
import { defaultMaxFileBytes, RunSnapshot } from './runSnapshot.js';
import { builtinSecretPaths, type SecretPaths } from './secretPaths.js';
import { inodeKey, scanSecrets, type SecretIndex } from './secretScan.js';
import type { Overlay, OverlaySnapshot, PathMode, ResolvedPath, Workspace } from './types.js';

export interface WorkspaceOptions {
	/** Workspace-relative (or absolute, inside the root) files or folders that are never written. */
	readonly protectedPaths?: readonly string[];
	/** Cap for a single `read_file` result; default 256 KiB. */
	readonly maxReadBytes?: number;
	/** Larger files are never read into the run snapshot (stat first); default 8 MiB. */
	readonly maxFileBytes?: number;
	/** Never read, listed or written (`secretPaths(config + settings)`); default: the built-in list. */
	readonly secretPaths?: SecretPaths;
	/** A ripgrep binary for `search_files` (e.g. `ripgrepOnPath()`); default: none, the tool's walker. */
	readonly ripgrep?: string;
}

export const defaultMaxReadBytes = 256 * 1024;

/**
 * Opens a workspace rooted at `root` (which must be an existing directory). The root is
 * canonicalised with realpath so symlink checks compare real paths on both sides.
 */
export async function createWorkspace(root: string, options: WorkspaceOptions = {}): Promise<Workspace> {
	const given = resolve(root);
	const real = await realpath(given);
	if (!(await stat(real)).isDirectory()) throw new Error(`workspace root '${root}' is not a directory`);
	const guarded = (options.protectedPaths ?? []).map((path) => {
		const rel = toRelative(path.replace(/\\/g, '/'), [real, given]);
		if (rel === null) throw new Error(`protected path '${path}' is outside the workspace '${root}'`);
		return rel;
	});
	const snapshot = new RunSnapshot(real, options.maxFileBytes ?? defaultMaxFileBytes);
	return new DiskWorkspace(
		real,
		given,
		guarded,
		options.maxReadBytes ?? defaultMaxReadBytes,
		snapshot,
		options.secretPaths ?? builtinSecretPaths,
		options.ripgrep,
	);
}

/**
 * A `Workspace` over a real directory, created once per run: it owns the run's snapshot. It
 * never writes; overlays keep edits in memory.
 */
export class DiskWorkspace implements Workspace {
	private scanned: Promise<SecretIndex> | undefined;

	constructor(
		readonly root: string,
		/** The root as the caller spelled it, so absolute paths under a symlinked root still resolve. */
		private readonly givenRoot: string,
		readonly protectedPaths: readonly string[],
		readonly maxReadBytes: number,
		readonly runSnapshot: RunSnapshot,
		readonly secretPaths: SecretPaths,
		readonly ripgrep?: string,
	) {}

	async resolve(path: string, mode: PathMode): Promise<ResolvedPath> {
		if (typeof path !== 'string' || path.trim() === '') {
			return { ok: false, path: String(path ?? ''), reason: 'refused: the path is empty' };
		}
		const display = path.replace(/\\/g, '/');
		const refuse = (reason: string): ResolvedPath => ({ ok: false, path: display, reason });
		if (display.includes('\0')) return refuse(`refused: '${display}' contains a NUL character`);
		const rel = toRelative(display, [this.root, this.givenRoot]);
		if (rel === null) return refuse(`refused: '${display}' is outside the workspace`);
		const lexical = policyRefusal(rel, display, mode, this.protectedPaths, this.secretPaths);
		if (lexical !== null) return refuse(lexical);

		const absolute = join(this.root, rel);
		const real = await realTarget(absolute);
		if (real === null) return refuse(`refused: '${display}' is a symlink that cannot be resolved`);
		const realRel = toRelative(real, [this.root]);
		if (realRel === null) {
			return refuse(`refused: '${display}' resolves outside the workspace through a symlink`);
		}
		// A link inside the root may still point at .git/, a secrets file or a protected path.
		const viaLink =
			realRel === rel ? null : policyRefusal(realRel, display, mode, this.protectedPaths, this.secretPaths);
		if (viaLink !== null) return refuse(`${viaLink} (via a symlink to '${realRel}')`);
		const hardLink = await this.hardLinkToSecret(real);
		if (hardLink) {
			return refuse(
				`refused: '${display}' is a hard link to a secret file (the same file under another name): agents never read or write secret files`,
			);
		}
		return { ok: true, path: rel, absolute };
	}

	secretIndex(): Promise<SecretIndex> {
		this.scanned ??= scanSecrets(this.root, this.secretPaths);
		return this.scanned;
	}

	/**
	 * Whether `real` is a file with more than one name, one of them secret. Only such a file costs
	 * the run's secret walk (at its first sight); a file with one link is never a hard link to anything.
	 */
	private async hardLinkToSecret(real: string): Promise<boolean> {
		const info = await lstat(real).catch(() => null);
		if (info === null || !info.isFile() || info.nlink < 2) return false;
		return (await this.secretIndex()).linkedInodes.has(inodeKey(info));
	}

	createOverlay(from?: OverlaySnapshot): Overlay {
		return new MemoryOverlay(this, from);
	}
}

/** Workspace-relative form of a relative or absolute path; null when it lies outside every root. */
function toRelative(path: string, roots: readonly string[]): string | null {
	if (!isAbsolute(path) && !/^[a-zA-Z]:\//.test(path)) return normaliseRelative(path);
	for (const root of roots) {
		const rel = relative(root, resolve(path));
		if (isAbsolute(rel)) continue;
		const normalised = normaliseRelative(rel.split(sep).join('/'));
		if (normalised !== null) return normalised;
	}
	return null;
}

/**
 * Real path of `absolute`, following symlinks in the file and every parent. For paths that do
 * not exist yet, the deepest existing ancestor is resolved and the rest appended. Returns null
 * for dangling or looping links (a write would follow them to an unknown place).
 */
async function realTarget(absolute: string): Promise<string | null> {
	const rest: string[] = [];
	let current = absolute;
	for (;;) {
		try {
			return join(await realpath(current), ...rest.reverse());
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code !== 'ENOENT' && code !== 'ENOTDIR') return null;
			if (code === 'ENOENT' && (await exists(current))) return null;
			const parent = dirname(current);
			if (parent === current) return null;
			rest.push(basename(current));
			current = parent;
		}
	}
}

async function exists(path: string): Promise<boolean> {
	try {
		await lstat(path);
		return true;
	} catch {
		return false;
	}
}
