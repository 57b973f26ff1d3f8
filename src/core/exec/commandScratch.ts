/**
 * The scratch copy a `run_command` call runs in: a copy of the workspace in the OS temp folder
 * with the agent's overlay applied, so commands see the agent's proposed edits and never write
 * the real workspace (nothing is written before the user accepts: docs/threat-model.md).
 *
 * What is copied, and why:
 * - what git would see: files ignored by `.gitignore` (build output, caches, local secrets) are
 *   left out, and so are `.git/` (no repository: commands cannot commit, push or rewrite
 *   history), `.massgen/` and `.env*` secrets files (as for every tool);
 * - dependency folders (`node_modules`, `.venv`, `venv`) are not copied, so `npm test` or
 *   `pytest` work without copying gigabytes. With a sandbox that can bind folders (bubblewrap) the
 *   copy holds an empty folder where the sandbox binds the real one read-only (`dependencyMounts`),
 *   covering the secret files inside it (`masks`, from the run's secret walk, `secretScan.ts`);
 *   otherwise (macOS, unsandboxed) a link to the real one, which the sandbox-exec profile keeps
 *   read-only (and its secrets unreadable) and an unsandboxed command could write through (the
 *   risk the user opted in to);
 * - hard links to secret files (the same file under another name) are left out like the secrets;
 * - symlinks are kept when they stay inside the workspace, dropped otherwise.
 * One copy per agent per run, made at its first command, with a scratch home beside it (the
 * commands' `HOME`). Commands see what the read tools show, in three layers:
 * - the disk at copy time, for files nobody in the run has touched;
 * - above it, the run snapshot (`RunSnapshot`): every path the run has captured gets the captured
 *   text, or is removed when captured absent — at creation and, for paths captured since, before
 *   each command — so a file the user edits mid-run looks the same to `read_file` and to `cat`, in
 *   every agent's copy. Two kinds of entry keep the disk's bytes: files over the snapshot's size cap
 *   (never read, so nothing to agree with) and files that are not UTF-8 text (the snapshot holds only
 *   a lossy decoding; writing it would corrupt them). Paths the copy leaves out by its own rules
 *   (ignored, secret, `.git`, dependency folders) stay out, and folders are never replaced;
 * - on top, the agent's overlay: before each command its current edits are written in (and edits it
 *   no longer has go back to the snapshot's base).
 * Files a command creates or changes stay in the scratch copy: they are not part of the agent's answer.
 */
import { constants } from 'node:fs';
import {
	copyFile,
	lstat,
	mkdir,
	mkdtemp,
	readdir,
	readlink,
	realpath,
	rm,
	stat,
	symlink,
	writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isRootOrInside, readOrNull } from '../util/paths.js';
import type { SecretMask } from './sandbox/sandboxProfile.js';
import { readRegularFile } from '../util/regularFile.js';
import { fileStamp, type ShownCopy, type SnapshotEntry } from '../workspace/runSnapshot.js';
import { builtinSecretPaths, type SecretPaths } from '../workspace/secretPaths.js';
import { scanSecrets, type SecretIndex } from '../workspace/secretScan.js';
import type { CapturedBases, DependencyMount, ScratchSpace } from './scratchSpace.js';

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
	/** The run's secret walk (`Workspace.secretIndex`), shared by its scratches; default: a walk of its own. */
	readonly secretIndex?: () => Promise<SecretIndex>;
}

export class ScratchTooLargeError extends Error {
	override readonly name = 'ScratchTooLargeError';
}

export const defaultLinkedFolders: readonly string[] = ['node_modules', '.venv', 'venv'];
const skippedFolders = new Set(['.git', '.massgen']);

