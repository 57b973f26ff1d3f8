/**
 * The scratch copy as layers instead of a copy (docs/tools-and-sandbox.md: a copy of a 100,000-file monorepo
 * took 16 s; this takes one `rg --files` and one walk of folder listings). Each command mounts, in a
 * namespace of its own (`overlayMount.ts`), the real workspace read-only at the bottom, our `view`
 * above it and the command's `upper` layer on top. The three layers of `ScratchCopy` map onto them:
 * - the disk: the workspace itself, live (a file nobody in the run touched shows as it is now);
 * - the run snapshot: each captured base is written into the view (absent → a whiteout), unless a
 *   command changed that path (it is in `upper`: the command's state wins, as in the copy);
 * - the agent's edits: written into `upper` (above whatever a command left), deletions as
 *   whiteouts there; an edit the agent drops is removed from `upper`, and the base shows again.
 * What the copy leaves out is hidden by whiteouts in the view (`scratchMasks`), and so are the
 * secrets the run's secret walk found inside dependency folders, which stay visible otherwise,
 * and hard links to secret files (`secretScan.ts`). The workspace is
 * live, so secrets are looked for again before and after every command: one that appeared is
 * hidden from the next command, and a command that ran while it was visible gets its output
 * withheld and its changes discarded.
 * All our writes happen between commands, when nothing is mounted (what overlayfs allows), and
 * never through a link a command left in `upper`.
 */
