import { join } from 'node:path';
import { baseKind, readBaseDirectory, readBaseText } from './baseFiles.js';
import { PathRefusedError } from './pathRefusedError.js';
import { isSameOrInside, policyRefusal, rootPath } from './pathPolicy.js';
import { sha256 } from './sha256.js';
import type { DirectoryEntry, FileChange, Overlay, OverlaySnapshot, PathMode, Workspace } from './types.js';

type Kind = DirectoryEntry['kind'];

/**
 * Copy-on-write overlay kept entirely in memory: reads fall through to the workspace files,
 * writes and deletes are recorded here and never reach the disk. Keys are normalised
 * workspace-relative paths; `null` marks a deletion of a base file.
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
		return edit !== undefined ? edit : readBaseText(this.absolute(rel));
	}

	async write(path: string, content: string): Promise<void> {
		const rel = await this.resolveOrThrow(path, 'write');
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
		const kind = await this.kindAt(rel);
		if (kind === null) throw new Error(`'${path}' does not exist`);
		if (kind === 'directory') throw new Error(`'${path}' is a directory (delete its files one by one)`);
		// A file that only this overlay created simply disappears; a base file gets a tombstone.
		if ((await baseKind(this.absolute(rel))) === 'file') this.edits.set(rel, null);
		else this.edits.delete(rel);
	}

	async list(path: string): Promise<DirectoryEntry[]> {
		const dir = await this.resolveOrThrow(path, 'read');
		const kind = await this.kindAt(dir);
		if (kind === null) throw new Error(`'${path}' does not exist`);
		if (kind === 'file') throw new Error(`'${path}' is a file, not a directory`);

		const entries = new Map<string, Kind>();
		for (const entry of (await readBaseDirectory(this.absolute(dir))) ?? []) {
			const child = dir === rootPath ? entry.name : `${dir}/${entry.name}`;
			// Hide what reads would refuse anyway (.git/, .massgen/, .env*, links leading out).
			if (policyRefusal(child, child, 'read', []) !== null) continue;
			if (this.edits.get(child) === null) continue;
			if (entry.kind !== 'symlink') entries.set(entry.name, entry.kind);
			else if ((await this.workspace.resolve(child, 'read')).ok) {
				const target = await baseKind(this.absolute(child));
				if (target !== null) entries.set(entry.name, target);
			}
		}
		for (const [key, content] of this.edits) {
			if (content === null || key === dir || !isSameOrInside(key, dir)) continue;
			const rest = dir === rootPath ? key : key.slice(dir.length + 1);
			const slash = rest.indexOf('/');
			if (slash === -1) entries.set(rest, 'file');
			else entries.set(rest.slice(0, slash), 'directory');
		}
		return [...entries]
			.map(([name, entryKind]) => ({ name, kind: entryKind }))
			.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	}

	snapshot(): OverlaySnapshot {
		return Object.freeze({ edits: new Map(this.edits) });
	}

	async changes(): Promise<FileChange[]> {
		const changes: FileChange[] = [];
		for (const path of [...this.edits.keys()].sort()) {
			const content = this.edits.get(path) ?? null;
			const base = await readBaseText(this.absolute(path));
			if (content === null) {
				if (base !== null) changes.push({ path, kind: 'delete', baseHash: sha256(base), content: null });
			} else if (base === null) {
				changes.push({ path, kind: 'add', baseHash: null, content });
			} else if (base !== content) {
				changes.push({ path, kind: 'modify', baseHash: sha256(base), content });
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
		return baseKind(this.absolute(rel));
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
