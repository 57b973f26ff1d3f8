import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const repo = join(__dirname, '..', '..', '..');
export const cliPath = join(repo, 'dist', 'cli.js');

export interface McpConnection {
	readonly client: Client;
	/** What the server wrote to stderr so far. */
	stderr(): string;
	/** The environment the server runs with (its own HOME: trust and permission stores start empty). */
	readonly env: Record<string, string>;
	close(): Promise<void>;
}

/** The official SDK client spawning `node dist/cli.js mcp` over stdio, as Claude Code or VS Code would. */
export async function connectMcp(
	args: readonly string[],
	env: Record<string, string> = {},
): Promise<McpConnection> {
	const home = mkdtempSync(join(tmpdir(), 'massgen-mcp-home-'));
	const fullEnv = {
		PATH: process.env.PATH ?? '',
		HOME: home,
		XDG_CONFIG_HOME: join(home, '.config'),
		...env,
	};
	const transport = new StdioClientTransport({
		command: process.execPath,
		args: [cliPath, 'mcp', ...args],
		env: fullEnv,
		stderr: 'pipe',
	});
	let stderr = '';
	transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const client = new Client({ name: 'massgen-test', version: '1.0.0' });
	await client.connect(transport);
	return { client, stderr: () => stderr, env: fullEnv, close: () => client.close() };
}

/** Every text block of a tool result, joined. */
export function resultText(result: unknown): string {
	return (result as CallToolResult).content
		.map((block) => (block.type === 'text' ? block.text : ''))
		.join('\n');
}
