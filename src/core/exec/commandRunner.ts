/**
 * Runs one shell command line: its own process group, stdin closed, stdout and stderr captured
 * together in arrival order under a size cap (head and tail kept), a timeout, and cancellation.
 * On timeout, cancel, or when the shell exits, the whole group is ended: nothing it started
 * (background jobs included) outlives the call.
 */
import type { ChildProcess } from 'node:child_process';
import { isWindows, spawnGroup, terminateGroup, waitForExit } from './commandProcess.js';

export interface CommandRunOptions {
	readonly command: string;
	/** Absolute folder to run in. */
	readonly cwd: string;
	readonly env: Readonly<Record<string, string>>;
	readonly timeoutMs: number;
	/** Output beyond this is cut from the middle (the head and the tail are kept). */
	readonly maxOutputBytes: number;
	readonly signal: AbortSignal;
	/** The argv to spawn for the shell's argv (a sandbox's `wrap`); default: the shell itself. */
	readonly wrap?: (argv: readonly string[]) => readonly string[];
	/** Told about the child as soon as it exists (so a run can end it on close). */
	readonly onSpawn?: (child: ChildProcess) => void;
}

export interface CommandRunResult {
	readonly exitCode: number | null;
	readonly signal: NodeJS.Signals | null;
	readonly output: string;
	/** Bytes dropped from the middle of the output. */
	readonly omittedBytes: number;
	readonly timedOut: boolean;
	readonly cancelled: boolean;
	readonly durationMs: number;
	/** Set when the shell could not be started. */
	readonly error?: string;
}

/** Captures the first `head` and the last `tail` bytes of a stream of chunks. */
class HeadTail {
	private readonly headChunks: Buffer[] = [];
	private headBytes = 0;
	private tailChunks: Buffer[] = [];
	private tailBytes = 0;
	omitted = 0;

	constructor(
		private readonly head: number,
		private readonly tail: number,
	) {}

	push(chunk: Buffer): void {
		if (this.headBytes < this.head) {
			const take = chunk.subarray(0, this.head - this.headBytes);
			this.headChunks.push(take);
			this.headBytes += take.length;
			chunk = chunk.subarray(take.length);
		}
		if (chunk.length === 0) return;
		this.tailChunks.push(chunk);
		this.tailBytes += chunk.length;
		while (this.tailBytes > this.tail && this.tailChunks.length > 0) {
			const first = this.tailChunks[0]!;
			const excess = this.tailBytes - this.tail;
			if (first.length <= excess) {
				this.tailChunks.shift();
				this.tailBytes -= first.length;
				this.omitted += first.length;
			} else {
				this.tailChunks[0] = first.subarray(excess);
				this.tailBytes -= excess;
				this.omitted += excess;
			}
		}
	}

	text(): string {
		const head = Buffer.concat(this.headChunks).toString('utf8');
		const tail = Buffer.concat(this.tailChunks).toString('utf8');
		return this.omitted > 0 ? `${head}\n[… ${this.omitted} bytes of output omitted …]\n${tail}` : head + tail;
	}
}

export async function runShellCommand(options: CommandRunOptions): Promise<CommandRunResult> {
	const started = performance.now();
	const elapsed = () => Math.round(performance.now() - started);
	const base = { output: '', omittedBytes: 0, timedOut: false, exitCode: null, signal: null };
	if (options.signal.aborted) return { ...base, cancelled: true, durationMs: 0 };
	const shell = isWindows
		? [options.env['ComSpec'] ?? process.env['ComSpec'] ?? 'cmd.exe', '/d', '/s', '/c', options.command]
		: ['/bin/sh', '-c', options.command];
	const [file, ...args] = options.wrap ? options.wrap(shell) : shell;
	const capture = new HeadTail(
		Math.floor(options.maxOutputBytes / 4),
		options.maxOutputBytes - Math.floor(options.maxOutputBytes / 4),
	);
	let child: ChildProcess;
	try {
		child = spawnGroup(file!, args, {
			cwd: options.cwd,
			env: { ...options.env },
			stdio: ['ignore', 'pipe', 'pipe'],
			windowsVerbatimArguments: isWindows,
		});
	} catch (error) {
		return { ...base, cancelled: false, durationMs: elapsed(), error: (error as Error).message };
	}
	options.onSpawn?.(child);
	child.stdout?.on('data', (chunk: Buffer) => capture.push(chunk));
	child.stderr?.on('data', (chunk: Buffer) => capture.push(chunk));
	let timedOut = false;
	let cancelled = false;
	let spawnError: string | undefined;
	// Listened for from the start: 'close' often fires while the group is being ended below, and a
	// listener attached afterwards would wait for the fallback instead (300 ms on every such command).
	const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
	const ended = new Promise<void>((resolve) => {
		child.once('exit', () => resolve());
		child.once('error', (error) => {
			spawnError = error.message;
			resolve();
		});
	});
	const timer = setTimeout(() => {
		timedOut = true;
		void terminateGroup(child);
	}, options.timeoutMs);
	const onAbort = () => {
		cancelled = true;
		void terminateGroup(child);
	};
	options.signal.addEventListener('abort', onAbort, { once: true });
	try {
		await ended;
	} finally {
		clearTimeout(timer);
		options.signal.removeEventListener('abort', onAbort);
	}
	// Background jobs would keep the pipes (and the machine) busy: end the whole group now.
	await terminateGroup(child, 200);
	await Promise.race([closed, waitForExit(child, 0).then(() => delay(300))]);
	child.stdout?.destroy();
	child.stderr?.destroy();
	return {
		exitCode: child.exitCode,
		signal: child.signalCode,
		output: capture.text(),
		omittedBytes: capture.omitted,
		timedOut,
		cancelled,
		durationMs: elapsed(),
		...(spawnError ? { error: spawnError } : {}),
	};
}

function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** The result as the model reads it: a status line, then the output. */
export function formatCommandResult(result: CommandRunResult, timeoutMs: number): string {
	const seconds = (result.durationMs / 1000).toFixed(1);
	let status: string;
	if (result.error) status = `could not run the command: ${result.error}`;
	else if (result.cancelled) status = 'cancelled (the command and everything it started were stopped)';
	else if (result.timedOut) {
		status = `timed out after ${Math.round(timeoutMs / 1000)} s (the command and everything it started were killed)`;
	} else if (result.exitCode !== null) status = `exit code ${result.exitCode} (${seconds} s)`;
	else status = `killed by ${result.signal ?? 'a signal'} (${seconds} s)`;
	const output = result.output.trimEnd();
	return `${status}\n${output === '' ? '(no output)' : output}`;
}