export class ScratchCopy implements ScratchSpace, ShownCopy {
	readonly overlayLayers = undefined;
	private root: string | undefined;
	private creating: Promise<string> | undefined;
	/** Overlay content last written per path (null = deleted). */
	private readonly applied = new Map<string, string | null>();
	/** Snapshot entries already laid into the copy (or left, under an overlay edit). */
	private readonly based = new Map<string, SnapshotEntry>();
	/** The `.gitignore` rules in force in each copied folder ('' = the root), as read at copy time. */
	private readonly folderRules = new Map<string, readonly IgnoreRule[]>();
	private workspace = '';
	/** When the copy was done: a file changed after it (ctime) was changed by a command, and stays. */
	private copiedAt = Infinity;
	/** Whether a file written after the copy is sure to get a later ctime than `copiedAt` (see `clockPast`). */
	private clockPast = false;
	private readonly linked: ReadonlySet<string>;
	private readonly mounts: DependencyMount[] = [];
	/** Secrets at any depth and hard links to them: never copied, covered in dependency folders. */
	private secrets: SecretIndex | undefined;

	constructor(private readonly options: ScratchOptions) {
		this.linked = new Set((options.linkedFolders ?? defaultLinkedFolders).map((name) => name.toLowerCase()));
	}

	/** The scratch folder, once created. */
	get dir(): string | undefined {
		return this.root;
	}

	/** When the copy was finished; a copied file changed later was changed by a command (see `ShownCopy`). */
	get madeAt(): number | undefined {
		return this.clockPast ? this.copiedAt : undefined;
	}

	/** Creates the copy (once), lays in the run snapshot's bases and the overlay's edits; returns the folder. */
	async prepare(edits: ReadonlyMap<string, string | null>, bases: CapturedBases): Promise<string> {
		this.creating ??= this.create(bases);
		const root = await this.creating;
		await this.sync(root, edits, bases);
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

	async hasFolder(path: string): Promise<boolean> {
		if (this.root === undefined) return false;
		return (await stat(join(this.root, path)).catch(() => null))?.isDirectory() === true;
	}

	/** The copy was made once: nothing the user creates later reaches it. */
	afterCommand(): Promise<string | null> {
		return Promise.resolve(null);
	}

	/** Removes the copy (links are removed, never followed). Never rejects. */
	async dispose(): Promise<void> {
		const root = this.root ?? (await this.creating?.catch(() => undefined));
		this.root = undefined;
		if (root === undefined) return;
		for (const folder of [root, `${root}.home`]) {
			await rm(folder, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined);
		}
	}

	private async create(bases: CapturedBases): Promise<string> {
		const safeLabel = this.options.label.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40);
		const root = await realpath(await mkdtemp(join(tmpdir(), `massgen-cmd-${safeLabel}-`)));
		this.root = root;
		const budget = {
			bytes: this.options.maxBytes ?? 512 * 1024 * 1024,
			files: this.options.maxFiles ?? 100_000,
		};
		const workspace = await realpath(this.options.workspaceRoot);
		this.workspace = workspace;
		try {
			this.secrets = await (this.options.secretIndex ?? (() => scanSecrets(workspace, this.secretPaths)))();
			// Private like the copy (mkdtemp): nothing a command leaves there (a setuid file) is reachable by other users.
			await mkdir(`${root}.home`, { mode: 0o700 });
			await mkdir(join(`${root}.home`, 'tmp'));
			const copies = new CopyQueue();
			try {
				await this.copyFolder(workspace, workspace, root, [], budget, copies, bases);
			} finally {
				// Nothing may still be writing when a failed copy is removed.
				await copies.settled();
			}
			copies.throwIfFailed();
			// Whole milliseconds; a file's ctime has a fraction of one.
			const copiedAt = Date.now() + 1;
			this.copiedAt = copiedAt;
			this.clockPast = await clockPast(join(`${root}.home`, 'tmp', '.copied'), copiedAt);
			// Every file the copy holds was exposed: a path it would have copied but did not had no file.
			bases.exposeTree({ covers: (rel) => this.copies(rel) });
		} catch (error) {
			for (const folder of [root, `${root}.home`]) {
				await rm(folder, { recursive: true, force: true }).catch(() => undefined);
			}
			this.root = undefined;
			throw error;
		}
		return root;
	}

