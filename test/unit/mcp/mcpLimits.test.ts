/**
 * Bounded input from MCP servers (the SDK's real server side on stdio and streamable HTTP): a
 * message over 10 MiB or a tool list over the caps ends that server's session with the reason,
 * as a tool error, never an uncaught exception; the same server's normal-size messages work.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpHub } from '../../../src/core/mcp/mcpHub.js';
import { maxMcpMessageBytes } from '../../../src/core/mcp/mcpLimits.js';
import type { McpServerSpec } from '../../../src/core/mcp/mcpServerSpec.js';
import { startFloodHttpServer, type FloodHttpServer } from '../../servers/mcp/floodServer.js';
import { floodServerFile, isAlive, tsxLoader } from '../../servers/mcp/launch.js';
import { waitFor } from '../../support/waitFor.js';

const hubs: McpHub[] = [];
const servers: FloodHttpServer[] = [];
afterEach(async () => {
	await Promise.all(hubs.splice(0).map((hub) => hub.close()));
	await Promise.all(servers.splice(0).map((server) => server.close()));
});

const twelveMb = 12 * 1024 * 1024;

function floodStdio(env: Record<string, string> = {}): McpServerSpec {
	return {
		name: 'flood',
		type: 'stdio',
		command: process.execPath,
		args: ['--import', tsxLoader, floodServerFile],
		env,
		origin: { kind: 'config', fromWorkspace: false },
	};
}

async function started(spec: McpServerSpec) {
	const notices: string[] = [];
	const hub = new McpHub({
		env: { HOME: process.env['HOME'], PATH: process.env['PATH'] },
		workspaceRoot: mkdtempSync(join(tmpdir(), 'massgen-mcp-')),
		trusted: true,
		startTimeoutMs: 30_000,
		callTimeoutMs: 30_000,
		onNotice: (message) => notices.push(message),
	});
	hubs.push(hub);
	hub.addAgent('a', { servers: [spec] });
	await hub.start();
	return { hub, notices };
}

const readLog = (hub: McpHub, bytes: number) =>
	hub
		.toolsFor('a')
		.find((tool) => tool.tool === 'read_log')!
		.call({ bytes }, new AbortController().signal);

const tooLarge = new RegExp(
	`^mcp__flood__read_log: MCP server 'flood' is unavailable: the server sent a message of more than ${maxMcpMessageBytes} bytes`,
);

describe('MCP input bounds', () => {
	it('stdio: a 12 MB message is a tool error that ends the session (the server process too); 1 KB works', async () => {
		const { hub } = await started(floodStdio());
		const small = await readLog(hub, 1000);
		expect(small).toEqual({ isError: false, text: `log:${'x'.repeat(1000)}` });
		const pid = hub.allSessions[0]!.pid!;
		const big = await readLog(hub, twelveMb);
		expect(big.isError).toBe(true);
		expect(big.text).toMatch(tooLarge);
		expect(hub.allSessions[0]!.state).toBe('failed');
		await waitFor(() => !isAlive(pid), 'the flooding server to end', { timeoutMs: 5000 });
		// Its tools drop out of later requests; a later call says why.
		expect(hub.toolsFor('a')).toEqual([]);
	});

	it('stdio: a server listing 20,000 tools does not start, with the reason; 20 tools do', async () => {
		const many = await started(floodStdio({ MCP_FLOOD_TOOLS: '20000' }));
		expect(many.hub.toolsFor('a')).toEqual([]);
		expect(many.notices).toEqual([
			"MCP server 'flood' is unavailable: could not start: the server lists more than 1000 tools (the limit); its session was ended",
		]);
		const few = await started(floodStdio({ MCP_FLOOD_TOOLS: '20' }));
		expect(few.notices).toEqual([]);
		expect(few.hub.toolsFor('a')).toHaveLength(21);
	});

	for (const json of [true, false]) {
		it(`streamable HTTP (${json ? 'JSON body' : 'SSE event'}): a 12 MB response is a tool error that ends the session; 1 KB works`, async () => {
			const server = await startFloodHttpServer({ json });
			servers.push(server);
			const { hub } = await started({
				name: 'flood',
				type: 'streamable-http',
				url: server.url,
				origin: { kind: 'config', fromWorkspace: false },
			});
			expect(await readLog(hub, 1000)).toEqual({ isError: false, text: `log:${'x'.repeat(1000)}` });
			const big = await readLog(hub, twelveMb);
			expect(big.isError).toBe(true);
			expect(big.text).toMatch(tooLarge);
			expect(hub.allSessions[0]!.state).toBe('failed');
		});
	}

	it('stdio: a server refusing to start with a 5 MB error says why in a bounded notice (it goes to events.jsonl, the panel, a notification)', async () => {
		// Answers `initialize` with a JSON-RPC error whose message is 5 MB (under the 10 MiB message cap).
		const refuse = `process.stdin.once('data', (line) => { const { id } = JSON.parse(String(line).split('\\n')[0]); process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: 'no ' + 'x'.repeat(5e6) } }) + '\\n'); })`;
		const { hub, notices } = await started({
			name: 'refuser',
			type: 'stdio',
			command: process.execPath,
			args: ['-e', refuse],
			origin: { kind: 'config', fromWorkspace: false },
		});
		expect(hub.allSessions[0]!.state).toBe('failed');
		expect(notices).toHaveLength(1);
		expect(notices[0]).toBe("MCP server 'refuser' is unavailable: could not start: no …");
	});
});
