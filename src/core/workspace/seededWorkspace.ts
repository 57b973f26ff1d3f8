import type { SecretIndex } from './secretScan.js';
import type { Overlay, OverlaySnapshot, PathMode, ResolvedPath, Workspace } from './types.js';

/**
 * The workspace of a run that revises a proposal: every overlay made without a snapshot of its own
 * (each agent's copy, a restarted attempt's, the presenter's when nobody answered) starts with the
 * proposal's edits, so the team revises it instead of starting over. Overlays made from an answer's
 * snapshot are that answer's, which already holds them.
 */
export function withStartingEdits(workspace: Workspace, start: OverlaySnapshot): Workspace {
	return start.edits.size === 0 ? workspace : new SeededWorkspace(workspace, start);
}

class SeededWorkspace implements Workspace {
	readonly root: string;
	readonly maxReadBytes: number | undefined;
	readonly protectedPaths: Workspace['protectedPaths'];
	readonly secretPaths: Workspace['secretPaths'];
	readonly runSnapshot: Workspace['runSnapshot'];
	readonly ripgrep: string | undefined;
	readonly secretIndex: (() => Promise<SecretIndex>) | undefined;

	constructor(
		private readonly inner: Workspace,
		private readonly start: OverlaySnapshot,
	) {
		this.root = inner.root;
		this.maxReadBytes = inner.maxReadBytes;
		this.protectedPaths = inner.protectedPaths;
		this.secretPaths = inner.secretPaths;
		this.runSnapshot = inner.runSnapshot;
		this.ripgrep = inner.ripgrep;
		this.secretIndex = inner.secretIndex?.bind(inner);
	}

	resolve(path: string, mode: PathMode): Promise<ResolvedPath> {
		return this.inner.resolve(path, mode);
	}

	createOverlay(from?: OverlaySnapshot): Overlay {
		return this.inner.createOverlay(from ?? this.start);
	}
}