import { chmod, lstat, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { removeTree } from './sandbox/detectOverlay.js';
import type { OverlayLayers, OverlayTools } from './sandbox/overlayMount.js';
import type { SnapshotEntry } from '../workspace/runSnapshot.js';
import { builtinSecretPaths, type SecretPaths } from '../workspace/secretPaths.js';
import { scanSecrets, type SecretIndex } from '../workspace/secretScan.js';
import { defaultLinkedFolders } from './commandScratch.js';
import { exposeShown } from './exposeShown.js';
import { scratchMasks, SecretWatch } from './scratchMasks.js';
import type { CapturedBases, DependencyMount, ScratchSpace } from './scratchSpace.js';
import { writeWhiteouts } from './sandbox/whiteouts.js';
import { readRegularFile } from '../util/regularFile.js';

export interface OverlayScratchOptions {
	readonly workspaceRoot: string;
	/** Part of the temp folder's name (e.g. the agent id). */
	readonly label: string;
	readonly tools: OverlayTools;
	/** Lists what git would see (`rg --files`). */
	readonly ripgrep: string;
	readonly secretPaths?: SecretPaths;
	readonly linkedFolders?: readonly string[];
	/** The run's secret walk (`Workspace.secretIndex`), shared by its scratches; default: a walk of its own. */
	readonly secretIndex?: () => Promise<SecretIndex>;
}

const skipped = new Set(['.git', '.massgen']);

export class OverlayScratch implements ScratchSpace {
	readonly dependencyMounts: readonly DependencyMount[] = [];
	private layers: OverlayLayers | undefined;
	private home: string | undefined;
	private creating: Promise<OverlayLayers> | undefined;
	private secrets: SecretWatch | undefined;
	/** Paths hidden by the view's whiteouts (the copy's rules, and secrets found since). */
	private readonly hidden = new Set<string>();
	/** Edits written into `upper` (null = deleted). */
	private readonly applied = new Map<string, string | null>();
	/** Snapshot entries already laid into the view (or waiting under an edit). */
	private readonly based = new Map<string, SnapshotEntry>();
	private readonly linked: ReadonlySet<string>;

	constructor(private readonly options: OverlayScratchOptions) {
		this.linked = new Set((options.linkedFolders ?? defaultLinkedFolders).map((name) => name.toLowerCase()));
	}

	get overlayLayers(): OverlayLayers | undefined {
		return this.layers;
	}

	get homeDir(): string | undefined {
		return this.home;
	}

	isLinked(path: string): boolean {
		return path.split('/').some((segment) => this.linked.has(segment.toLowerCase()));
	}

	async prepare(edits: ReadonlyMap<string, string | null>, bases: CapturedBases): Promise<string> {
		this.creating ??= this.create(bases);
		const layers = await this.creating;
		await this.hideNewSecrets();
		await this.sync(layers, edits, bases);
		return layers.merged;
	}

	async afterCommand(): Promise<string | null> {
		const found = await this.hideNewSecrets();
		if (found.length === 0 || this.layers === undefined) return null;
		// What the command made may hold a copy of the secret: its changes go, the agent's edits are laid again.
		await removeTree(this.layers.upper);
		await removeTree(this.layers.work);
		await mkdir(this.layers.upper);
		await mkdir(this.layers.work);
		this.applied.clear();
		return `a secrets file appeared in the workspace while the command ran (${found.join(', ')}): its output is withheld and its changes to the scratch copy are discarded`;
	}

	async hasFolder(path: string): Promise<boolean> {
		const layers = this.layers;
		if (layers === undefined) return false;
		if (path === '.' || path === '') return true;
		if (!this.shows(path)) return false;
		// Top layer first: the first layer that has the path (or hides it) decides.
		for (const layer of [layers.upper, layers.view, layers.workspace]) {
			const info = await lstat(join(layer, path)).catch(() => null);
			if (info === null) continue;
			return info.isDirectory();
		}
		return false;
	}

	async dispose(): Promise<void> {
		const layers = await this.creating?.catch(() => undefined);
		this.layers = undefined;
		if (layers !== undefined) await removeTree(dirname(layers.merged));
	}

	private async create(bases: CapturedBases): Promise<OverlayLayers> {
		const safeLabel = this.options.label.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40);
		const base = await realpath(await mkdtemp(join(tmpdir(), `massgen-cmd-${safeLabel}-`)));
		const workspace = await realpath(this.options.workspaceRoot);
		const layers: OverlayLayers = {
			workspace,
			lower: join(base, 'lower'),
			view: join(base, 'view'),
			upper: join(base, 'upper'),
			work: join(base, 'work'),
			merged: join(base, 'root'),
		};
		try {
			for (const folder of [layers.lower, layers.view, layers.upper, layers.work, layers.merged]) {
				await mkdir(folder);
			}
			// Private like the folder (mkdtemp): nothing a command leaves there is reachable by other users.
			await mkdir(join(base, 'home'), { mode: 0o700 });
			await mkdir(join(base, 'home', 'tmp'));
			const rules = {
				workspace,
				ripgrep: this.options.ripgrep,
				secretPaths: this.options.secretPaths ?? builtinSecretPaths,
				linked: this.linked,
				skipped,
			};
			const [masks, index] = await Promise.all([
				scratchMasks(rules),
				(this.options.secretIndex ?? (() => scanSecrets(workspace, rules.secretPaths)))(),
			]);
			this.secrets = new SecretWatch(rules);
			for (const path of masks.hidden) this.hidden.add(path);
			// Secrets in what the masks keep whole (dependency folders), and hard links to secrets.
			const deeper = [...index.secrets.map((entry) => entry.path), ...index.hardLinks].filter(
				(path) => !isHidden(this.hidden, path),
			);
			for (const path of deeper) this.hidden.add(path);
			await writeWhiteouts(this.options.tools.tar, layers.view, [...masks.hidden, ...deeper]);
			// Commands see the live workspace: the run keeps the version each file has now as its base.
			await exposeShown(workspace, this.hidden, this.linked, bases);
			bases.exposeTree({ covers: (rel) => this.shows(rel) });
			// An absolute link into the workspace would lead to the hidden real one: it points into the scratch instead.
			for (const link of masks.absoluteLinks) {
				await mkdir(dirname(join(layers.view, link.path)), { recursive: true });
				await symlink(join(layers.merged, link.target), join(layers.view, link.path));
			}
		} catch (error) {
			await removeTree(base);
			throw error;
		}
		this.home = join(base, 'home');
		this.layers = layers;
		return layers;
	}

	/** Hides secrets that appeared in the workspace since the last look; returns them. */
	private async hideNewSecrets(): Promise<string[]> {
		if (this.secrets === undefined || this.layers === undefined) return [];
		const found = await this.secrets.look(this.hidden);
		const fresh = found.filter((path) => !this.hidden.has(path));
		for (const path of fresh) {
			// A base or an edit written there before gives way to the whiteout.
			await rm(join(this.layers.view, path), { recursive: true, force: true });
			this.hidden.add(path);
		}
		await writeWhiteouts(this.options.tools.tar, this.layers.view, fresh);
		return fresh;
	}

	private async sync(
		layers: OverlayLayers,
		edits: ReadonlyMap<string, string | null>,
		bases: CapturedBases,
	): Promise<void> {
		const viewWhiteouts: string[] = [];
		const upperWhiteouts: string[] = [];
		for (const [path, entry] of bases.captured()) {
			if (this.based.get(path) === entry) continue;
			this.based.set(path, entry);
			// Under an edit the base waits until the edit is dropped.
			if (!edits.has(path)) await this.layBase(layers, path, entry, true, viewWhiteouts);
		}
		for (const [path, content] of edits) {
			if (this.applied.get(path) === content) continue;
			if (!(await this.writableUpper(layers, path))) continue;
			const target = join(layers.upper, path);
			const previous = await lstat(target).catch(() => null);
			await rm(target, { recursive: true, force: true });
			if (content === null) {
				if (await this.lowerHas(layers, path)) upperWhiteouts.push(path);
			} else {
				const mode = previous?.isFile() ? previous.mode & 0o777 : await this.lowerMode(layers, path);
				await writeNew(target, Buffer.from(content, 'utf8'), mode);
			}
			this.applied.set(path, content);
		}
		for (const path of [...this.applied.keys()]) {
			if (edits.has(path)) continue;
			this.applied.delete(path);
			if (!(await this.writableUpper(layers, path))) continue;
			await rm(join(layers.upper, path), { recursive: true, force: true });
			const entry = this.based.get(path);
			if (entry !== undefined) await this.layBase(layers, path, entry, false, viewWhiteouts);
		}
		await writeWhiteouts(this.options.tools.tar, layers.view, viewWhiteouts);
		await writeWhiteouts(this.options.tools.tar, layers.upper, upperWhiteouts);
	}

	/**
	 * Makes the view show the snapshot's base of `path`; entries that cannot say what the bytes are
	 * (over the size cap, not UTF-8 text) leave the disk's. `keepCommandChanges`: a path a command
	 * changed (it is in `upper`) keeps the command's state. Folders are never replaced.
	 */
	private async layBase(
		layers: OverlayLayers,
		path: string,
		entry: SnapshotEntry,
		keepCommandChanges: boolean,
		whiteouts: string[],
	): Promise<void> {
		if (entry.kind === 'too-large' || (entry.kind === 'file' && entry.text.includes('\uFFFD'))) return;
		if (!this.shows(path) || !(await plainFolders(layers.view, path))) return;
		if (keepCommandChanges && (await lstat(join(layers.upper, path)).catch(() => null)) !== null) return;
		const target = join(layers.view, path);
		const disk = await lstat(join(layers.workspace, path)).catch(() => null);
		if (disk?.isDirectory()) return;
		await rm(target, { force: true });
		if (entry.kind === 'absent') {
			if (disk !== null) whiteouts.push(path);
			return;
		}
		const bytes = Buffer.from(entry.text, 'utf8');
		if (disk?.isFile() && disk.size === bytes.length) {
			const onDisk = await readRegularFile(join(layers.workspace, path), bytes.length).catch(() => null);
			if (onDisk?.bytes.equals(bytes)) return;
		}
		await writeNew(target, bytes, disk?.isFile() ? disk.mode & 0o777 : 0o666);
	}

	/** Whether the copy's rules show `path` (not hidden, secret, in `.git/`, `.massgen/` or a dependency folder). */
	private shows(path: string): boolean {
		const segments = path.split('/');
		for (let i = 1; i <= segments.length; i++) {
			const sub = segments.slice(0, i).join('/');
			const name = segments[i - 1]!.toLowerCase();
			if (this.hidden.has(sub) || skipped.has(name)) return false;
			if (i < segments.length && this.linked.has(name)) return false;
		}
		return (this.options.secretPaths ?? builtinSecretPaths).match(path) === null;
	}

	/** Never a write into a dependency folder or `.git/`, nor through a link or non-folder a command left in `upper`. */
	private async writableUpper(layers: OverlayLayers, path: string): Promise<boolean> {
		if (this.isLinked(path) || path.split('/').some((segment) => skipped.has(segment.toLowerCase()))) {
			return false;
		}
		return plainFolders(layers.upper, path, true);
	}

	private async lowerHas(layers: OverlayLayers, path: string): Promise<boolean> {
		for (const layer of [layers.view, layers.workspace]) {
			if ((await lstat(join(layer, path)).catch(() => null)) !== null) return true;
		}
		return false;
	}

	/** The permission bits the file has below (an edited script stays executable). */
	private async lowerMode(layers: OverlayLayers, path: string): Promise<number> {
		for (const layer of [layers.view, layers.workspace]) {
			const info = await lstat(join(layer, path)).catch(() => null);
			if (info?.isFile()) return info.mode & 0o777;
		}
		return 0o666;
	}
}

