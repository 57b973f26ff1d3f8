import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpHub, toolName, type McpHubOptions } from '../../../src/core/mcp/mcpHub.js';
import { classifyMcpTool } from '../../../src/core/permissions/riskClassifier.js';
import { startHttpToolServer, type HttpToolServer } from '../../servers/mcp/httpServer.js';
import { pixelPng } from '../../servers/mcp/toolServer.js';
import { hostileServerSpec, isAlive, logLines, stdioServerSpec } from '../../servers/mcp/launch.js';
import { waitFor } from '../../support/waitFor.js';

const hubs: McpHub[] = [];
const servers: HttpToolServer[] = [];

afterEach(async () => {
	await Promise.all(hubs.splice(0).map((hub) => hub.close()));
	await Promise.all(servers.splice(0).map((server) => server.close()));
});

function tempDir(): string {
	return mkdtempSync(join(tmpdir(), 'massgen-mcp-'));
}

function hub(options: Partial<McpHubOptions> = {}): { hub: McpHub; notices: string[] } {
	const notices: string[] = [];
	const created = new McpHub({
		env: { HOME: process.env['HOME'], PATH: process.env['PATH'] },
		workspaceRoot: tempDir(),
		trusted: true,
		startTimeoutMs: 20_000,
		callTimeoutMs: 10_000,
		onNotice: (message) => notices.push(message),
		...options,
	});
	hubs.push(created);
	return { hub: created, notices };
}

const signal = () => new AbortController().signal;

