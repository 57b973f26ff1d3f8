import { join } from 'node:path';
import { baseKind, readBaseDirectory } from './baseFiles.js';
import { PathRefusedError } from './pathRefusedError.js';
import { isSameOrInside, policyRefusal, rootPath } from './pathPolicy.js';
import { FileTooLargeError, unkeptHash } from './runSnapshot.js';
import type { DirectoryEntry, Overlay, OverlaySnapshot, PathMode, Workspace } from './types.js';
import type { FileChange } from '../../contract/fileChange.js';

type Kind = DirectoryEntry['kind'];

/**
 * Copy-on-write overlay kept entirely in memory: reads fall through to the run snapshot (each
 * base file as the run first saw it), writes and deletes are recorded here and never reach the
 * disk. Keys are normalised workspace-relative paths; `null` marks a deletion of a base file.
 */
export class MemoryOverlay implements Overlay {
	private readonly edits: Map<string, string | null>;

	constructor(
		readonly workspace: Workspace,
		from?: OverlaySnapshot,
	) {
		this.edits = new Map(from?.edits ?? []);
	}

	async readText(path: string): Promise<string | null> {
		const rel = await this.resolveOrThrow(path, 'read');
		const edit = this.edits.get(rel);
		return edit !== undefined ? edit : this.workspace.runSnapshot.text(rel);
	}

	async write(path: string, content: string): Promise<void> {
		const rel = await this.resolveOrThrow(path, 'write');
		await this.refuseTooLarge(rel);
		if ((await this.kindAt(rel)) === 'directory') throw new Error(`'${path}' is a directory`);
		for (let parent = parentOf(rel); parent !== rootPath; parent = parentOf(parent)) {
			if ((await this.kindAt(parent)) === 'file') {
				throw new Error(`cannot create '${path}': '${parent}' is a file`);
			}
		}
		this.edits.set(rel, content);
	}

	async delete(path: string): Promise<void> {
		const rel = await this.resolveOrThrow(path, 'write');
		await this.refuseTooLarge(rel);
		const kind = await this.kindAt(rel);
		if (kind === null) throw new Error(`'${path}' does not exist`);
		if (kind === 'directory') throw new Error(`'${path}' is a directory (delete its files one by one)`);
		// A file that only this overlay created simply disappears; a base file gets a tombstone.
		if ((await this.workspace.runSnapshot.entry(rel)).kind === 'file') this.edits.set(rel, null);
		else this.edits.delete(rel);
	}

	async list(path: string): Promise<DirectoryEntry[]> {
		const dir = await this.resolveOrThrow(path, 'read');
		const kind = await this.kindAt(dir);
		if (kind === null) throw new Error(`'${path}' does not exist`);
		if (kind === 'file') throw new Error(`'${path}' is a file, not a directory`);

		const snapshot = this.workspace.runSnapshot;
		const entries = new Map<string, Kind>();
		// Names that are symlinks (inside the workspace): walks do not descend into them (loops).
		const links = new Set<string>();
		for (const entry of (await readBaseDirectory(this.absolute(dir))) ?? []) {
			const child = dir === rootPath ? entry.name : `${dir}/${entry.name}`;
			// Hide what reads would refuse anyway (.git/, .massgen/, .env*, links leading out).
			if (policyRefusal(child, child, 'read', [], this.workspace.secretPaths) !== null) continue;
			if (this.edits.get(child) === null) continue;
			let kind: Kind | null = entry.kind === 'symlink' ? null : entry.kind;
			if (entry.kind === 'symlink' && (await this.workspace.resolve(child, 'read')).ok) {
				kind = await baseKind(this.absolute(child));
			}
			// Listing does not capture: reading every listed file would cost memory and I/O for files the
			// team never opens. What a read captured as absent stays hidden (below).
			if (kind !== null) entries.set(entry.name, kind);
			if (kind !== null && entry.kind === 'symlink') links.add(entry.name);
		}
		// What the run captured earlier stays visible as it was, whatever the disk holds now.
		for (const [key, entry] of snapshot.captured()) {
			if (key === dir || !isSameOrInside(key, dir) || this.edits.get(key) === null) continue;
			const rest = dir === rootPath ? key : key.slice(dir.length + 1);
			const slash = rest.indexOf('/');
			if (slash !== -1) {
				if (entry.kind !== 'absent') entries.set(rest.slice(0, slash), 'directory');
			} else if (entry.kind !== 'absent') entries.set(rest, 'file');
			else if (entries.get(rest) === 'file') entries.delete(rest);
		}
		for (const [key, content] of this.edits) {
			if (content === null || key === dir || !isSameOrInside(key, dir)) continue;
			const rest = dir === rootPath ? key : key.slice(dir.length + 1);
			const slash = rest.indexOf('/');
			if (slash === -1) entries.set(rest, 'file');
			else entries.set(rest.slice(0, slash), 'directory');
		}
		return [...entries]
			.map(([name, entryKind]) =>
				links.has(name) ? { name, kind: entryKind, link: true } : { name, kind: entryKind },
			)
			.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	}

