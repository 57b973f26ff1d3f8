/**
 * Where one agent's commands run (docs/tools-and-sandbox.md): a copy of the workspace (`ScratchCopy`) or a
 * copy-on-write view of it (`OverlayScratch`, where the sandbox can mount one). Both show what the
 * read tools show (the disk, under the run snapshot, under the agent's edits) and keep what
 * commands change for the agent's next command; neither ever writes the real workspace.
 */
import type { OverlayLayers } from './sandbox/overlayMount.js';
import type { SecretMask } from './sandbox/sandboxProfile.js';
import type { FileStamp, ShownCopy, ShownTree, SnapshotEntry } from '../workspace/runSnapshot.js';

/** A real dependency folder and the place in the copy where a sandbox binds it read-only. */
export interface DependencyMount {
	readonly source: string;
	readonly target: string;
	/** Its secret files and folders (absolute, under `target`): the sandbox covers them. */
	readonly masks?: readonly SecretMask[];
}

/** What the scratch needs of the run snapshot (`RunSnapshot`): each path captured so far with its base. */
export interface CapturedBases {
	captured(): Iterable<[string, SnapshotEntry]>;
	/** Records a file the scratch shows to commands (its `fileStamp`; `copy` holds the bytes shown). */
	expose(rel: string, stamp: FileStamp, copy?: ShownCopy): void;
	/** Records that the scratch showed every file `tree` covers (each exposed before). */
	exposeTree(tree: ShownTree): void;
}

export interface ScratchSpace {
	/** Brings the scratch up to date (made at the first call); returns the folder commands run in. */
	prepare(edits: ReadonlyMap<string, string | null>, bases: CapturedBases): Promise<string>;
	/** The commands' `HOME` (once prepared). */
	readonly homeDir: string | undefined;
	/** Dependency folders the sandbox binds read-only into the folder (a copy only). */
	readonly dependencyMounts: readonly DependencyMount[];
	/** Set for an overlay: the sandbox mounts these layers at the folder for each command. */
	readonly overlayLayers: OverlayLayers | undefined;
	/** Whether a workspace-relative path is (inside) a shared dependency folder. */
	isLinked(path: string): boolean;
	/** Whether a workspace-relative folder exists in the scratch as commands see it. */
	hasFolder(path: string): Promise<boolean>;
	/**
	 * Called after each command: why its output must not reach the agent (null: it may). The overlay
	 * shows the live workspace below it, so a secret created while the command ran was visible to it.
	 */
	afterCommand(): Promise<string | null>;
	/** Removes everything it made. Never rejects. */
	dispose(): Promise<void>;
}
