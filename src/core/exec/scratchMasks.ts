/**
 * What the overlay scratch hides of the real workspace: the scratch copy's own rules (see
 * `commandScratch.ts`) as a list of whiteouts instead of a copy. The files git would see come from
 * ripgrep (`rg --files`: the `.gitignore` rules, fast on a monorepo); one walk of folder listings
 * (no file reads) then marks the top-most entry of everything else — `.git/`, `.massgen/`, secrets,
 * ignored files and folders, links that leave the workspace — so a 5,000-file `dist/` is one
 * whiteout. Dependency folders stay visible as they are (writes to them land in the upper layer).
 */
import { spawn } from 'node:child_process';
import { readdir, readlink, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isRootOrInside } from '../util/paths.js';
import type { SecretPaths } from '../workspace/secretPaths.js';

export interface MaskRules {
	readonly workspace: string;
	readonly ripgrep: string;
	readonly secretPaths: SecretPaths;
	/** Lower-case folder names kept whole and unwalked (`node_modules`…). */
	readonly linked: ReadonlySet<string>;
	readonly skipped: ReadonlySet<string>;
}

export interface ScratchMasks {
	/** Workspace-relative paths to hide (top-most entries only). */
	readonly hidden: string[];
	/** Links kept whose text is absolute: re-pointed at `target` (workspace-relative) in the view. */
	readonly absoluteLinks: { readonly path: string; readonly target: string }[];
}

export async function scratchMasks(rules: MaskRules, signal?: AbortSignal): Promise<ScratchMasks> {
	const files = await listedFiles(rules, signal);
	const folders = new Set<string>();
	for (const file of files) {
		for (let cut = file.lastIndexOf('/'); cut > 0; cut = file.lastIndexOf('/', cut - 1)) {
			const folder = file.slice(0, cut);
			if (folders.has(folder)) break;
			folders.add(folder);
		}
	}
	const shown = (path: string) => files.has(path) || folders.has(path);
	const masks: ScratchMasks = { hidden: [], absoluteLinks: [] };
	await walk(rules, '', async (path, entry) => {
		const name = entry.name.toLowerCase();
		if (rules.skipped.has(name) || rules.secretPaths.match(path) !== null) return 'hide';
		if (entry.isDirectory()) {
			if (rules.linked.has(name)) return 'keep';
			return folders.has(path) ? 'descend' : 'hide';
		}
		if (entry.isSymbolicLink()) {
			const target = await linkTarget(rules.workspace, path);
			if (target === null || !shown(target)) return 'hide';
			if ((await readlink(join(rules.workspace, path))).startsWith('/')) {
				masks.absoluteLinks.push({ path, target });
			}
			return 'keep';
		}
		return files.has(path) ? 'keep' : 'hide';
	}).then((hidden) => masks.hidden.push(...hidden));
	return masks;
}

/**
 * Secrets that appear in the workspace after the masks were made (a `.env` the user creates
 * mid-run). Looked for before and after every command, so it must be cheap on a monorepo: a
 * folder's listing is read again only when its modification time changed (a new name in a folder
 * changes it), so a look is one `stat` per folder. A time within 2 s of when the folder was read is
 * not trusted (a coarse clock could hide a change in the same tick), as git does for its index.
 */
export class SecretWatch {
	private readonly folders = new Map<string, { readonly mtime: bigint; readonly subfolders: string[] }>();

	constructor(private readonly rules: MaskRules) {}

	/** Secret paths not in `hidden`, found in the workspace now. */
	async look(hidden: ReadonlySet<string>): Promise<string[]> {
		const found: string[] = [];
		const pending = [''];
		while (pending.length > 0) {
			const batch = pending.splice(0, 16);
			await Promise.all(
				batch.map(async (folder) => pending.push(...(await this.visit(folder, hidden, found)))),
			);
		}
		return found;
	}

