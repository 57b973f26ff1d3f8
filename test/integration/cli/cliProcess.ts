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
		/**
		 * Fail fast: past this, SIGINT the CLI and reject with what it printed (a hang then says
		 * where it is, under the test's own timeout).
		 */
		deadlineMs?: number;
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
		let exited: string | undefined;
		child.on('exit', (code, signal) => (exited = `exited (${code ?? signal}) but its output stayed open`));
		const deadline =
			options.deadlineMs === undefined
				? undefined
				: setTimeout(() => {
						child.kill('SIGINT');
						const state = exited ?? 'still running';
						reject(new Error(`dist/cli.js ${state} after ${options.deadlineMs} ms; stderr:\n${stderr}`));
					}, options.deadlineMs);
		child.on('close', (code) => {
			clearTimeout(deadline);
			resolve({ code, stdout, stderr });
		});
	});
}
