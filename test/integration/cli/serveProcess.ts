import { spawn, type ChildProcess } from 'node:child_process';
import { cliPath } from './cliProcess.js';

export interface ServeProcess {
	readonly port: number;
	/** `http://127.0.0.1:PORT`. */
	readonly origin: string;
	readonly child: ChildProcess;
	/** What it printed on stderr so far. */
	stderr(): string;
	/** SIGINT, then the exit code once it has exited. */
	stop(): Promise<number | null>;
}

/**
 * Spawns `dist/cli.js serve --port 0 ARGS` (or `executable serve …`, an installed `massgen`) and
 * resolves once it printed `listening on http://HOST:PORT` (rejects with its stderr if it exits
 * first). `env` is all the child gets besides PATH (give it a HOME of its own: the trust and
 * permission stores live there).
 */
export function startServe(
	args: readonly string[],
	options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly executable?: string },
): Promise<ServeProcess> {
	const serveArgs = ['serve', '--port', '0', ...args];
	const [file, fileArgs] = options.executable
		? [options.executable, serveArgs]
		: [process.execPath, [cliPath, ...serveArgs]];
	const child = spawn(file, fileArgs, {
		cwd: options.cwd,
		env: { PATH: process.env.PATH, ...options.env },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let stderr = '';
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	return new Promise((resolve, reject) => {
		child.stderr.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
			const bound = /listening on http:\/\/(\S+):(\d+)\n/.exec(stderr);
			if (!bound) return;
			const port = Number(bound[2]);
			resolve({
				port,
				origin: `http://127.0.0.1:${port}`,
				child,
				stderr: () => stderr,
				stop: () => {
					child.kill('SIGINT');
					return exited;
				},
			});
		});
		child.on('error', reject);
		void exited.then((code) => reject(new Error(`serve exited (${code}) before listening:\n${stderr}`)));
	});
}
