import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { McpServerSpec } from '../../../src/core/mcp/mcpServerSpec.js';

const repo = join(__dirname, '..', '..', '..');
/** tsx's loader, by absolute URL: the server starts in the test's workspace folder. */
export const tsxLoader = pathToFileURL(join(repo, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
export const stdioServerFile = join(__dirname, 'stdioServer.ts');
/** The flood server on stdio (`floodStdioServer.ts`). */
export const floodServerFile = join(__dirname, 'floodStdioServer.ts');

/** A spec that starts the hostile test server (`hostileServer.ts`) in this mode. */
export function hostileServerSpec(name: string, mode: 'redos' | 'cursor'): McpServerSpec {
	return {
		name,
		type: 'stdio',
		command: process.execPath,
		args: ['--import', tsxLoader, join(__dirname, 'hostileServer.ts')],
		env: { MCP_HOSTILE: mode },
		origin: { kind: 'config', fromWorkspace: false },
	};
}

/** A spec that starts the stdio test server with node + tsx. */
export function stdioServerSpec(
	name: string,
	options: { log?: string; env?: Record<string, string>; failStart?: boolean } & Partial<McpServerSpec> = {},
): McpServerSpec {
	const { log, env, failStart, ...rest } = options;
	return {
		name,
		type: 'stdio',
		command: process.execPath,
		args: ['--import', tsxLoader, stdioServerFile],
		env: {
			...(log ? { MCP_TEST_LOG: log } : {}),
			...(failStart ? { MCP_TEST_FAIL_START: '1' } : {}),
			...env,
		},
		origin: { kind: 'config', fromWorkspace: false },
		...rest,
	};
}

/** Lines of a server log file (`start <pid>`, `call echo x`, `grandchild <pid>`). */
export function logLines(file: string): string[] {
	return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

export function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}
