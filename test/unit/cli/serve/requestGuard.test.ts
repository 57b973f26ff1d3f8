import { describe, expect, it } from 'vitest';
import { authority, isLoopbackHost, requestGuard } from '../../../../src/cli/serve/requestGuard.js';

describe('who may call massgen serve', () => {
	it('knows loopback: 127.0.0.0/8, ::1 and localhost; not 0.0.0.0, a LAN address or a name', () => {
		for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', 'LOCALHOST']) {
			expect(isLoopbackHost(host), host).toBe(true);
		}
		for (const host of ['0.0.0.0', '::', '192.168.1.5', '127.example.com', 'localhost.attacker.example']) {
			expect(isLoopbackHost(host), host).toBe(false);
		}
		expect(authority('::1', 8000)).toBe('[::1]:8000');
		expect(authority('127.0.0.1', 8000)).toBe('127.0.0.1:8000');
	});

	it('without a token: only this server by its loopback names, and no foreign Origin', () => {
		const guard = requestGuard({ token: undefined, port: 8000 });
		for (const host of ['127.0.0.1:8000', 'localhost:8000', '[::1]:8000']) {
			expect(guard({ host }).ok, host).toBe(true);
		}
		for (const host of ['attacker.example:8000', '127.0.0.1:8001', '127.0.0.1', undefined]) {
			expect(guard({ host }), String(host)).toMatchObject({ ok: false, status: 403 });
		}
		expect(guard({ host: 'localhost:8000', origin: 'http://localhost:8000' }).ok).toBe(true);
		expect(guard({ host: 'localhost:8000', origin: 'https://attacker.example' })).toMatchObject({
			status: 403,
		});
		expect(guard({ host: 'localhost:8000', origin: 'null' })).toMatchObject({ status: 403 });
	});

	it('with a token: the bearer token alone decides, whatever its length', () => {
		const guard = requestGuard({ token: 'secret-token', port: 8000 });
		expect(guard({ authorization: 'Bearer secret-token', host: 'anything' }).ok).toBe(true);
		expect(guard({ authorization: 'bearer secret-token' }).ok).toBe(true);
		for (const authorization of [
			'Bearer secret-tokeN',
			'Bearer secret',
			'Bearer secret-token-and-more',
			'secret-token',
			'',
			undefined,
		]) {
			expect(guard({ authorization }), String(authorization)).toMatchObject({ ok: false, status: 401 });
		}
	});
});
