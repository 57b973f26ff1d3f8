/**
 * stdout and stderr as every CLI command writes them. Written to a terminal, each write has its
 * controls shown as visible stand-ins (`visibleControls`): model answers, reports of past runs,
 * server names and config text all pass here, so none reaches the terminal as an escape sequence
 * (clipboard writes, retitling, clearing the screen, moving the cursor over a prompt).
 *
 * Written to a pipe or a file, the bytes pass as they are: there the output is data (`> answer.md`,
 * `| jq`), no terminal interprets it, and changing it would corrupt the answer the user saved.
 * What the CLI draws itself (the live table's cursor moves, readline's line editing) goes to
 * `rawTerminal(stream)`, and only after its text was made one safe line (`sanitizeTerminalText`).
 */
import { visibleControls } from '../../protocol/visibleText.js';

const raw = Symbol('massgen.rawTerminal');

export function terminalSafe(stream: NodeJS.WriteStream): NodeJS.WriteStream {
	const write = (chunk: unknown, ...rest: unknown[]): boolean => {
		const out =
			stream.isTTY !== true
				? chunk
				: visibleControls(
						typeof chunk === 'string'
							? chunk
							: chunk instanceof Uint8Array
								? Buffer.from(chunk).toString('utf8')
								: String(chunk),
					);
		return (stream.write as (...args: unknown[]) => boolean)(out, ...rest);
	};
	return new Proxy(stream, {
		get(target, property) {
			if (property === 'write') return write;
			if (property === raw) return target;
			const value: unknown = Reflect.get(target, property, target);
			return typeof value === 'function' ? value.bind(target) : value;
		},
	});
}

/**
 * The stream under `terminalSafe` (through any wrapper that forwards `rawTerminal`, such as the
 * redactor's), for the escape sequences the CLI itself composes; the stream itself otherwise.
 */
export function rawTerminal<T extends object>(stream: T): T {
	return ((stream as Record<symbol, unknown>)[raw] as T | undefined) ?? stream;
}

/** For wrappers of a stream: what `rawTerminal` should give for the wrapped one (undefined: none). */
export const rawTerminalKey: symbol = raw;
