import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createFloodServer } from './floodServer.js';

/**
 * The flood server on stdio: `node --import <tsx loader> test/servers/mcp/floodStdioServer.ts`.
 * `MCP_FLOOD_TOOLS=<n>` lists n extra tools.
 */
const server = createFloodServer({ tools: Number(process.env['MCP_FLOOD_TOOLS'] ?? 0) });
void server.connect(new StdioServerTransport());