	snapshot(): OverlaySnapshot {
		return Object.freeze({ edits: new Map(this.edits) });
	}

	async changes(): Promise<FileChange[]> {
		const changes: FileChange[] = [];
		for (const path of [...this.edits.keys()].sort()) {
			const content = this.edits.get(path) ?? null;
			// Every edited path was touched (and so captured) when the edit was made.
			const base = await this.workspace.runSnapshot.entry(path);
			if (base.kind === 'too-large') continue;
			if (content === null) {
				if (base.kind === 'file') {
					changes.push({ path, kind: 'delete', baseHash: base.hash, base: base.text, content: null });
				}
			} else if (base.kind === 'absent' && base.unkept) {
				// A command saw a file here that the user deleted since: not an add (that would quietly
				// recreate it) but a change of a base that matches nothing, which accepting calls a conflict.
				changes.push({ path, kind: 'modify', baseHash: unkeptHash(''), base: '', content });
			} else if (base.kind === 'absent') {
				changes.push({ path, kind: 'add', baseHash: null, base: null, content });
			} else if (base.text !== content) {
				changes.push({ path, kind: 'modify', baseHash: base.hash, base: base.text, content });
			}
		}
		return changes;
	}

	/** What this overlay shows at a normalised path. */
	private async kindAt(rel: string): Promise<Kind | null> {
		const edit = this.edits.get(rel);
		if (typeof edit === 'string') return 'file';
		for (const [key, content] of this.edits) {
			if (content !== null && key !== rel && isSameOrInside(key, rel)) return 'directory';
		}
		if (edit === null) return null;
		const base = await this.workspace.runSnapshot.entry(rel);
		if (base.kind !== 'absent') return 'file';
		for (const [key, entry] of this.workspace.runSnapshot.captured()) {
			if (entry.kind !== 'absent' && key !== rel && isSameOrInside(key, rel)) return 'directory';
		}
		return (await baseKind(this.absolute(rel))) === 'directory' ? 'directory' : null;
	}

	private async refuseTooLarge(rel: string): Promise<void> {
		const base = await this.workspace.runSnapshot.entry(rel);
		if (base.kind === 'too-large') {
			throw new FileTooLargeError(rel, base.size, this.workspace.runSnapshot.maxFileBytes);
		}
	}

	private async resolveOrThrow(path: string, mode: PathMode): Promise<string> {
		const resolved = await this.workspace.resolve(path, mode);
		if (!resolved.ok) throw new PathRefusedError(resolved.path, resolved.reason);
		return resolved.path;
	}

	private absolute(rel: string): string {
		return join(this.workspace.root, rel);
	}
}

function parentOf(rel: string): string {
	const slash = rel.lastIndexOf('/');
	return slash === -1 ? rootPath : rel.slice(0, slash);
}
