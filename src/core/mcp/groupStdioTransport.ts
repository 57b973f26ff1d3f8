/**
 * The MCP stdio client transport, with two changes from the SDK's: the server leads its own
 * process group, so closing ends everything it started (`npx` → node → …) and a cancelled run
 * leaves no orphans; and stderr is kept (its tail) to explain a crash instead of being mixed
 * into the CLI's terminal.
 */
import type { ChildProcess } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { spawnGroup, terminateGroup, waitForExit } from '../tools/commandProcess.js';

export interface StdioServerParams {
	readonly command: string;
	readonly args: readonly string[];
	readonly env: Readonly<Record<string, string>>;
	readonly cwd: string;
}

const stderrTailChars = 4000;

export class GroupStdioTransport implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: (message: JSONRPCMessage) => void;
	private child: ChildProcess | undefined;
	private readonly readBuffer = new ReadBuffer();
	private stderr = '';
	private closing = false;
	private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

	constructor(private readonly params: StdioServerParams) {}

	get pid(): number | undefined {
		return this.child?.pid;
	}

	/** The last few KB the server wrote to stderr. */
	get stderrTail(): string {
		return this.stderr;
	}

	/** How the process ended, if it did. */
	get exitInfo(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
		return this.exit;
	}

	start(): Promise<void> {
		if (this.child) throw new Error('GroupStdioTransport already started');
		return new Promise((resolve, reject) => {
			const child = spawnGroup(this.params.command, this.params.args, {
				cwd: this.params.cwd,
				env: { ...this.params.env },
				stdio: ['pipe', 'pipe', 'pipe'],
			});
			this.child = child;
			child.once('error', (error: NodeJS.ErrnoException) => {
				const friendly =
					error.code === 'ENOENT' ? new Error(`command not found: ${this.params.command}`) : error;
				reject(friendly);
				this.onerror?.(friendly);
			});
			child.once('spawn', () => resolve());
			child.once('exit', (code, signal) => {
				this.exit = { code, signal };
				if (!this.closing) this.onclose?.();
			});
			child.stdin?.on('error', (error) => this.onerror?.(error));
			child.stdout?.on('data', (chunk: Buffer) => {
				this.readBuffer.append(chunk);
				for (;;) {
					let message: JSONRPCMessage | null;
					try {
						message = this.readBuffer.readMessage();
					} catch (error) {
						this.onerror?.(error as Error);
						continue;
					}
					if (message === null) break;
					this.onmessage?.(message);
				}
			});
			child.stderr?.on('data', (chunk: Buffer) => {
				this.stderr = (this.stderr + chunk.toString('utf8')).slice(-stderrTailChars);
			});
		});
	}

	send(message: JSONRPCMessage): Promise<void> {
		return new Promise((resolve, reject) => {
			const stdin = this.child?.stdin;
			if (!stdin || stdin.destroyed || this.exit) return reject(new Error('the MCP server is not running'));
			if (stdin.write(serializeMessage(message))) resolve();
			else stdin.once('drain', resolve);
		});
	}

	/** Closes stdin, gives the server a moment to exit, then ends its whole process group. */
	async close(): Promise<void> {
		const child = this.child;
		if (!child || this.closing) return;
		this.closing = true;
		try {
			child.stdin?.end();
		} catch {
			// Already closed.
		}
		await waitForExit(child, 500);
		await terminateGroup(child, 1000);
		this.readBuffer.clear();
		this.onclose?.();
	}
}
