/**
 * The MCP stdio client transport, with two changes from the SDK's: the server leads its own
 * process group, so closing ends everything it started (`npx` → node → …) and a cancelled run
 * leaves no orphans; stderr is kept (its tail) to explain a crash instead of being mixed
 * into the CLI's terminal; and a message over `maxMcpMessageBytes` ends the session with that
 * reason (the SDK's buffer threw from a stream listener: an uncaught exception, the CLI gone).
 */
import type { ChildProcess } from 'node:child_process';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { spawnGroup, terminateGroup, waitForExit } from '../exec/commandProcess.js';
import { maxMcpMessageBytes, messageTooLarge } from './mcpLimits.js';

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
	private readonly lines = new LineBuffer(maxMcpMessageBytes);
	private refusal: string | undefined;
	private stderr = '';
	private closing = false;
	private closeSignalled = false;
	private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

	constructor(private readonly params: StdioServerParams) {}

	get pid(): number | undefined {
		return this.child?.pid;
	}

	/** The last few KB the server wrote to stderr. */
	get stderrTail(): string {
		return this.stderr;
	}

	/** Why the transport ended the session itself (a message over the cap), if it did. */
	get problem(): string | undefined {
		return this.refusal;
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
				if (!this.closing) this.signalClose();
			});
			child.stdin?.on('error', (error) => this.onerror?.(error));
			child.stdout?.on('data', (chunk: Buffer) => {
				if (this.refusal !== undefined) return;
				let lines: string[];
				try {
					lines = this.lines.push(chunk);
				} catch {
					this.refusal = messageTooLarge(maxMcpMessageBytes);
					// Pending calls fail now with the reason; the process group ends meanwhile.
					void this.close();
					this.signalClose();
					return;
				}
				for (const line of lines) {
					let message: JSONRPCMessage;
					try {
						message = deserializeMessage(line);
					} catch (error) {
						this.onerror?.(error as Error);
						continue;
					}
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
		this.lines.clear();
		this.signalClose();
	}

	private signalClose(): void {
		if (this.closeSignalled) return;
		this.closeSignalled = true;
		this.onclose?.();
	}
}

/**
 * Splits stdout into lines (one JSON-RPC message each) and throws once a line passes `max` bytes,
 * before holding more: the SDK's ReadBuffer concatenated every chunk into one buffer (quadratic
 * for a large message) and capped the buffer, not the message.
 */
class LineBuffer {
	private parts: Buffer[] = [];
	private size = 0;

	constructor(private readonly max: number) {}

	/** The complete lines this chunk ends (without '\n' or '\r\n'). */
	push(chunk: Buffer): string[] {
		const lines: string[] = [];
		let start = 0;
		for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
			this.add(chunk.subarray(start, newline));
			lines.push(Buffer.concat(this.parts, this.size).toString('utf8').replace(/\r$/, ''));
			this.clear();
			start = newline + 1;
		}
		if (start < chunk.length) this.add(chunk.subarray(start));
		return lines;
	}

	clear(): void {
		this.parts = [];
		this.size = 0;
	}

	private add(part: Buffer): void {
		if (this.size + part.length > this.max) {
			this.clear();
			throw new Error('message too large');
		}
		this.parts.push(part);
		this.size += part.length;
	}
}
