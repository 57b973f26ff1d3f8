/**
 * Overlayfs whiteouts (a character device 0/0: "this name is gone in the layers below") made
 * without privileges. Linux lets any user create that one device (since 5.8), but Node has no
 * `mknod`: the entries are packed into a tar stream and extracted by `tar`, one process for any
 * number of them.
 */
import { spawn } from 'node:child_process';
import { pack } from 'tar-stream';

/** Creates a whiteout at each `/`-separated path below `dir` (missing parent folders are created). */
export async function writeWhiteouts(tar: string, dir: string, paths: readonly string[]): Promise<void> {
	if (paths.length === 0) return;
	const archive = pack();
	const child = spawn(tar, ['-x', '-f', '-', '-C', dir, '--no-same-owner', '--no-same-permissions'], {
		stdio: ['pipe', 'ignore', 'pipe'],
		env: {},
	});
	let stderr = '';
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const exited = new Promise<number | null>((resolve, reject) => {
		child.once('error', reject);
		child.once('close', (code) => resolve(code));
	});
	archive.pipe(child.stdin);
	for (const path of paths) {
		archive.entry({ name: path, type: 'character-device', devmajor: 0, devminor: 0, mode: 0o600 });
	}
	archive.finalize();
	const code = await exited;
	if (code !== 0) throw new Error(`tar could not write whiteouts: ${stderr.trim() || `exit ${code}`}`);
}
