/**
 * Contracts of the workspace layer: a read-only view of the user's files, per-agent
 * copy-on-write overlays, immutable snapshots and change sets. Nothing here writes to disk
 * except `applyChanges`, which only the CLI's --apply and the editor's Accept call.
 */
import type { FileChange } from '../../contract/fileChange.js';
import type { RunSnapshot } from './runSnapshot.js';
import type { SecretPaths } from './secretPaths.js';
import type { SecretIndex } from './secretScan.js';

/** Immutable record of an overlay's edits at one moment (what an answer carries). */
export interface OverlaySnapshot {
	/** Path → new content, or null for a deletion. */
	readonly edits: ReadonlyMap<string, string | null>;
}

export type PathMode = 'read' | 'write';

export type ResolvedPath =
	| { readonly ok: true; readonly path: string; readonly absolute: string }
	| { readonly ok: false; readonly path: string; readonly reason: string };

export interface DirectoryEntry {
	readonly name: string;
	readonly kind: 'file' | 'directory';
	/** A symlink (to `kind`, inside the workspace): walks do not descend into linked folders, which may loop. */
	readonly link?: boolean;
}

/** Read-only view of the workspace root with the path-safety policy (docs/tools-and-sandbox.md). */
export interface Workspace {
	readonly root: string;
	/** Cap in bytes for one `read_file` result (longer files are truncated); tools default to 256 KiB. */
	readonly maxReadBytes?: number;
	/** Normalised workspace-relative files or folders that are never written (accepts check them too). */
	readonly protectedPaths: readonly string[];
	/** Files no tool reads, lists, searches, copies or writes (built-in list plus the user's). */
	readonly secretPaths: SecretPaths;
	/** The bases the run's agents read, each captured at its first touch. */
	readonly runSnapshot: RunSnapshot;
	/** A ripgrep binary `search_files` reads the disk with; without one, its own walker. */
	readonly ripgrep?: string;
	/**
	 * Every secret of the workspace at any depth and the hard links to them (`scanSecrets`), walked
	 * once per run at the first call: the scratch masks and the coding agents' folders use it.
	 */
	secretIndex?(): Promise<SecretIndex>;
	/** Resolves a user- or model-supplied path; refuses escapes, `.git/`, `.massgen/`, `.env*`, protected paths. */
	resolve(path: string, mode: PathMode): Promise<ResolvedPath>;
	createOverlay(from?: OverlaySnapshot): Overlay;
}

export interface Overlay {
	readonly workspace: Workspace;
	/** Current text of a file as this overlay sees it; null when it does not exist. */
	readText(path: string): Promise<string | null>;
	write(path: string, content: string): Promise<void>;
	delete(path: string): Promise<void>;
	list(path: string): Promise<DirectoryEntry[]>;
	snapshot(): OverlaySnapshot;
	/** The overlay's edits against the base, as a change set (no-op edits dropped). */
	changes(): Promise<FileChange[]>;
}
