import { Writable } from 'node:stream';

/**
 * Stdout for the MCP transport alone: the protocol stream keeps the real stdout, and anything else
 * in the process that writes to `process.stdout` (a library's console.log) goes to stderr, so no
 * stray byte can break a client's framing.
 */
export function takeStdout(): Writable {
	const out = process.stdout;
	const write = out.write.bind(out) as (
		chunk: Buffer | string,
		callback: (error?: Error | null) => void,
	) => boolean;
	const protocol = new Writable({
		write(chunk: Buffer, _encoding, callback) {
			write(chunk, callback);
		},
	});
	out.write = process.stderr.write.bind(process.stderr) as typeof out.write;
	return protocol;
}