	/** The folder's subfolders to visit; its new secrets go to `found`. */
	private async visit(folder: string, hidden: ReadonlySet<string>, found: string[]): Promise<string[]> {
		const full = join(this.rules.workspace, folder);
		const info = await stat(full, { bigint: true }).catch(() => null);
		if (info === null) {
			this.folders.delete(folder);
			return [];
		}
		const known = this.folders.get(folder);
		if (known !== undefined && known.mtime === info.mtimeNs) return known.subfolders;
		const readAt = BigInt(Date.now()) * 1_000_000n;
		const entries = await readdir(full, { withFileTypes: true }).catch(() => []);
		const subfolders: string[] = [];
		for (const entry of entries) {
			const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
			if (hidden.has(path)) continue;
			const name = entry.name.toLowerCase();
			if (this.rules.skipped.has(name) || this.rules.secretPaths.match(path) !== null) found.push(path);
			else if (entry.isDirectory() && !this.rules.linked.has(name)) subfolders.push(path);
		}
		const settled = readAt - info.mtimeNs > 2_000_000_000n;
		if (settled) this.folders.set(folder, { mtime: info.mtimeNs, subfolders });
		else this.folders.delete(folder);
		return subfolders;
	}
}

type Verdict = 'hide' | 'keep' | 'descend';
interface Entry {
	readonly name: string;
	isDirectory(): boolean;
	isSymbolicLink(): boolean;
}

/** Depth-first over folder listings, 16 folders at a time; returns the paths judged `hide`. */
async function walk(
	rules: MaskRules,
	start: string,
	judge: (path: string, entry: Entry) => Promise<Verdict>,
): Promise<string[]> {
	const hidden: string[] = [];
	const pending = [start];
	while (pending.length > 0) {
		const batch = pending.splice(0, 16);
		await Promise.all(
			batch.map(async (folder) => {
				const entries = await readdir(join(rules.workspace, folder), { withFileTypes: true }).catch(() => []);
				for (const entry of entries) {
					const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
					const verdict = await judge(path, entry);
					if (verdict === 'hide') hidden.push(path);
					else if (verdict === 'descend') pending.push(path);
				}
			}),
		);
	}
	return hidden;
}

/** The workspace-relative path a link resolves to, or null when it leaves the workspace (or dangles). */
async function linkTarget(workspace: string, path: string): Promise<string | null> {
	const real = await realpath(join(workspace, path)).catch(() => null);
	if (real === null || !isRootOrInside(workspace, real)) return null;
	return relative(workspace, real).split(sep).join('/');
}

/** `rg --files` with the scratch copy's ignore rules (those of `search_files`), `/`-separated. */
function listedFiles(rules: MaskRules, signal?: AbortSignal): Promise<Set<string>> {
	const args = [
		'--files',
		'--no-config',
		'--no-require-git',
		'--no-ignore-global',
		'--no-ignore-dot',
		'--no-ignore-exclude',
		'--no-ignore-parent',
		'--hidden',
		'--glob-case-insensitive',
		...[...rules.skipped, ...rules.linked].flatMap((name) => ['-g', `!${name}`]),
		'--null',
	];
	return new Promise((resolve, reject) => {
		const child = spawn(rules.ripgrep, args, {
			cwd: rules.workspace,
			stdio: ['ignore', 'pipe', 'pipe'],
			...(signal ? { signal } : {}),
		});
		const files = new Set<string>();
		let rest = '';
		let stderr = '';
		child.stdout.setEncoding('utf8');
		child.stdout.on('data', (chunk: string) => {
			const parts = (rest + chunk).split('\0');
			rest = parts.pop()!;
			for (const part of parts) files.add(sep === '/' ? part : part.split(sep).join('/'));
		});
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.once('error', reject);
		child.once('close', (code) => {
			// 1 = nothing listed (an empty workspace); 2 with output = some folder was unreadable.
			if (code === 0 || code === 1 || (code === 2 && files.size > 0)) resolve(files);
			else reject(new Error(`ripgrep could not list the workspace: ${stderr.trim() || `exit ${code}`}`));
		});
	});
}
