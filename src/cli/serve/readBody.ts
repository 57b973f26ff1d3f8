/**
 * A request body, at most `maxBytes`: a larger `Content-Length` is refused before any byte is kept,
 * and so is a body that grows past the cap while it streams. The time a slow client
 * may take is the server's `requestTimeout` (`serveCommand.ts`).
 */
import type { IncomingMessage } from 'node:http';

export type BodyOutcome =
	{ readonly ok: true; readonly text: string } | { readonly ok: false; readonly tooLarge: true };

export function readBody(request: IncomingMessage, maxBytes: number): Promise<BodyOutcome> {
	const declared = Number(request.headers['content-length']);
	if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve({ ok: false, tooLarge: true });
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const onData = (piece: Buffer) => {
			size += piece.length;
			if (size > maxBytes) {
				// The rest is read and dropped (the request timeout bounds it): a client still sending
				// would otherwise meet a reset before it could read the 413.
				request.off('data', onData);
				request.resume();
				resolve({ ok: false, tooLarge: true });
				return;
			}
			chunks.push(piece);
		};
		request.on('data', onData);
		request.on('end', () => resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
		request.on('error', reject);
	});
}
