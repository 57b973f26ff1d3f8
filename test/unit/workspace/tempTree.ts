/** Real temporary directories for workspace and tool tests, plus a fingerprint of their contents. */
import { createHash } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const created: string[] = [];

/** Creates a temp directory holding `files` (path → text or bytes). */
export async function makeTree(files: Record<string, string | Uint8Array> = {}): Promise<string> {
	const root = await mkdtemp(join(tmpdir(), 'massgen-ws-'));
	created.push(root);
	await addFiles(root, files);
	return root;
}

export async function addFiles(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
	for (const [path, content] of Object.entries(files)) {
		await mkdir(dirname(join(root, path)), { recursive: true });
		await writeFile(join(root, path), content);
	}
}

/** Removes every directory `makeTree` created (call from afterEach). */
export async function removeTrees(): Promise<void> {
	await Promise.all(created.splice(0).map((root) => rm(root, { recursive: true, force: true })));
}

/** sha256 over every path, file content and link target under `root` (links not followed). */
export async function hashTree(root: string): Promise<string> {
	const hash = createHash('sha256');
	const walk = async (dir: string): Promise<void> => {
		for (const name of (await readdir(dir)).sort()) {
			const full = join(dir, name);
			const info = await lstat(full);
			hash.update(`${full}\0${info.mode}\0${info.mtimeMs}\0`);
			if (info.isSymbolicLink()) hash.update(await readlink(full));
			else if (info.isDirectory()) await walk(full);
			else hash.update(await readFile(full));
		}
	};
	await walk(root);
	return hash.digest('hex');
}
