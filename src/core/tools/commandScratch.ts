/**
 * The scratch copy a `run_command` call runs in: a copy of the workspace in the OS temp folder
 * with the agent's overlay applied, so commands see the agent's proposed edits and never write
 * the real workspace (DESIGN §3/§4: nothing is written before the user accepts).
 *
 * What is copied, and why:
 * - what git would see: files ignored by `.gitignore` (build output, caches, local secrets) are
 *   left out, and so are `.git/` (no repository: commands cannot commit, push or rewrite
 *   history), `.massgen/` and `.env*` secrets files (as for every tool);
 * - dependency folders (`node_modules`, `.venv`, `venv`) are not copied, so `npm test` or
 *   `pytest` work without copying gigabytes. With a sandbox that can bind folders (bubblewrap) the
 *   copy holds an empty folder where the sandbox binds the real one read-only (`dependencyMounts`);
 *   otherwise (macOS, unsandboxed) a link to the real one, which the sandbox-exec profile keeps
 *   read-only and an unsandboxed command could write through (the risk the user opted in to);
 * - symlinks are kept when they stay inside the workspace, dropped otherwise.
 * One copy per agent per run, made at its first command, with a scratch home beside it (the
 * commands' `HOME`); before each command the overlay's
 * current edits are written in (and edits the overlay no longer has are restored). Files a
 * command creates or changes stay in the scratch copy: they are not part of the agent's answer.
 */
import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, mkdtemp, readdir, readFile, readlink, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { builtinSecretPaths, type SecretPaths } from '../workspace/secretPaths.js';

export interface ScratchOptions {
	readonly workspaceRoot: string;
	/** Part of the temp folder's name (e.g. the agent id). */
	readonly label: string;
	/** Folder names linked instead of copied, at any depth. */
	readonly linkedFolders?: readonly string[];
	/** Refuse to copy more than this (default 512 MiB). */
	readonly maxBytes?: number;
	readonly maxFiles?: number;
	/** Never copied (default: the built-in secret paths only). */
	readonly secretPaths?: SecretPaths;
	/** `mount`: dependency folders are mount points for the sandbox; `link` (default): links to the real ones. */
	readonly dependencies?: 'mount' | 'link';
}

/** A real dependency folder and the place in the copy where a sandbox binds it read-only. */
export interface DependencyMount {
	readonly source: string;
	readonly target: string;
}

export class ScratchTooLargeError extends Error {
	override readonly name = 'ScratchTooLargeError';
}

export const defaultLinkedFolders: readonly string[] = ['node_modules', '.venv', 'venv'];
const skippedFolders = new Set(['.git', '.massgen']);

export class ScratchCopy {
	private root: string | undefined;
	private creating: Promise<string> | undefined;
	/** Overlay content last written per path (null = deleted). */
	private readonly applied = new Map<string, string | null>();
	private readonly linked: ReadonlySet<string>;
	private readonly mounts: DependencyMount[] = [];

	constructor(private readonly options: ScratchOptions) {
		this.linked = new Set((options.linkedFolders ?? defaultLinkedFolders).map((name) => name.toLowerCase()));
	}

	/** The scratch folder, once created. */
	get dir(): string | undefined {
		return this.root;
	}

	/** Creates the copy (once) and applies the overlay's edits; returns the folder. */
	async prepare(edits: ReadonlyMap<string, string | null>): Promise<string> {
		this.creating ??= this.create();
		const root = await this.creating;
		await this.sync(root, edits);
		return root;
	}

	/** The commands' `HOME`, once created: beside the copy, never inside it (it is not part of the workspace). */
	get homeDir(): string | undefined {
		return this.root === undefined ? undefined : `${this.root}.home`;
	}

	/** The dependency folders: bound read-only at `target` (`mount`), or linked there (`link`: a sandbox may still allow reading `source`). */
	get dependencyMounts(): readonly DependencyMount[] {
		return this.mounts;
	}

	/** Whether a workspace-relative folder is (inside) a linked dependency folder. */
	isLinked(path: string): boolean {
		return path.split('/').some((segment) => this.linked.has(segment.toLowerCase()));
	}

	/** Removes the copy (links are removed, never followed). Never rejects. */
	async dispose(): Promise<void> {
		const root = this.root ?? (await this.creating?.catch(() => undefined));
		this.root = undefined;
		if (root === undefined) return;
		for (const folder of [root, `${root}.home`]) await rm(folder, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined);
	}

