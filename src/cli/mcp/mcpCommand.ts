/**
 * `massgen mcp`: the stdio MCP server (docs/cli.md#massgen-mcp). It serves until its client closes
 * stdin (or SIGINT, SIGTERM); closing the server aborts the calls in flight, which stop their runs. Logs go to stderr, redacted; stdout is the protocol's.
 */
import { stat } from 'node:fs/promises';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { seedRedactor } from '../../core/secrets/seedRedactor.js';
import type { McpArgs } from '../args.js';
import type { CliIo } from '../cliIo.js';
import { teamCall } from '../headless/teamCall.js';
import { callBudget } from './callBudget.js';
import { createMassgenMcpServer } from './mcpServer.js';
import { takeStdout } from './protocolStdout.js';

export async function mcpCommand(
	command: McpArgs,
	io: Pick<CliIo, 'stderr' | 'env' | 'signal'>,
): Promise<number> {
	const redactor = seedRedactor({ env: io.env });
	const log = (line: string) => void io.stderr.write(`massgen mcp: ${redactor.text(line)}\n`);
	if (
		!(await stat(command.workspace).then(
			(info) => info.isDirectory(),
			() => false,
		))
	) {
		log(`workspace '${command.workspace}' is not a folder`);
		return 1;
	}
	const server = createMassgenMcpServer({
		root: command.workspace,
		teamCall: async (input) => {
			const caps = await callBudget(command, io.env);
			if ('refused' in caps) return { ok: false, ...caps };
			return teamCall({
				...input,
				workspaceRoot: command.workspace,
				...(command.config ? { configFile: command.config } : {}),
				budget: caps.budget,
				...(command.noInstructions ? { instructions: false } : {}),
				env: io.env,
				onNote: log,
			});
		},
		redact: (text) => redactor.text(text),
		log,
	});
	const transport = new StdioServerTransport(process.stdin, takeStdout());
	const closed = new Promise<void>((done) => {
		process.stdin.once('end', done);
		process.stdin.once('close', done);
		transport.onclose = done;
		// Ctrl-C, SIGTERM: as if the client had left.
		io.signal.addEventListener('abort', () => done(), { once: true });
	});
	await server.connect(transport);
	log(`serving the team for ${command.workspace} on stdio`);
	await closed;
	await server.close();
	return 0;
}
