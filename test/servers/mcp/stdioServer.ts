import { appendFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createToolServer } from './toolServer.js';

/**
 * The stdio test server: `node --import <tsx loader> test/servers/mcp/stdioServer.ts`.
 * `MCP_TEST_LOG` names a file that gets `start <pid>` (one line per process = per session).
 * `MCP_TEST_FAIL_START=1` exits at once (a server that cannot start).
 */
const logFile = process.env['MCP_TEST_LOG'];
if (process.env['MCP_TEST_FAIL_START'] === '1') {
	process.stderr.write('missing configuration\n');
	process.exit(2);
}
if (logFile) appendFileSync(logFile, `start ${process.pid}\n`);
const server = createToolServer({ logFile, canExit: true });
void server.connect(new StdioServerTransport());
