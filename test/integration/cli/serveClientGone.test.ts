/**
 * `massgen serve`'s chat handler (`chatCompletion`) on a real node:http server, for a client that
 * has already hung up when the handler starts (it may leave while its body is read or the teams
 * are looked up): the run must not go on for nobody, holding the workspace. Deterministic
 * counterpart of serve.test.ts's spawned hang-up attack.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { teamCallBusy } from '../../../src/cli/headless/teamCall.js';
import { chatCompletion } from '../../../src/cli/serve/chatCompletion.js';
import { readResult, runDirs } from '../../support/runDir.js';
import { hashTree, makeWorkspaceDir, removeTrees } from '../../support/tempTree.js';

afterAll(removeTrees);

it('a client gone before the handler listened: no run goes on for it, the workspace is free', async () => {
	const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
	const before = hashTree(root, (rel) => rel === '.massgen');
	const lines: string[] = [];
	let handled: Promise<void> | undefined;
	const server = createServer((request: IncomingMessage, response: ServerResponse) => {
		request.resume();
		// The handler starts only once the connection is gone ('close' already emitted).
		handled = new Promise<void>((done) => response.once('close', done)).then(() =>
			chatCompletion(
				response,
				{ model: 'massgen/demo', messages: [{ role: 'user', content: 'Which docs first?' }] },
				{
					root,
					config: undefined,
					env: { PATH: process.env['PATH'], HOME: makeWorkspaceDir() },
					log: (line) => lines.push(line),
					signal: new AbortController().signal,
				},
			),
		);
	});
	await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
	const { port } = server.address() as AddressInfo;
	try {
		await new Promise<void>((resolve, reject) => {
			const socket = connect(port, '127.0.0.1', () =>
				socket.end(
					`POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
					() => socket.destroy(),
				),
			);
			socket.on('close', () => resolve());
			socket.on('error', reject);
		});
		await expect.poll(() => handled !== undefined, { timeout: 10_000 }).toBe(true);
		await handled;
	} finally {
		server.close();
	}
	// The demo team would have finished its run (status completed, a change proposed) for nobody.
	for (const dir of runDirs(root)) expect(readResult<{ status: string }>(dir).status).toBe('cancelled');
	expect(lines.join('\n')).toMatch(/cancelled/);
	expect(lines.join('\n')).not.toMatch(/: completed \(/);
	expect(teamCallBusy(root)).toBe(false);
	expect(hashTree(root, (rel) => rel === '.massgen')).toBe(before);
});
