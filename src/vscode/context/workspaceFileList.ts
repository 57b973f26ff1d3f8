/**
 * The files and folders `#` completion offers in the panel's ask box (docs/context.md): the workspace as
 * `rg --files` lists it (`.gitignore` respected, hidden files included, `.git`, `.massgen` and
 * `node_modules` left out), read once and kept until a file is created or deleted (`invalidate`).
 * Secret paths are never listed: a chip for one could only be refused, and its name alone can
 * tell more than the user meant to share. Fuzzy matching is fuzzysort's (Sublime-like).
 */
import { spawn } from 'node:child_process';
import { go, prepare, type Prepared } from 'fuzzysort';
import type { SecretPaths } from '../../core/workspace/secretPaths.js';

export interface WorkspaceEntry {
	/** Workspace-relative, `/`-separated. */
	readonly path: string;
	readonly folder: boolean;
}

/** More than this many files: the list stops there (a huge tree still completes, from its first files). */
export const maxListedFiles = 50_000;

/** The workspace's files as `rg --files` lists them (sorted by path); rejects when rg cannot run. */
export function listFilesWithRipgrep(
	binary: string,
	root: string,
	limit = maxListedFiles,
): Promise<string[]> {
	const args = [
		'--files',
		'--no-config',
		'--no-require-git',
		'--no-ignore-global',
		'--hidden',
		'-g',
		'!.git',
		'-g',
		'!.massgen',
		'-g',
		'!node_modules',
		'--sort',
		'path',
		'--null',
	];
	return new Promise((resolve, reject) => {
		const child = spawn(binary, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
		const files: string[] = [];
		let pending = '';
		let stderr = '';
		let full = false;
		child.stdout.setEncoding('utf8');
		child.stdout.on('data', (chunk: string) => {
			if (full) return;
			const parts = (pending + chunk).split('\0');
			pending = parts.pop() ?? '';
			for (const part of parts) {
				files.push(part.replace(/^\.\//, ''));
				if (files.length >= limit) {
					full = true;
					child.kill('SIGKILL');
					break;
				}
			}
		});
		child.stderr.setEncoding('utf8');
		child.stderr.on('data', (chunk: string) => {
			if (stderr.length < 2_000) stderr += chunk;
		});
		child.on('error', reject);
		child.on('close', (code) => {
			// 1: no files at all; 2 with output: some folders were unreadable (left out).
			if (full || code === 0 || code === 1 || (code === 2 && files.length > 0)) resolve(files);
			else reject(new Error(`rg --files failed (exit ${String(code)}): ${stderr.trim().slice(0, 300)}`));
		});
	});
}

/** Every listed file and every folder above one, secret ones left out. */
export function workspaceEntries(files: readonly string[], secret: SecretPaths): WorkspaceEntry[] {
	const folders = new Set<string>();
	const entries: WorkspaceEntry[] = [];
	for (const file of files) {
		if (file === '' || secret.match(file) !== null) continue;
		entries.push({ path: file, folder: false });
		for (let slash = file.indexOf('/'); slash !== -1; slash = file.indexOf('/', slash + 1)) {
			folders.add(file.slice(0, slash));
		}
	}
	for (const folder of folders) {
		if (secret.match(folder) === null) entries.push({ path: folder, folder: true });
	}
	return entries;
}

interface Indexed {
	readonly entries: readonly WorkspaceEntry[];
	readonly targets: readonly Prepared[];
}

/** Read once per panel session (at the first `#`), read again after `invalidate`. */
export class WorkspaceFileList {
	private _index: Promise<Indexed> | undefined;

	constructor(
		private readonly _listFiles: () => Promise<readonly string[]>,
		private readonly _secret: () => SecretPaths,
	) {}

	/** A file was created or deleted (or the secret-path setting changed): the next search lists again. */
	invalidate(): void {
		this._index = undefined;
	}

	/**
	 * The best `limit` matches of `query` (fuzzy; shorter paths first on ties). An empty query gives
	 * the top-level entries, folders first.
	 */
	async search(query: string, limit: number): Promise<WorkspaceEntry[]> {
		const index = await this._load();
		const needle = query.trim();
		if (needle === '') {
			return index.entries
				.filter((entry) => !entry.path.includes('/'))
				.sort((a, b) => Number(b.folder) - Number(a.folder) || a.path.localeCompare(b.path))
				.slice(0, limit);
		}
		const results = go(needle, index.targets, { limit: limit * 4, threshold: 0 });
		const byPath = new Map(index.entries.map((entry) => [entry.path, entry]));
		return results
			.map((result) => ({ result, entry: byPath.get(result.target)! }))
			.sort((a, b) => b.result.score - a.result.score || a.entry.path.length - b.entry.path.length)
			.slice(0, limit)
			.map(({ entry }) => entry);
	}

	private _load(): Promise<Indexed> {
		const loading = (this._index ??= this._listFiles().then((files) => {
			const entries = workspaceEntries(files, this._secret());
			return { entries, targets: entries.map((entry) => prepare(entry.path)) };
		}));
		// A failed listing is not kept: the next `#` tries again.
		loading.catch(() => {
			if (this._index === loading) this._index = undefined;
		});
		return loading;
	}
}
