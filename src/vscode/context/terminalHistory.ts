/**
 * The last commands of each terminal and their output, through shell integration (docs/context.md):
 * `execution.read()` yields only what is written after it is first called, so every execution is
 * read from its start event on, while the extension runs. Nothing here reads a terminal's screen
 * or the clipboard. Terminals without shell integration report no executions: the picker says so.
 */
import stripAnsi from 'strip-ansi';
import type { TerminalExecution } from './contextChips.js';

/** What this needs of `vscode.TerminalShellExecution`. */
export interface ShellExecution {
	readonly commandLine: { readonly value: string };
	read(): AsyncIterable<string>;
}

/** Executions kept per terminal, newest last. */
const perTerminal = 5;
/** Characters of one command's output kept (its end: where results and errors are). */
export const outputChars = 100 * 1024;

interface Reading {
	raw: string;
	dropped: number;
	done: Promise<void>;
}

/** Records executions per terminal (any object: `vscode.Terminal` in the extension). */
export class TerminalHistory<T extends object = object> {
	private readonly _reading = new Map<ShellExecution, Reading>();
	private readonly _finished = new Map<T, TerminalExecution[]>();

	/** From `onDidStartTerminalShellExecution`: starts reading its output. */
	started(execution: ShellExecution): void {
		const reading: Reading = { raw: '', dropped: 0, done: Promise.resolve() };
		reading.done = (async () => {
			for await (const data of execution.read()) {
				reading.raw += data;
				// Kept raw (an escape sequence may be split across chunks), with room for its escapes.
				if (reading.raw.length > 2 * outputChars) {
					const drop = reading.raw.length - 2 * outputChars;
					reading.raw = reading.raw.slice(drop);
					reading.dropped += drop;
				}
			}
		})().catch(() => undefined);
		this._reading.set(execution, reading);
	}

	/** From `onDidEndTerminalShellExecution`: the execution is kept once its output is read. */
	async ended(
		terminal: T,
		name: string,
		execution: ShellExecution,
		exitCode: number | undefined,
	): Promise<void> {
		const reading = this._reading.get(execution);
		if (!reading) return;
		await reading.done;
		this._reading.delete(execution);
		const text = stripAnsi(reading.raw).replace(/\r\n?/g, '\n');
		const output = text.length > outputChars ? text.slice(text.length - outputChars) : text;
		const droppedChars = reading.dropped + text.length - output.length;
		const list = this._finished.get(terminal) ?? [];
		list.push({
			terminal: name,
			commandLine: execution.commandLine.value,
			output: output.replace(/\n+$/, ''),
			exitCode,
			...(droppedChars > 0
				? { cut: `[the first ${droppedChars} characters of the output are left out]` }
				: {}),
		});
		this._finished.set(terminal, list.slice(-perTerminal));
	}

	closed(terminal: T): void {
		this._finished.delete(terminal);
	}

	/** The terminal's finished executions, newest first. */
	executions(terminal: T): readonly TerminalExecution[] {
		return [...(this._finished.get(terminal) ?? [])].reverse();
	}
}
