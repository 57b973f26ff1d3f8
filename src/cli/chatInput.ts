/**
 * The chat prompt's line reader. Readline is open only while the prompt waits, so during a run
 * the terminal is back in its normal mode: Ctrl-C is a signal (it stops the run) and the approval
 * prompt can read stdin. Lines typed ahead (or piped) are kept for the next prompts; on a
 * terminal, lines typed while a run goes are read line by line (the terminal's own echo and
 * editing) and steer it (`whileRunning`).
 */
import { createInterface, type Interface } from 'node:readline';
import type { TypedLines } from './steer/runSteering.js';

export class ChatInput {
	private readonly lines: string[] = [];
	private waiting: ((line: string | null) => void) | null = null;
	private rl: Interface | null = null;
	private ended = false;

	constructor(
		private readonly input: NodeJS.ReadStream,
		private readonly output: NodeJS.WriteStream,
	) {
		input.once('end', () => this.finish());
	}

	/** The next line, or null at the end of input (Ctrl-D), Ctrl-C at the prompt, or `interrupt()`. */
	ask(prompt: string): Promise<string | null> {
		const queued = this.lines.shift();
		if (queued !== undefined) return Promise.resolve(queued);
		if (this.ended) return Promise.resolve(null);
		return new Promise((resolve) => {
			this.waiting = resolve;
			this.open().setPrompt(prompt);
			this.rl!.prompt();
		});
	}

	/**
	 * The lines typed while a run goes, for `RunSteering`: a plain line reader (no raw mode), closed
	 * while an approval prompt reads the terminal and when the run ends.
	 */
	whileRunning(): TypedLines {
		let reader: Interface | null = null;
		let onLine: ((line: string) => void) | null = null;
		const open = () => {
			if (reader || !onLine || this.ended) return;
			reader = createInterface({ input: this.input, terminal: false });
			reader.on('line', (line) => onLine?.(line));
		};
		const shut = () => {
			const closing = reader;
			reader = null;
			closing?.close();
		};
		return {
			listen: (handler) => {
				onLine = handler;
				open();
			},
			pause: shut,
			resume: open,
			stop: () => {
				onLine = null;
				shut();
			},
		};
	}

	/** Ends a waiting prompt as if the input had ended (a signal while no run is active). */
	interrupt(): void {
		this.finish();
	}

	close(): void {
		this.ended = true;
		this.shut();
	}

	private open(): Interface {
		if (this.rl) return this.rl;
		const terminal = this.input.isTTY === true && this.output.isTTY === true;
		const rl = createInterface({ input: this.input, output: this.output, terminal });
		rl.on('line', (line) => this.deliver(line));
		// Ctrl-D (end of input) and Ctrl-C at the prompt end the chat; a close of ours does not.
		rl.on('close', () => {
			if (this.rl === rl) this.finish();
		});
		rl.on('SIGINT', () => this.finish());
		this.rl = rl;
		return rl;
	}

	private deliver(line: string): void {
		const waiting = this.waiting;
		if (!waiting) {
			this.lines.push(line);
			return;
		}
		this.waiting = null;
		waiting(line);
		// After the lines of the same chunk have been delivered (they are emitted synchronously).
		setImmediate(() => {
			if (!this.waiting) this.shut();
		});
	}

	private finish(): void {
		this.ended = true;
		const waiting = this.waiting;
		this.waiting = null;
		this.shut();
		waiting?.(null);
	}

	private shut(): void {
		const rl = this.rl;
		this.rl = null;
		rl?.close();
	}
}
