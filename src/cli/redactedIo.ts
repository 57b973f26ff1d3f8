import type { Redactor } from '../core/secrets/redactor.js';
import type { CliIo } from './cliIo.js';
import { rawTerminalKey } from './display/terminalStream.js';

/**
 * The CLI's stdout and stderr with every write passed through the run's redactor (read at each
 * write: the redactor learns the run's secrets once the team is resolved). The streams stay
 * real streams for everything else (`isTTY`, `columns`, events), so displays and readline work.
 */
export function redactedIo(io: CliIo, redactor: () => Redactor): CliIo {
	return { ...io, stdout: redactedStream(io.stdout, redactor), stderr: redactedStream(io.stderr, redactor) };
}

function redactedStream(stream: NodeJS.WriteStream, redactor: () => Redactor): NodeJS.WriteStream {
	const write = (chunk: unknown, ...rest: unknown[]): boolean => {
		const text =
			typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
		return (stream.write as (...args: unknown[]) => boolean)(redactor().text(text), ...rest);
	};
	return new Proxy(stream, {
		get(target, property) {
			if (property === 'write') return write;
			// The terminal under a `terminalSafe` stream stays redacted.
			if (property === rawTerminalKey) {
				const inner: unknown = Reflect.get(target, property, target);
				return inner === undefined ? undefined : redactedStream(inner as NodeJS.WriteStream, redactor);
			}
			const value: unknown = Reflect.get(target, property, target);
			return typeof value === 'function' ? value.bind(target) : value;
		},
	});
}
