import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandVariables, normaliseTransport } from '../../../src/core/mcp/mcpServerSpec.js';
import { readWorkspaceMcpServers, stripJsonComments } from '../../../src/core/mcp/workspaceMcpFiles.js';

function workspace(files: Record<string, string>): string {
	const root = mkdtempSync(join(tmpdir(), 'massgen-mcpfiles-'));
	for (const [path, text] of Object.entries(files)) {
		mkdirSync(join(root, path, '..'), { recursive: true });
		writeFileSync(join(root, path), text);
	}
	return root;
}

describe('readWorkspaceMcpServers', () => {
	it("reads VS Code's .vscode/mcp.json (JSONC, `servers`) and Claude Code's .mcp.json (`mcpServers`)", async () => {
		const root = workspace({
			'.vscode/mcp.json': `{
				// VS Code allows comments
				"inputs": [],
				"servers": {
					"fs": { "type": "stdio", "command": "npx", "args": ["-y", "server-fs", "\${workspaceFolder}"], "env": { "N": 1 } },
					"remote": { "type": "http", "url": "https://mcp.example.test/", "headers": { "X-Key": "\${env:KEY}" } }, /* trailing comma */
				},
			}`,
			'.mcp.json': JSON.stringify({
				mcpServers: {
					fs: { command: 'other' },
					'my.tools': { command: 'uvx', args: ['tools'] },
					legacy: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
				},
			}),
		});
		const { servers, notices } = await readWorkspaceMcpServers(root);
		expect(servers).toEqual([
			{
				name: 'fs',
				type: 'stdio',
				command: 'npx',
				args: ['-y', 'server-fs', '${workspaceFolder}'],
				env: { N: '1' },
				origin: { kind: 'workspace-file', file: '.vscode/mcp.json' },
			},
			{
				name: 'remote',
				type: 'streamable-http',
				url: 'https://mcp.example.test/',
				headers: { 'X-Key': '${env:KEY}' },
				origin: { kind: 'workspace-file', file: '.vscode/mcp.json' },
			},
			{
				name: 'my_tools',
				type: 'stdio',
				command: 'uvx',
				args: ['tools'],
				origin: { kind: 'workspace-file', file: '.mcp.json' },
			},
			{
				name: 'legacy',
				type: 'sse',
				url: 'http://127.0.0.1:9/sse',
				origin: { kind: 'workspace-file', file: '.mcp.json' },
			},
		]);
		expect(notices).toEqual([".mcp.json: MCP server 'fs' is already defined; this one is ignored"]);
	});

	it('reports broken files and entries instead of failing; no files is no servers', async () => {
		expect(await readWorkspaceMcpServers(workspace({}))).toEqual({ servers: [], notices: [] });
		const { servers, notices } = await readWorkspaceMcpServers(
			workspace({
				'.vscode/mcp.json': '{ not json',
				'.mcp.json': JSON.stringify({
					mcpServers: { a: { type: 'websocket', url: 'ws://x' }, b: {}, c: { type: 'http' } },
				}),
			}),
		);
		expect(servers).toEqual([]);
		expect(notices).toEqual([
			expect.stringMatching(/^\.vscode\/mcp\.json: not valid JSON/),
			".mcp.json: MCP server 'a' has an unknown type 'websocket' (use stdio, http or sse)",
			".mcp.json: MCP server 'b' has no 'command'",
			".mcp.json: MCP server 'c' has no 'url'",
		]);
	});
});

describe('MCP spec helpers', () => {
	it('normalises the transport spellings of MassGen, VS Code and Cline', () => {
		expect(
			['stdio', 'streamable-http', 'http', 'streamableHttp', 'sse', 'websocket'].map((type) =>
				normaliseTransport(type, false),
			),
		).toEqual(['stdio', 'streamable-http', 'streamable-http', 'streamable-http', 'sse', undefined]);
		expect(normaliseTransport(undefined, true)).toBe('streamable-http');
		expect(normaliseTransport(undefined, false)).toBe('stdio');
	});

	it('expands ${VAR}, ${env:VAR}, ${workspaceFolder}; reports missing ones and input prompts', () => {
		const context = { env: { TOKEN: 't0k' }, workspaceFolder: '/ws' };
		expect(expandVariables('${TOKEN}:${env:TOKEN}@${workspaceFolder}', context)).toEqual({
			value: 't0k:t0k@/ws',
			missing: [],
		});
		const missing = expandVariables('${NOPE} ${input:key}', context).missing;
		expect(missing[0]).toBe('NOPE');
		expect(missing[1]).toMatch(/input prompts are not supported/);
	});

	it('strips comments and trailing commas but not inside strings', () => {
		expect(JSON.parse(stripJsonComments('{"a": "// not a comment", /* x */ "b": [1,2,],}'))).toEqual({
			a: '// not a comment',
			b: [1, 2],
		});
	});
});