	private async create(): Promise<string> {
		const safeLabel = this.options.label.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40);
		const root = await realpath(await mkdtemp(join(tmpdir(), `massgen-cmd-${safeLabel}-`)));
		this.root = root;
		const budget = { bytes: this.options.maxBytes ?? 512 * 1024 * 1024, files: this.options.maxFiles ?? 100_000 };
		const workspace = await realpath(this.options.workspaceRoot);
		try {
			// Private like the copy (mkdtemp): nothing a command leaves there (a setuid file) is reachable by other users.
			await mkdir(`${root}.home`, { mode: 0o700 });
			await mkdir(join(`${root}.home`, 'tmp'));
			await this.copyFolder(workspace, workspace, root, [], budget);
		} catch (error) {
			for (const folder of [root, `${root}.home`]) await rm(folder, { recursive: true, force: true }).catch(() => undefined);
			this.root = undefined;
			throw error;
		}
		return root;
	}

	private async copyFolder(workspace: string, from: string, to: string, rules: readonly { base: string; ignore: Ignore }[], budget: { bytes: number; files: number }): Promise<void> {
		const gitignore = await readFile(join(from, '.gitignore'), 'utf8').catch(() => null);
		const scoped = gitignore === null ? rules : [...rules, { base: from, ignore: ignore().add(gitignore) }];
		const entries = await readdir(from, { withFileTypes: true });
		for (const entry of entries) {
			const source = join(from, entry.name);
			const target = join(to, entry.name);
			const lower = entry.name.toLowerCase();
			if (skippedFolders.has(lower) || (this.options.secretPaths ?? builtinSecretPaths).match(relative(workspace, source).split(sep).join('/')) !== null) continue;
			// A workspace that contains the temp folder must not copy the copy into itself.
			if (isInside(this.root!, source)) continue;
			const isDirectory = entry.isDirectory();
			if (isDirectory && this.linked.has(lower)) {
				if (this.options.dependencies === 'mount') await mkdir(target);
				else await symlink(source, target, 'junction');
				this.mounts.push({ source, target });
				continue;
			}
			if (isIgnored(scoped, source, isDirectory)) continue;
			if (entry.isSymbolicLink()) {
				await this.copyLink(workspace, source, target);
			} else if (isDirectory) {
				await mkdir(target);
				await this.copyFolder(workspace, source, target, scoped, budget);
			} else if (entry.isFile()) {
				const size = (await stat(source)).size;
				budget.bytes -= size;
				budget.files -= 1;
				if (budget.bytes < 0 || budget.files < 0) {
					throw new ScratchTooLargeError(`the workspace is too large for a scratch copy (over ${this.options.maxBytes ?? 512 * 1024 * 1024} bytes or ${this.options.maxFiles ?? 100_000} files)`);
				}
				await copyFile(source, target, constants.COPYFILE_FICLONE);
			}
		}
	}

	/** Keeps a link that stays inside the workspace (re-pointed inside the copy); drops others. */
	private async copyLink(workspace: string, source: string, target: string): Promise<void> {
		const real = await realpath(source).catch(() => null);
		if (real === null || !isInside(workspace, real)) return;
		const linkText = await readlink(source);
		const destination = isAbsolute(linkText) ? join(this.root!, relative(workspace, real)) : linkText;
		await symlink(destination, target).catch(() => undefined);
	}

	private async sync(root: string, edits: ReadonlyMap<string, string | null>): Promise<void> {
		for (const [path, content] of edits) {
			if (this.applied.get(path) === content) continue;
			if (!(await this.writable(root, path))) continue;
			const target = join(root, path);
			// Whatever a command left there goes first: a link it made must not redirect this write.
			await rm(target, { force: true, recursive: true });
			if (content !== null) {
				await mkdir(dirname(target), { recursive: true });
				await writeFile(target, content, 'utf8');
			}
			this.applied.set(path, content);
		}
		for (const path of [...this.applied.keys()]) {
			if (edits.has(path)) continue;
			this.applied.delete(path);
			if (!(await this.writable(root, path))) continue;
			// The overlay dropped this edit: back to the workspace's version.
			const original = join(this.options.workspaceRoot, path);
			const target = join(root, path);
			const exists = await stat(original).then((info) => info.isFile()).catch(() => false);
			await rm(target, { force: true, recursive: true });
			if (exists) await copyFile(original, target);
		}
	}

	/** Never writes through a link (a linked dependency folder leads to the real workspace). */
	private async writable(root: string, path: string): Promise<boolean> {
		if (this.isLinked(path) || path.split('/').some((segment) => skippedFolders.has(segment.toLowerCase()))) return false;
		let folder = dirname(join(root, path));
		while (isInside(root, folder) && folder !== root) {
			const info = await lstat(folder).catch(() => null);
			if (info?.isSymbolicLink()) return false;
			folder = dirname(folder);
		}
		return true;
	}
}

function isIgnored(rules: readonly { base: string; ignore: Ignore }[], path: string, isDirectory: boolean): boolean {
	for (let i = rules.length - 1; i >= 0; i--) {
		const rule = rules[i]!;
		const rel = relative(rule.base, path).split(sep).join('/') + (isDirectory ? '/' : '');
		const verdict = rule.ignore.test(rel);
		if (verdict.ignored) return true;
		if (verdict.unignored) return false;
	}
	return false;
}

function isInside(root: string, path: string): boolean {
	const rel = relative(resolve(root), resolve(path));
	return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
