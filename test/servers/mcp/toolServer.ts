import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export interface ToolServerOptions {
	/** Appends `<event> <detail>` lines (start, call, grandchild) for tests to count. */
	readonly logFile?: string;
	/** Whether `crash` may end the process (stdio only). */
	readonly canExit?: boolean;
}

/** A one-pixel PNG, for the image result mapping. */
export const pixelPng =
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/**
 * The MCP server used by the tests, written with the SDK's server side: plain, image, error,
 * slow and crashing tools, a process-id tool and a tool that starts a grandchild process.
 */
export function createToolServer(options: ToolServerOptions = {}): McpServer {
	const log = (line: string) => {
		if (options.logFile) appendFileSync(options.logFile, `${line}\n`);
	};
	const server = new McpServer({ name: 'massgen-test-tools', version: '1.0.0' });
	server.registerTool(
		'echo',
		{
			description: 'Echo the text back.',
			inputSchema: { text: z.string() },
			annotations: { readOnlyHint: true, openWorldHint: false },
		},
		async ({ text }) => {
			log(`call echo ${text}`);
			return { content: [{ type: 'text', text: `echo: ${text}` }] };
		},
	);
	server.registerTool(
		'note',
		{
			description: 'Record a note outside the workspace (a side effect: not read-only).',
			inputSchema: { text: z.string() },
		},
		async ({ text }) => {
			log(`call note ${text}`);
			return { content: [{ type: 'text', text: `noted: ${text}` }] };
		},
	);
	server.registerTool(
		'add',
		{ description: 'Add two numbers.', inputSchema: { a: z.number(), b: z.number() } },
		async ({ a, b }) => ({
			content: [{ type: 'text', text: String(a + b) }],
		}),
	);
	server.registerTool(
		'image',
		{ description: 'Return a picture.', annotations: { readOnlyHint: true } },
		async () => ({
			content: [
				{ type: 'text', text: 'a pixel:' },
				{ type: 'image', data: pixelPng, mimeType: 'image/png' },
			],
		}),
	);
	server.registerTool(
		'fail',
		{ description: 'Report an error.', inputSchema: { message: z.string() } },
		async ({ message }) => ({
			content: [{ type: 'text', text: message }],
			isError: true,
		}),
	);
	server.registerTool(
		'slow',
		{ description: 'Wait, then answer.', inputSchema: { ms: z.number() } },
		async ({ ms }, extra) => {
			await new Promise<void>((resolve) => {
				const timer = setTimeout(resolve, ms);
				extra.signal.addEventListener('abort', () => {
					clearTimeout(timer);
					resolve();
				});
			});
			return { content: [{ type: 'text', text: `waited ${ms} ms` }] };
		},
	);
	server.registerTool('crash', { description: 'Exit the server process.' }, async () => {
		if (options.canExit) {
			process.stderr.write('crashing on purpose\n');
			setTimeout(() => process.exit(3), 10);
		}
		return { content: [{ type: 'text', text: 'crashing' }] };
	});
	server.registerTool(
		'pid',
		{ description: 'The server process id.', annotations: { readOnlyHint: true } },
		async () => ({
			content: [{ type: 'text', text: String(process.pid) }],
		}),
	);
	server.registerTool('spawn_grandchild', { description: 'Start a long-lived child process.' }, async () => {
		const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], { stdio: 'ignore' });
		log(`grandchild ${child.pid}`);
		return { content: [{ type: 'text', text: String(child.pid) }] };
	});
	server.registerTool(
		'write_file',
		{ description: 'Pretend to write a file.', inputSchema: { path: z.string(), content: z.string() } },
		async ({ path }) => ({
			content: [{ type: 'text', text: `wrote ${path}` }],
		}),
	);
	server.registerTool('secret_tool', { description: 'A tool the filters hide.' }, async () => ({
		content: [{ type: 'text', text: 'secret' }],
	}));
	return server;
}
