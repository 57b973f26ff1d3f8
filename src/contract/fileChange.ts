import type { ChangeKind } from './runEvents.js';

/** One file a run's answer changes, with the base the agents read: a change set's entry, as `result.json` holds it. */
export interface FileChange {
	/** Workspace-relative path with `/` separators. */
	readonly path: string;
	readonly kind: ChangeKind;
	/** sha256 (hex) of the base content the agents read; null for added files. */
	readonly baseHash: string | null;
	/**
	 * The base text the agents read (the run snapshot's); null for added files. Patches, reviews
	 * and accepts diff against it, so a user's edit made during the run is merged, never reverted.
	 */
	readonly base: string | null;
	/** New content; null for deletions. */
	readonly content: string | null;
	/**
	 * Where the write really lands, relative to the workspace, when a link the workspace already
	 * holds (`wf -> .github/workflows`) leads elsewhere than `path` (`executablePaths.ts` judges both).
	 */
	readonly landsAt?: string;
}
