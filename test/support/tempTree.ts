/**
 * Real temporary directories for tests, removed after each test file (test/support/cleanup.ts runs
 * `removeTrees` from afterAll; a file may also call it from afterEach), and fingerprints of their contents.
 */
import { createHash } from 'node:crypto';
import {
	lstatSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	readlinkSync,
	writeFileSync,
} from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

type Files = Record<string, string | Uint8Array>;

const created: string[] = [];

/** Creates a temp directory holding `files` (path → text or bytes). */
export async function makeTree(files: Files = {}): Promise<string> {
	const root = await mkdtemp(join(tmpdir(), 'massgen-ws-'));
	created.push(root);
	await addFiles(root, files);
	return root;
}

/** `makeTree` for synchronous set-ups (the CLI and team tests). */
export function makeWorkspaceDir(files: Files = {}): string {
	const root = mkdtempSync(join(tmpdir(), 'massgen-ws-'));
	created.push(root);
	for (const [path, content] of Object.entries(files)) {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), content);
	}
	return root;
}

export async function addFiles(root: string, files: Files): Promise<void> {
	for (const [path, content] of Object.entries(files)) {
		await mkdir(dirname(join(root, path)), { recursive: true });
		await writeFile(join(root, path), content);
	}
}

/**
 * Removes every directory `makeTree` and `makeWorkspaceDir` created so far. A tree a test left
 * unremovable (a folder without write permission) stays behind rather than failing the file.
 */
export async function removeTrees(): Promise<void> {
	await Promise.all(
		created
			.splice(0)
			.map((root) => rm(root, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined)),
	);
}

/** Paths (relative to the walked root, `/`-joined) a walk leaves out, with what it holds. */
type Skip = (rel: string) => boolean;

/**
 * One sha256 over every path, mode, mtime, file content and link target under `root` (links not
 * followed): any write, even of the same bytes, changes it.
 */
export function hashTree(root: string, skip: Skip = () => false): string {
	const hash = createHash('sha256');
	const walk = (dir: string, prefix: string): void => {
		for (const name of readdirSync(dir).sort()) {
			const full = join(dir, name);
			const rel = prefix + name;
			if (skip(rel)) continue;
			const info = lstatSync(full);
			hash.update(`${full}\0${info.mode}\0${info.mtimeMs}\0`);
			if (info.isSymbolicLink()) hash.update(readlinkSync(full));
			else if (info.isDirectory()) walk(full, `${rel}/`);
			else hash.update(readFileSync(full));
		}
	};
	walk(root, '');
	return hash.digest('hex');
}

/**
 * Every file under `root` → sha256 of its content ('link' for a link or other non-file, not
 * followed); with `folders`, every folder → 'folder' under `rel/`. A failed equality names the path.
 */
export function hashFiles(
	root: string,
	options: { skip?: Skip; folders?: boolean } = {},
): Record<string, string> {
	const out: Record<string, string> = {};
	const walk = (dir: string, prefix: string): void => {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			const rel = prefix + entry.name;
			if (options.skip?.(rel)) continue;
			const full = join(dir, entry.name);
			if (entry.isDirectory()) {
				if (options.folders) out[`${rel}/`] = 'folder';
				walk(full, `${rel}/`);
			} else if (entry.isFile()) out[rel] = createHash('sha256').update(readFileSync(full)).digest('hex');
			else out[rel] = 'link';
		}
	};
	walk(root, '');
	return out;
}