describe('McpHub over real servers', () => {
	it('discovers a stdio server: mcp__<server>__<tool> names, the server schema, working calls and result mapping', async () => {
		const { hub: h } = hub();
		h.addAgent('a1', { servers: [stdioServerSpec('files')] });
		await h.start();
		const tools = h.toolsFor('a1');
		expect(tools.map((tool) => tool.definition.name)).toEqual(
			[
				'echo',
				'note',
				'add',
				'image',
				'fail',
				'slow',
				'crash',
				'pid',
				'spawn_grandchild',
				'write_file',
				'secret_tool',
			].map((name) => `mcp__files__${name}`),
		);
		const echo = tools.find((tool) => tool.tool === 'echo')!;
		expect(echo.definition.parameters).toMatchObject({
			type: 'object',
			properties: { text: { type: 'string' } },
			required: ['text'],
		});
		expect(echo.definition.parameters).not.toHaveProperty('$schema');
		expect(echo.definition.description).toContain("MCP server 'files'");
		expect(echo.hints).toMatchObject({ readOnlyHint: true });
		expect(await echo.call({ text: 'hi' }, signal())).toEqual({ text: 'echo: hi', isError: false });
		const byName = (name: string) => tools.find((tool) => tool.tool === name)!;
		expect(await byName('add').call({ a: 2, b: 3 }, signal())).toEqual({ text: '5', isError: false });
		expect((await byName('image').call({}, signal())).text).toBe(
			`a pixel:\n[image: image/png, ${Buffer.from(pixelPng, 'base64').length} bytes]`,
		);
		expect(await byName('fail').call({ message: 'boom' }, signal())).toEqual({
			text: 'mcp__files__fail: boom',
			isError: true,
		});
	});

	it('uses one session per server per run: agents and calls share it (counted by server starts and HTTP sessions)', async () => {
		const log = join(tempDir(), 'server.log');
		const http = await startHttpToolServer();
		servers.push(http);
		const { hub: h } = hub();
		const spec = stdioServerSpec('files', { log });
		const web = {
			name: 'web',
			type: 'streamable-http' as const,
			url: http.url,
			origin: { kind: 'config' as const, fromWorkspace: false },
		};
		h.addAgent('a1', { servers: [spec, web] });
		h.addAgent('a2', { servers: [spec, web] });
		await h.start();
		for (const agent of ['a1', 'a2', 'a1']) {
			for (const server of ['files', 'web']) {
				const echo = h.toolsFor(agent).find((tool) => tool.definition.name === `mcp__${server}__echo`)!;
				expect((await echo.call({ text: agent }, signal())).text).toBe(`echo: ${agent}`);
			}
		}
		expect(logLines(log).filter((line) => line.startsWith('start'))).toHaveLength(1);
		expect(logLines(log).filter((line) => line.startsWith('call echo'))).toHaveLength(3);
		expect(http.sessions()).toBe(1);
		expect(h.allSessions).toHaveLength(2);
		await h.close();
		expect(http.terminated()).toBe(1);
	});

	it('filters on unprefixed names: a server allow-list overrides the backend one, excludes add up', async () => {
		const { hub: h } = hub();
		h.addAgent('server-level', {
			servers: [
				stdioServerSpec('s', { allowedTools: ['echo', 'add', 'secret_tool'], excludeTools: ['secret_tool'] }),
			],
			allowedTools: ['pid'],
		});
		h.addAgent('backend-level', {
			servers: [stdioServerSpec('s')],
			allowedTools: ['echo', 'pid'],
			excludeTools: ['mcp__s__pid'],
		});
		h.addAgent('exclude-only', {
			servers: [stdioServerSpec('s', { excludeTools: ['crash', 'spawn_grandchild'] })],
			excludeTools: ['secret_tool'],
		});
		await h.start();
		const names = (agent: string) => h.toolsFor(agent).map((tool) => tool.tool);
		expect(names('server-level')).toEqual(['echo', 'add']);
		expect(names('backend-level')).toEqual(['echo']);
		expect(names('exclude-only')).toEqual([
			'echo',
			'note',
			'add',
			'image',
			'fail',
			'slow',
			'pid',
			'write_file',
		]);
		// Same connection settings: one session despite different filters.
		expect(h.allSessions).toHaveLength(1);
	});

	it('times out a slow call (per-call timeout) and keeps the session usable', async () => {
		const { hub: h } = hub({ callTimeoutMs: 1000 });
		h.addAgent('a1', { servers: [stdioServerSpec('t')] });
		await h.start();
		const tools = h.toolsFor('a1');
		const started = Date.now();
		const slow = await tools.find((tool) => tool.tool === 'slow')!.call({ ms: 10_000 }, signal());
		expect(Date.now() - started).toBeLessThan(5000);
		expect(slow).toEqual({ text: "mcp__t__slow: timed out after 1 s (MCP server 't')", isError: true });
		expect(
			(await tools.find((tool) => tool.tool === 'echo')!.call({ text: 'still here' }, signal())).text,
		).toBe('echo: still here');
	});

	it('a crashed server makes its tools unavailable (tool errors naming the exit and stderr); other servers keep working', async () => {
		const { hub: h } = hub();
		h.addAgent('a1', { servers: [stdioServerSpec('fragile'), stdioServerSpec('sturdy')] });
		await h.start();
		const tools = h.toolsFor('a1');
		const get = (name: string) => tools.find((tool) => tool.definition.name === name)!;
		await get('mcp__fragile__crash').call({}, signal());
		await waitFor(() => get('mcp__fragile__echo').unavailable() !== null, 'the crash to be noticed', {
			timeoutMs: 5000,
		});
		const after = await get('mcp__fragile__echo').call({ text: 'x' }, signal());
		expect(after.isError).toBe(true);
		expect(after.text).toMatch(
			/^mcp__fragile__echo: MCP server 'fragile' is unavailable: the server exited \(code 3\); stderr: crashing on purpose/,
		);
		expect(h.toolsFor('a1').map((tool) => tool.server)).not.toContain('fragile');
		expect((await get('mcp__sturdy__echo').call({ text: 'ok' }, signal())).text).toBe('echo: ok');
	});

	it('a server that cannot start is reported and offers no tools', async () => {
		const { hub: h, notices } = hub();
		h.addAgent('a1', {
			servers: [
				stdioServerSpec('broken', { failStart: true }),
				{ ...stdioServerSpec('missing'), command: 'no-such-mcp-server-binary' },
			],
		});
		await h.start();
		expect(h.toolsFor('a1')).toEqual([]);
		expect(notices).toEqual(
			expect.arrayContaining([
				expect.stringMatching(
					/^MCP server 'broken' is unavailable: (could not start|the server exited \(code 2\)).*/,
				),
				"MCP server 'missing' is unavailable: could not start: command not found: no-such-mcp-server-binary",
			]),
		);
	});

	it('closing ends the server and everything it started (no orphan processes)', async () => {
		const log = join(tempDir(), 'server.log');
		const { hub: h } = hub();
		h.addAgent('a1', { servers: [stdioServerSpec('p', { log })] });
		await h.start();
		const tools = h.toolsFor('a1');
		const pid = Number((await tools.find((tool) => tool.tool === 'pid')!.call({}, signal())).text);
		const grandchild = Number(
			(await tools.find((tool) => tool.tool === 'spawn_grandchild')!.call({}, signal())).text,
		);
		expect(isAlive(pid) && isAlive(grandchild)).toBe(true);
		expect(h.allSessions[0]!.pid).toBe(pid);
		await h.close();
		await waitFor(() => !isAlive(pid) && !isAlive(grandchild), 'the server and its child to exit', {
			timeoutMs: 5000,
		});
		expect((await tools[0]!.call({ text: 'late' }, signal())).text).toMatch(/is closed/);
	});

	it('cancelling a call returns at once', async () => {
		const { hub: h } = hub();
		h.addAgent('a1', { servers: [stdioServerSpec('t')] });
		await h.start();
		const controller = new AbortController();
		const started = Date.now();
		const pending = h
			.toolsFor('a1')
			.find((tool) => tool.tool === 'slow')!
			.call({ ms: 20_000 }, controller.signal);
		setTimeout(() => controller.abort(), 200);
		expect(await pending).toEqual({ text: 'mcp__t__slow: cancelled', isError: true });
		expect(Date.now() - started).toBeLessThan(3000);
	});

	it('in an untrusted workspace, stdio servers from workspace files never start; HTTP ones do', async () => {
		const log = join(tempDir(), 'server.log');
		const http = await startHttpToolServer();
		servers.push(http);
		const { hub: h, notices } = hub({ trusted: false });
		h.addAgent('a1', {
			servers: [
				stdioServerSpec('fromfile', { log, origin: { kind: 'workspace-file', file: '.vscode/mcp.json' } }),
				stdioServerSpec('fromconfig', { log, origin: { kind: 'config', fromWorkspace: true } }),
				stdioServerSpec('mine', { origin: { kind: 'config', fromWorkspace: false } }),
				{
					name: 'web',
					type: 'streamable-http',
					url: http.url,
					origin: { kind: 'workspace-file', file: '.mcp.json' },
				},
			],
		});
		await h.start();
		expect(notices).toEqual([
			"MCP server 'fromfile' (from .vscode/mcp.json) was not started: the workspace is not trusted, and stdio servers start processes",
			"MCP server 'fromconfig' (from the workspace team config) was not started: the workspace is not trusted, and stdio servers start processes",
		]);
		expect(logLines(log)).toEqual([]);
		expect(new Set(h.toolsFor('a1').map((tool) => tool.server))).toEqual(new Set(['mine', 'web']));
	});

	it('expands ${VAR} in env and headers from the given environment; a missing variable is a clear start failure', async () => {
		const http = await startHttpToolServer();
		servers.push(http);
		const { hub: h, notices } = hub({
			env: { PATH: process.env['PATH'], HOME: process.env['HOME'], TEST_TOKEN: 'abc123' },
		});
		h.addAgent('a1', {
			servers: [
				{
					name: 'web',
					type: 'streamable-http',
					url: http.url,
					headers: { Authorization: 'Bearer ${TEST_TOKEN}' },
					origin: { kind: 'config', fromWorkspace: false },
				},
				stdioServerSpec('needy', { env: { TOKEN: '${NOT_SET_ANYWHERE}' } }),
			],
		});
		await h.start();
		expect(http.headers.some((headers) => headers['authorization'] === 'Bearer abc123')).toBe(true);
		expect(notices).toEqual([
			"MCP server 'needy' is unavailable: could not start: not set: NOT_SET_ANYWHERE",
		]);
	});
});