/** Whether `path` or a folder above it is in `hidden` (a whiteout inside a hidden folder would bring the folder back). */
function isHidden(hidden: ReadonlySet<string>, path: string): boolean {
	for (let cut = path.length; cut > 0; cut = path.lastIndexOf('/', cut - 1)) {
		if (hidden.has(path.slice(0, cut))) return true;
	}
	return false;
}

/**
 * Whether every folder above `path` inside `layer` is missing or a real folder (no link, no
 * whiteout or file in the way). `make`: missing ones are created, and a whiteout or file a command
 * left where a folder must be is replaced by one.
 */
async function plainFolders(layer: string, path: string, make = false): Promise<boolean> {
	const segments = path.split('/').slice(0, -1);
	let folder = layer;
	for (const segment of segments) {
		folder = join(folder, segment);
		const info = await lstat(folder).catch(() => null);
		if (info?.isDirectory()) continue;
		if (info?.isSymbolicLink()) return false;
		if (!make) return info === null;
		if (info !== null) await rm(folder, { force: true });
		await mkdir(folder);
	}
	return true;
}

/** Writes a file that must not exist yet (`wx`: a link that reappears is refused, never followed). */
async function writeNew(target: string, content: Buffer, mode: number): Promise<void> {
	await mkdir(dirname(target), { recursive: true });
	await writeFile(target, content, { flag: 'wx', mode });
	await chmod(target, mode);
}