	private async copyFolder(
		workspace: string,
		from: string,
		to: string,
		rules: readonly IgnoreRule[],
		budget: { bytes: number; files: number },
		copies: CopyQueue,
		bases: CapturedBases,
	): Promise<void> {
		const gitignore = await readOrNull(join(from, '.gitignore'));
		const scoped = gitignore === null ? rules : [...rules, { base: from, ignore: ignore().add(gitignore) }];
		this.folderRules.set(toPosix(relative(workspace, from)), scoped);
		const entries = await readdir(from, { withFileTypes: true });
		for (const entry of entries) {
			const source = join(from, entry.name);
			const target = join(to, entry.name);
			const lower = entry.name.toLowerCase();
			const rel = toPosix(relative(workspace, source));
			if (skippedFolders.has(lower) || this.secretPaths.match(rel) !== null || this.secrets?.covers(rel)) {
				continue;
			}
			// A workspace that contains the temp folder must not copy the copy into itself.
			if (isRootOrInside(this.root!, source)) continue;
			const isDirectory = entry.isDirectory();
			if (isDirectory && this.linked.has(lower)) {
				if (this.options.dependencies === 'mount') await mkdir(target);
				else await symlink(source, target, 'junction');
				this.mounts.push({ source, target, masks: masksUnder(this.secrets, rel, target) });
				continue;
			}
			if (isIgnored(scoped, source, isDirectory)) continue;
			if (entry.isSymbolicLink()) {
				await this.copyLink(workspace, source, target, bases);
			} else if (isDirectory) {
				await mkdir(target);
				await this.copyFolder(workspace, source, target, scoped, budget, copies, bases);
			} else if (entry.isFile()) {
				const info = await stat(source);
				// The base of what commands see here: the run keeps this version (`RunSnapshot.expose`).
				bases.expose(toPosix(relative(workspace, source)), fileStamp(info), this);
				const size = info.size;
				budget.bytes -= size;
				budget.files -= 1;
				if (budget.bytes < 0 || budget.files < 0) {
					throw new ScratchTooLargeError(
						`the workspace is too large for a scratch copy (over ${this.options.maxBytes ?? 512 * 1024 * 1024} bytes or ${this.options.maxFiles ?? 100_000} files)`,
					);
				}
				await copies.add(() => copyFile(source, target, constants.COPYFILE_FICLONE));
			}
		}
	}

	/** Keeps a link that stays inside the workspace (re-pointed inside the copy); drops others. */
	private async copyLink(
		workspace: string,
		source: string,
		target: string,
		bases: CapturedBases,
	): Promise<void> {
		const real = await realpath(source).catch(() => null);
		if (real === null || !isRootOrInside(workspace, real)) return;
		// A write through the link's own path has a base of its own: the file it showed.
		const info = await stat(source).catch(() => null);
		if (info?.isFile()) bases.expose(toPosix(relative(workspace, source)), fileStamp(info), this);
		const linkText = await readlink(source);
		const destination = isAbsolute(linkText) ? join(this.root!, relative(workspace, real)) : linkText;
		await symlink(destination, target).catch(() => undefined);
	}

	private async sync(
		root: string,
		edits: ReadonlyMap<string, string | null>,
		bases: CapturedBases,
	): Promise<void> {
		// The run snapshot first (what every read tool shows), then the overlay above it.
		for (const [path, entry] of bases.captured()) {
			if (this.based.get(path) === entry) continue;
			this.based.set(path, entry);
			// Under an overlay edit the base waits until the edit is dropped.
			if (!edits.has(path)) await this.layBase(root, path, entry, { keepCommandChanges: true });
		}
		for (const [path, content] of edits) {
			if (this.applied.get(path) === content) continue;
			if (!(await this.writable(root, path))) continue;
			const target = join(root, path);
			if (content === null) await rm(target, { force: true, recursive: true });
			else await replaceFile(target, Buffer.from(content, 'utf8'));
			this.applied.set(path, content);
		}
		for (const path of [...this.applied.keys()]) {
			if (edits.has(path)) continue;
			this.applied.delete(path);
			await this.restore(root, path);
		}
	}

