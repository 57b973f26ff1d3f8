import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const repo = join(__dirname, '..', '..', '..');
export const cliPath = join(repo, 'dist', 'cli.js');
export const fixture = (name: string) => join(repo, 'test', 'fixtures', 'cli', name);

export interface CliRun {
	readonly code: number | null;
	readonly stdout: string;
	readonly stderr: string;
}

/** Spawns the built CLI; `onStart` may signal the child (e.g. SIGINT) once it is running. */
export function runCli(
	args: readonly string[],
	options: {
		cwd: string;
		env?: NodeJS.ProcessEnv;
		/** Written to the child's stdin, which then ends (at once without it). */
		input?: string;
		onStderr?: (text: string, child: ReturnType<typeof spawn>) => void;
	},
): Promise<CliRun> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [cliPath, ...args], {
			cwd: options.cwd,
			env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env },
			stdio: ['pipe', 'pipe', 'pipe'],
		});
		// A child that exits before reading stdin closes the pipe (EPIPE): not the test's concern.
		child.stdin.on('error', () => undefined);
		child.stdin.end(options.input ?? '');
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
			options.onStderr?.(stderr, child);
		});
		child.on('error', reject);
		child.on('close', (code) => resolve({ code, stdout, stderr }));
	});
}