describe('McpHub: tool annotations', () => {
	it('a workspace-defined server’s read-only claim is dropped (its calls then ask); the user’s own server keeps it', async () => {
		const { hub: h } = hub();
		h.addAgent('a1', {
			servers: [
				stdioServerSpec('repo', { origin: { kind: 'config', fromWorkspace: true } }),
				stdioServerSpec('vscodefile', { origin: { kind: 'workspace-file', file: '.vscode/mcp.json' } }),
				stdioServerSpec('mine', { origin: { kind: 'config', fromWorkspace: false } }),
			],
		});
		await h.start();
		const echo = (server: string) =>
			h.toolsFor('a1').find((tool) => tool.server === server && tool.tool === 'echo')!;
		expect(echo('mine').hints).toMatchObject({ readOnlyHint: true, openWorldHint: false });
		expect(echo('repo').hints).toEqual({});
		expect(echo('vscodefile').hints).toEqual({});
		expect(classifyMcpTool('repo/echo', echo('repo').hints).level).toBe('medium');
		expect(classifyMcpTool('mine/echo', echo('mine').hints).level).toBe('low');
		// Rules and grants name a workspace server apart: a user's mcp(repo/*) is not about it.
		expect([echo('repo').target, echo('vscodefile').target, echo('mine').target]).toEqual([
			'workspace:repo/echo',
			'workspace:vscodefile/echo',
			'mine/echo',
		]);
	});
});

describe('McpHub: hostile servers', () => {
	it('a catastrophic outputSchema pattern does not freeze the engine: the call returns at once (the SDK’s ajv took minutes)', async () => {
		const { hub: h } = hub();
		h.addAgent('a1', { servers: [hostileServerSpec('evil', 'redos')] });
		await h.start();
		const tool = h.toolsFor('a1').find((t) => t.tool === 'match')!;
		const outcome = await tool.call({}, signal());
		expect(JSON.stringify(outcome)).toContain('structured');
	});

	it('a server that pages tools/list forever is unavailable after 100 pages; the hub still starts', async () => {
		const { hub: h, notices } = hub();
		h.addAgent('a1', { servers: [hostileServerSpec('pager', 'cursor'), stdioServerSpec('files')] });
		await h.start();
		expect(notices).toEqual([expect.stringContaining("MCP server 'pager' is unavailable")]);
		expect(notices[0]).toContain('tools/list did not end after 100 pages');
		expect(h.toolsFor('a1').some((t) => t.server === 'files')).toBe(true);
	});
});

describe('toolName', () => {
	it('sanitises to the provider alphabet and keeps names within 64 characters', () => {
		expect(toolName('git-hub', 'issues.create')).toBe('mcp__git-hub__issues_create');
		const long = toolName('server', 'x'.repeat(80));
		expect(long).toHaveLength(64);
		expect(long).toMatch(/^mcp__server__x+_[0-9a-f]{8}$/);
		expect(toolName('server', 'x'.repeat(80))).toBe(long);
		expect(toolName('server', `${'x'.repeat(79)}y`)).not.toBe(long);
	});
});
