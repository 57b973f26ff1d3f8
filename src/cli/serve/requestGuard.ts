/**
 * Who may drive `massgen serve`. With a token, every request must carry `Authorization: Bearer
 * <token>` (compared in constant time). Without one the server listens on loopback only, and a
 * request must name it in `Host` (a web page that rebinds its own name to 127.0.0.1 sends its
 * name) and must not come from another origin (a page's `fetch` carries its `Origin`): a page in
 * the user's browser cannot start runs, whatever the port.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';

export type GuardVerdict =
	{ readonly ok: true } | { readonly ok: false; readonly status: 401 | 403; readonly message: string };

/** 127.0.0.0/8, ::1, `localhost`: addresses that only this machine reaches. */
export function isLoopbackHost(host: string): boolean {
	const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
	if (bare === 'localhost' || bare === '::1') return true;
	return isIP(bare) === 4 && bare.startsWith('127.');
}

/** `host:port` as a URL authority (`[::1]:8000`). */
export function authority(host: string, port: number): string {
	return `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}

export function requestGuard(options: { readonly token: string | undefined; readonly port: number }) {
	const expected = options.token === undefined ? undefined : digest(options.token);
	// Loopback names the client may use for this server (`curl localhost:PORT`, an SDK on 127.0.0.1).
	const hosts = new Set(['127.0.0.1', 'localhost', '[::1]'].map((name) => `${name}:${options.port}`));
	const origins = new Set([...hosts].map((host) => `http://${host}`));
	return (headers: IncomingHttpHeaders): GuardVerdict => {
		if (expected) {
			const given = /^Bearer (.+)$/i.exec(headers.authorization ?? '')?.[1]?.trim() ?? '';
			if (timingSafeEqual(digest(given), expected)) return { ok: true };
			return {
				ok: false,
				status: 401,
				message: 'missing or wrong bearer token (Authorization: Bearer <token>)',
			};
		}
		if (!hosts.has((headers.host ?? '').toLowerCase())) {
			return { ok: false, status: 403, message: 'the Host header does not name this loopback server' };
		}
		const origin = headers.origin;
		if (origin !== undefined && !origins.has(origin.toLowerCase())) {
			return { ok: false, status: 403, message: 'requests from web pages are refused (a foreign Origin)' };
		}
		return { ok: true };
	};
}

/** Same length whatever was given, so the comparison takes the same time. */
function digest(text: string): Buffer {
	return createHash('sha256').update(text, 'utf8').digest();
}
