/**
 * Every secret file of the workspace, found once per run at any depth: dependency folders
 * (`node_modules/pkg/.env`, `.venv/**\/.env`) and ignored folders included, which the scratch
 * copy, the overlay's masks and the coding agents' folders otherwise take whole or leave unwalked.
 * One walk of folder listings (no file reads, no `stat` per file): what the policy names is
 * recorded, top-most only (a secret folder is one entry). `.git/` and `.massgen/` are never shown
 * by any tool and are not walked.
 *
 * Hard links: a secret file's content under another name (`notes.txt` with the inode of `.env`)
 * is secret too. Names say nothing there, so each secret file is `lstat`ed (few); only when one has
 * more than one link is the workspace walked again with a `stat` per file to find its other names.
 */
import type { Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SecretPaths } from './secretPaths.js';

export interface SecretEntry {
	/** Workspace-relative, `/`-separated. */
	readonly path: string;
	readonly kind: 'file' | 'folder' | 'link' | 'other';
}

export interface SecretIndex {
	/** Secret paths by the policy's names, top-most (nothing inside a listed folder is listed again). */
	readonly secrets: readonly SecretEntry[];
	/** Regular files outside `secrets` that are hard links to a secret file. */
	readonly hardLinks: readonly string[];
	/** `dev:ino` of every secret file with more than one link (`hardLinks` and any made later). */
	readonly linkedInodes: ReadonlySet<string>;
	/** Entries listed by the walk (files, folders, links), for the record. */
	readonly entries: number;
	/** Whether `path` (normalised, workspace-relative) is, or is inside, a secret or a hard link to one. */
	covers(path: string): boolean;
}

/** Folders no tool shows: never walked. */
const unwalked = new Set(['.git', '.massgen']);

/** Walks `root` once; `secrets` is the run's policy. */
export async function scanSecrets(root: string, secrets: SecretPaths): Promise<SecretIndex> {
	const found: SecretEntry[] = [];
	/** Files inside secret folders (`.ssh/id_rsa`, `.aws/credentials`): their inodes count too. */
	const secretFiles: string[] = [];
	let entries = 0;
	await walk(root, async (path, entry) => {
		entries += 1;
		const name = entry.name.toLowerCase();
		if (unwalked.has(name)) return false;
		if (secrets.match(path) === null) return entry.isDirectory();
		const kind = entry.isDirectory()
			? 'folder'
			: entry.isFile()
				? 'file'
				: entry.isSymbolicLink()
					? 'link'
					: 'other';
		found.push({ path, kind });
		if (kind === 'file') secretFiles.push(path);
		if (kind === 'folder') {
			await walk(join(root, path), (inner, innerEntry) => {
				if (innerEntry.isFile()) secretFiles.push(`${path}/${inner}`);
				return Promise.resolve(innerEntry.isDirectory());
			});
		}
		return false;
	});
	const linkedInodes = new Set<string>();
	for (const path of secretFiles) {
		const info = await lstat(join(root, path)).catch(() => null);
		if (info?.isFile() && info.nlink > 1) linkedInodes.add(inodeKey(info));
	}
	const hardLinks = linkedInodes.size === 0 ? [] : await findLinks(root, found, linkedInodes);
	return indexOf(found, hardLinks, linkedInodes, entries);
}

/** The key a file's identity is compared by. */
export function inodeKey(info: Pick<Stats, 'dev' | 'ino'>): string {
	return `${info.dev}:${info.ino}`;
}

function indexOf(
	secrets: readonly SecretEntry[],
	hardLinks: readonly string[],
	linkedInodes: ReadonlySet<string>,
	entries: number,
): SecretIndex {
	const tops = new Set([...secrets.map((entry) => entry.path), ...hardLinks]);
	return {
		secrets,
		hardLinks,
		linkedInodes,
		entries,
		covers(path) {
			for (let cut = path.length; cut > 0; cut = path.lastIndexOf('/', cut - 1)) {
				if (tops.has(path.slice(0, cut))) return true;
			}
			return false;
		},
	};
}

/** The other names of the linked secret inodes: a `stat` of every regular file outside the secrets. */
async function findLinks(
	root: string,
	secrets: readonly SecretEntry[],
	inodes: ReadonlySet<string>,
): Promise<string[]> {
	const links: string[] = [];
	await walk(root, async (path, entry) => {
		if (unwalked.has(entry.name.toLowerCase())) return false;
		if (secrets.some((secret) => path === secret.path || path.startsWith(`${secret.path}/`))) return false;
		if (entry.isDirectory()) return true;
		if (!entry.isFile()) return false;
		const info = await lstat(join(root, path)).catch(() => null);
		if (info !== null && info.nlink > 1 && inodes.has(inodeKey(info))) links.push(path);
		return false;
	});
	return links;
}

interface Entry {
	readonly name: string;
	isDirectory(): boolean;
	isFile(): boolean;
	isSymbolicLink(): boolean;
}

/**
 * Breadth-first over folder listings, 16 folders at a time (links are never followed); `visit`
 * says whether to descend into a folder. Unreadable folders are skipped.
 */
async function walk(root: string, visit: (path: string, entry: Entry) => Promise<boolean>): Promise<void> {
	const pending = [''];
	while (pending.length > 0) {
		const batch = pending.splice(0, 16);
		await Promise.all(
			batch.map(async (folder) => {
				const listing = await readdir(join(root, folder), { withFileTypes: true }).catch(() => []);
				// A folder's entries at once: the hard-link pass waits on an lstat for each.
				await Promise.all(
					listing.map(async (entry) => {
						const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
						if (await visit(path, entry)) pending.push(path);
					}),
				);
			}),
		);
	}
}