	/**
	 * Makes the copy show the snapshot's base of `path`. False when the entry cannot say what the
	 * bytes are (over the size cap, or not UTF-8 text): then the copy keeps the disk's.
	 * `keepCommandChanges`: what a command made or changed there stays (it is the copy's own state).
	 */
	private async layBase(
		root: string,
		path: string,
		entry: SnapshotEntry,
		options: { readonly keepCommandChanges: boolean },
	): Promise<boolean> {
		if (entry.kind === 'too-large' || (entry.kind === 'file' && entry.text.includes('\uFFFD'))) return false;
		if (!this.copies(path) || !(await this.writable(root, path))) return true;
		const target = join(root, path);
		const found = await lstat(target).catch(() => null);
		if (found !== null && options.keepCommandChanges && found.ctimeMs > this.copiedAt) return true;
		// A folder here (or a kept link to one) is not replaced: it may hold files the run relies on.
		if (found !== null && (found.isDirectory() || (await stat(target).catch(() => null))?.isDirectory())) {
			return true;
		}
		if (entry.kind === 'absent') {
			if (found !== null) await rm(target, { force: true });
			return true;
		}
		const bytes = Buffer.from(entry.text, 'utf8');
		if (found !== null && (await holds(root, target, bytes))) return true;
		await replaceFile(target, bytes).catch((error: NodeJS.ErrnoException) => {
			// A file where the base needs a folder (the user restructured mid-run): the copy keeps its layout.
			if (error.code !== 'ENOTDIR' && error.code !== 'EEXIST') throw error;
		});
		return true;
	}

	/** The overlay dropped its edit of `path`: back to the snapshot's base (or, without a usable one, the disk's file). */
	private async restore(root: string, path: string): Promise<void> {
		if (!(await this.writable(root, path))) return;
		const target = join(root, path);
		// A path the copy leaves out (ignored …) held only the overlay's file.
		if (!this.copies(path)) {
			await rm(target, { force: true, recursive: true });
			return;
		}
		const entry = this.based.get(path);
		if (entry !== undefined && (await this.layBase(root, path, entry, { keepCommandChanges: false }))) return;
		const original = join(this.workspace, path);
		const info = await lstat(original).catch(() => null);
		await rm(target, { force: true, recursive: true });
		if (info?.isFile()) await copyFile(original, target);
	}

	/** Whether the copy's own rules hold `path` (not ignored as of copy time, not secret, not in .git/, .massgen/ or a dependency folder). */
	private copies(path: string): boolean {
		const segments = path.split('/');
		let rules = this.folderRules.get('') ?? [];
		for (let i = 0; i < segments.length; i++) {
			const sub = segments.slice(0, i + 1).join('/');
			const isFolder = i < segments.length - 1;
			const name = segments[i]!.toLowerCase();
			if (
				skippedFolders.has(name) ||
				this.secretPaths.match(sub) !== null ||
				this.secrets?.covers(sub) === true ||
				(isFolder && this.linked.has(name))
			) {
				return false;
			}
			if (isIgnored(rules, join(this.workspace, sub), isFolder)) return false;
			// A folder made after the copy has no rules of its own on record: its parent's apply.
			if (isFolder) rules = this.folderRules.get(sub) ?? rules;
		}
		return true;
	}

	private get secretPaths(): SecretPaths {
		return this.options.secretPaths ?? builtinSecretPaths;
	}

	/** Never writes through a link (a linked dependency folder leads to the real workspace). */
	private async writable(root: string, path: string): Promise<boolean> {
		if (this.isLinked(path) || path.split('/').some((segment) => skippedFolders.has(segment.toLowerCase()))) {
			return false;
		}
		let folder = dirname(join(root, path));
		while (isRootOrInside(root, folder) && folder !== root) {
			const info = await lstat(folder).catch(() => null);
			if (info?.isSymbolicLink()) return false;
			folder = dirname(folder);
		}
		return true;
	}
}

/**
 * File copies in flight while the walk goes on. Creating files is what a copy waits on (a 53,000-file
 * copy is 60 % idle, one file at a time); 32 at once halve its time on ext4. The first failure stops
 * new copies and is thrown by `throwIfFailed` once every started copy has settled.
 */
