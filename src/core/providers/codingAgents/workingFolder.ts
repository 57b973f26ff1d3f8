/**
 * A coding agent's private folder (docs/coding-agents.md): a scratch copy of the workspace (`ScratchCopy`:
 * what git would see, no `.git`, secret paths left out) showing the run snapshot's bases under the
 * overlay's edits — what our read tools show. The CLI edits only this folder; after each turn the
 * differences from what was laid out become `write_file` / `delete_file` calls the runtime applies
 * to the overlay under the usual checks, and a refused one is put back here.
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { ScratchCopy } from '../../exec/commandScratch.js';
import { readRegularFile } from '../../util/regularFile.js';
import { defaultMaxFileBytes } from '../../workspace/runSnapshot.js';
import type { Overlay } from '../../workspace/types.js';

/** One file the CLI changed: new text, or null when it deleted the file. */
export interface FolderEdit {
	readonly path: string;
	readonly content: string | null;
}

export interface FolderDiff {
	readonly edits: readonly FolderEdit[];
	/** Changed files that are not UTF-8 text or over the file cap: no tool can carry them, so they stay out of the answer. */
	readonly skipped: readonly string[];
}

const skippedFolders = new Set(['.git', '.massgen']);

export class WorkingFolder {
	private readonly copy: ScratchCopy;
	/** Path → sha256 of each file as laid out for the turn. */
	private laidOut = new Map<string, string>();
	/** The hash of each file at its last stat stamp: a walk reads only what changed since. */
	private readonly stamps = new Map<string, { readonly stamp: string; readonly hash: string }>();
	private root: string | undefined;
	private linked: ReadonlySet<string> = new Set();

	constructor(workspaceRoot: string, label: string, overlay: Overlay) {
		this.copy = new ScratchCopy({
			workspaceRoot,
			label: `cc-${label}`,
			secretPaths: overlay.workspace.secretPaths,
			// The run's secret walk: secrets in dependency folders are covered where the sandbox binds them.
			...(overlay.workspace.secretIndex ? { secretIndex: () => overlay.workspace.secretIndex!() } : {}),
			// Empty folders where a sandbox binds the real ones read-only: a link would lead a write out.
			dependencies: 'mount',
		});
	}

	get dir(): string | undefined {
		return this.root;
	}

	/** The CLI's `HOME`, beside the folder (never inside it). */
	get homeDir(): string | undefined {
		return this.copy.homeDir;
	}

	get dependencyMounts() {
		return this.copy.dependencyMounts;
	}

	/** `dev:ino` of secret files with other names (the run's secret walk), once prepared. */
	get linkedInodes(): ReadonlySet<string> {
		return this.linked;
	}

	/** Lays the overlay's view into the folder and records it; returns the folder. */
	async prepare(overlay: Overlay): Promise<string> {
		this.root = await this.copy.prepare(overlay.snapshot().edits, overlay.workspace.runSnapshot);
		this.linked = (await overlay.workspace.secretIndex?.())?.linkedInodes ?? new Set();
		this.laidOut = await this.hashes();
		return this.root;
	}

	/** What the CLI changed since `prepare`. */
	async diff(): Promise<FolderDiff> {
		const now = await this.hashes();
		const edits: FolderEdit[] = [];
		const skipped: string[] = [];
		for (const [path, hash] of now) {
			if (this.laidOut.get(path) === hash) continue;
			const read = await readRegularFile(join(this.root!, path), defaultMaxFileBytes).catch(() => null);
			// Over the run's file cap (or swapped for a FIFO): no tool could carry it either.
			const text = read === null || read.size > defaultMaxFileBytes ? null : decodeUtf8(read.bytes);
			if (text === null) skipped.push(path);
			else edits.push({ path, content: text });
		}
		for (const path of this.laidOut.keys()) {
			if (!now.has(path)) edits.push({ path, content: null });
		}
		return { edits, skipped };
	}

	/** Puts a refused edit back: the overlay's view of `path`, which the runtime left unchanged. */
	async revert(path: string, overlay: Overlay): Promise<void> {
		if (this.root === undefined) return;
		const target = join(this.root, path);
		if (relative(this.root, target).startsWith('..')) return;
		await rm(target, { force: true, recursive: true });
		const text = await overlay.readText(path).catch(() => null);
		if (text === null) return;
		await mkdir(dirname(target), { recursive: true });
		await writeFile(target, text);
	}

	async dispose(): Promise<void> {
		await this.copy.dispose();
	}

	private async hashes(): Promise<Map<string, string>> {
		const found = new Map<string, string>();
		const mounts = new Set(this.copy.dependencyMounts.map((mount) => mount.target));
		const walk = async (folder: string): Promise<void> => {
			for (const entry of await readdir(folder, { withFileTypes: true })) {
				const full = join(folder, entry.name);
				if (entry.isDirectory()) {
					if (!skippedFolders.has(entry.name.toLowerCase()) && !mounts.has(full)) await walk(full);
				} else if (entry.isFile()) {
					const info = await lstat(full);
					if (!info.isFile()) continue;
					const path = relative(this.root!, full).split(sep).join('/');
					// A file is read again only when its inode, size or ctime moved (any write sets ctime).
					const stamp = `${info.ino}:${info.size}:${info.ctimeMs}`;
					const known = this.stamps.get(path);
					// A file the CLI made huge is never read whole: its stamp stands for its content.
					const hash =
						known?.stamp === stamp
							? known.hash
							: info.size > defaultMaxFileBytes
								? `too-large:${stamp}`
								: createHash('sha256')
										.update((await readRegularFile(full, defaultMaxFileBytes)).bytes)
										.digest('hex');
					this.stamps.set(path, { stamp, hash });
					found.set(path, hash);
				}
			}
		};
		await walk(this.root!);
		return found;
	}
}

function decodeUtf8(bytes: Buffer): string | null {
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
	} catch {
		return null;
	}
}
