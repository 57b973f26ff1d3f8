import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cliPath } from './cliProcess.js';

/**
 * The built CLI on a pseudo-terminal: util-linux `script` gives the child a pty for stdin,
 * stdout and stderr, so the CLI sees a terminal exactly as a user's shell would give it.
 */
export interface PtySession {
	/** Everything the terminal showed so far (escape sequences included). */
	output(): string;
	/** Resolves once `text` has appeared in the output after position `from`; returns its end. */
	waitFor(text: string | RegExp, from?: number): Promise<number>;
	type(text: string): void;
	/** Sends `signal` to the CLI itself (script's child, which `exec` made the CLI; Linux /proc). */
	signal(signal: NodeJS.Signals): void;
	exited: Promise<number | null>;
}

export function startOnPty(
	args: readonly string[],
	options: { cwd: string; env?: NodeJS.ProcessEnv },
): PtySession {
	const quoted = [process.execPath, cliPath, ...args]
		.map((word) => `'${word.replace(/'/g, `'\\''`)}'`)
		.join(' ');
	// `exec`: the CLI replaces script's shell, so a Ctrl-C signal reaches only the CLI and its exit code is script's.
	const child = spawn('script', ['-qfec', `exec ${quoted}`, '/dev/null'], {
		cwd: options.cwd,
		env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'xterm', NO_COLOR: '1', ...options.env },
		stdio: ['pipe', 'pipe', 'pipe'],
	});
	let output = '';
	const waiters: (() => void)[] = [];
	const collect = (chunk: Buffer) => {
		output += chunk.toString();
		for (const wake of waiters.splice(0)) wake();
	};
	child.stdout.on('data', collect);
	child.stderr.on('data', collect);
	const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
	let done = false;
	void exited.then(() => {
		done = true;
		for (const wake of waiters.splice(0)) wake();
	});
	return {
		output: () => output,
		waitFor: (text, from = 0) =>
			new Promise((resolve, reject) => {
				const check = () => {
					const rest = output.slice(from);
					const match = typeof text === 'string' ? rest.indexOf(text) : rest.search(text);
					if (match >= 0) {
						const length = typeof text === 'string' ? text.length : rest.match(text)![0].length;
						return resolve(from + match + length);
					}
					if (done) return reject(new Error(`exited before ${String(text)} appeared:\n${output}`));
					waiters.push(check);
				};
				check();
			}),
		type: (text) => child.stdin.write(text),
		signal: (signal) => {
			const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim();
			process.kill(Number(children.split(' ')[0]), signal);
		},
		exited,
	};
}