class CopyQueue {
	private readonly running = new Set<Promise<void>>();
	private failure: { readonly error: unknown } | undefined;

	constructor(private readonly limit = 32) {}

	async add(copy: () => Promise<void>): Promise<void> {
		this.throwIfFailed();
		const job: Promise<void> = copy()
			.catch((error: unknown) => {
				this.failure ??= { error };
			})
			.finally(() => this.running.delete(job));
		this.running.add(job);
		if (this.running.size >= this.limit) await Promise.race(this.running);
	}

	/** Resolves once every started copy has finished or failed; never rejects. */
	async settled(): Promise<void> {
		await Promise.all(this.running);
	}

	throwIfFailed(): void {
		if (this.failure !== undefined) throw this.failure.error;
	}
}

/**
 * Waits (a few ms at most) until a file written now gets a change time after `since`: file times
 * come from a coarse clock that may lag `Date.now()` by a tick, and a command that wrote a copied
 * file within that tick would leave it looking unchanged. False when the clock does not get there
 * in 100 ms (a file system with coarse times): then no copied file is taken as unchanged.
 */
async function clockPast(marker: string, since: number): Promise<boolean> {
	const giveUp = Date.now() + 100;
	try {
		do {
			await writeFile(marker, '');
			if ((await stat(marker)).ctimeMs > since) return true;
		} while (Date.now() < giveUp);
		return false;
	} finally {
		await rm(marker, { force: true });
	}
}

/**
 * Writes a file where whatever a command left goes first (a link it made must not redirect the
 * write; `wx` refuses one that reappears), keeping the permission bits of a file it replaces (an
 * edited script stays executable).
 */
async function replaceFile(target: string, content: Buffer): Promise<void> {
	const previous = await lstat(target).catch(() => null);
	await rm(target, { force: true, recursive: true });
	await mkdir(dirname(target), { recursive: true });
	await writeFile(target, content, { flag: 'wx', mode: previous?.isFile() ? previous.mode & 0o777 : 0o666 });
}

/**
 * Whether `target` (a file, or a link the copy kept) already has these bytes. Only a regular file
 * inside the copy, of the right size, is read: a FIFO or `/dev/zero` would make the read endless.
 */
async function holds(root: string, target: string, bytes: Buffer): Promise<boolean> {
	const real = await realpath(target).catch(() => null);
	if (real === null || !isRootOrInside(root, real)) return false;
	const info = await stat(real).catch(() => null);
	if (info?.isFile() !== true || info.size !== bytes.length) return false;
	return (await readRegularFile(real, bytes.length).catch(() => null))?.bytes.equals(bytes) === true;
}

/** The secrets inside the dependency folder at `folder` (workspace-relative), where the sandbox sees them under `target`. */
function masksUnder(index: SecretIndex | undefined, folder: string, target: string): SecretMask[] {
	if (index === undefined) return [];
	const inside = (path: string) => path.startsWith(`${folder}/`);
	const at = (path: string) => join(target, ...path.slice(folder.length + 1).split('/'));
	// Links are left alone: what one shows is its target, covered by its own rules (or hidden).
	const masks = index.secrets
		.filter((entry) => inside(entry.path) && (entry.kind === 'file' || entry.kind === 'folder'))
		.map((entry) => ({ target: at(entry.path), folder: entry.kind === 'folder' }));
	for (const path of index.hardLinks.filter(inside)) masks.push({ target: at(path), folder: false });
	return masks;
}

interface IgnoreRule {
	readonly base: string;
	readonly ignore: Ignore;
}

function toPosix(path: string): string {
	return path.split(sep).join('/');
}

function isIgnored(rules: readonly IgnoreRule[], path: string, isDirectory: boolean): boolean {
	for (let i = rules.length - 1; i >= 0; i--) {
		const rule = rules[i]!;
		const rel = relative(rule.base, path).split(sep).join('/') + (isDirectory ? '/' : '');
		const verdict = rule.ignore.test(rel);
		if (verdict.ignored) return true;
		if (verdict.unignored) return false;
	}
	return false;
}
