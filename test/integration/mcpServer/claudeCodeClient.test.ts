/**
 * A real MCP client nobody here wrote: the Claude Code CLI (the binary the pinned
 * @anthropic-ai/claude-agent-sdk ships) in print mode with `--mcp-config` naming `node dist/cli.js
 * mcp`, its own model a scripted loopback Anthropic server that calls `mcp__massgen__ask_team` in its
 * turn. The team behind the server is the four-server loopback team. What Claude Code sent its
 * model next holds the tool result: the team's answer, votes and run id.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';
import { startLoopbackTeam, type LoopbackTeam } from '../../servers/loopbackTeam.js';
import { hashTree, makeWorkspaceDir } from '../../support/tempTree.js';
import { cliPath, repo } from './mcpClient.js';

const claudeBinary = join(repo, 'node_modules', '@anthropic-ai', 'claude-agent-sdk-linux-x64', 'claude');
const claudeKey = 'loopback-claude-code-key';

describe('Claude Code calls massgen mcp’s ask_team in its own turn', () => {
	let team: LoopbackTeam;
	let claude: LoopbackProvider;
	beforeAll(async () => {
		team = await startLoopbackTeam();
		claude = await startLoopbackProvider('anthropic');
	});
	afterAll(async () => {
		await team?.close();
		await claude?.close();
	});

	it('the tool result Claude Code sends back to its model holds the team’s answer', async () => {
		const root = makeWorkspaceDir({ 'notes.md': '# notes\n' });
		const home = mkdtempSync(join(tmpdir(), 'massgen-cc-mcp-home-'));
		const config = join(home, 'team.yaml');
		writeFileSync(config, team.configYaml());
		const mcpConfig = join(home, 'mcp.json');
		writeFileSync(
			mcpConfig,
			JSON.stringify({
				mcpServers: {
					massgen: {
						type: 'stdio',
						command: process.execPath,
						args: [cliPath, 'mcp', '--workspace', root, '--config', config],
						env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config') },
					},
				},
			}),
		);
		claude.say({
			toolCalls: [
				{
					id: 'toolu_team',
					name: 'mcp__massgen__ask_team',
					arguments: { question: 'Should notes.md have a table of contents?' },
				},
			],
			usage: { input: 50, output: 12 },
		});
		claude.say({ text: 'The team has answered.', usage: { input: 90, output: 5 } });
		const before = hashTree(root, (rel) => rel === '.massgen');

		const { code, stdout, stderr } = await runClaude(
			[
				'-p',
				'Ask the MassGen team whether notes.md needs a table of contents.',
				'--mcp-config',
				mcpConfig,
				'--strict-mcp-config',
				'--allowedTools',
				'mcp__massgen__ask_team',
				'--model',
				'claude-sonnet-4-5',
				'--output-format',
				'json',
			],
			{
				PATH: process.env.PATH ?? '',
				HOME: home,
				CLAUDE_CONFIG_DIR: join(home, '.claude'),
				ANTHROPIC_BASE_URL: claude.baseUrl,
				ANTHROPIC_API_KEY: claudeKey,
				MCP_TOOL_TIMEOUT: '120000',
				// Claude Code defers MCP tools behind its ToolSearch tool by default; off, its first request
				// lists them with their schemas (the call below works either way).
				ENABLE_TOOL_SEARCH: 'false',
				CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
				DISABLE_TELEMETRY: '1',
				DISABLE_AUTOUPDATER: '1',
				DISABLE_ERROR_REPORTING: '1',
			},
			root,
		);
		expect(code, stderr + stdout).toBe(0);
		expect(JSON.parse(stdout)).toMatchObject({
			type: 'result',
			subtype: 'success',
			result: 'The team has answered.',
		});
		// Claude Code offered our tools to its model, with our schema.
		const first = claude.requests[0]!.body as {
			tools: { name: string; input_schema: { required?: string[] } }[];
		};
		const askTeam = first.tools.find((tool) => tool.name === 'mcp__massgen__ask_team');
		expect(askTeam?.input_schema.required).toEqual(['question']);
		expect(first.tools.map((tool) => tool.name)).toEqual(
			expect.arrayContaining([
				'mcp__massgen__list_runs',
				'mcp__massgen__show_run',
				'mcp__massgen__review_changes',
			]),
		);
		// The team ran (every server of the loopback team got the question) ...
		for (const server of Object.values(team.servers)) {
			expect(server.requests.some((r) => r.rawBody.includes('table of contents'))).toBe(true);
		}
		// ... and its answer came back to Claude Code's model as the tool result.
		const followUp = claude.requests.at(-1)!;
		expect(followUp.prompt.lastToolResult).toMatch(
			/Final answer:\nFinal answer \(presented by the \w+ agent\): .*table of contents/,
		);
		expect(followUp.prompt.lastToolResult).toMatch(/run id: \d{8}-\d{6}-[0-9a-z]{4} \(completed\)/);
		expect(followUp.prompt.lastToolResult).toMatch(/winner: \w+_agent \(agent\d\.\d\), \d of 4 vote\(s\)/);
		expect(claude.unexpected).toBe(0);
		expect(hashTree(root, (rel) => rel === '.massgen')).toBe(before);
	}, 120_000);
});

function runClaude(
	args: readonly string[],
	env: Record<string, string>,
	cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
	return new Promise((resolve, reject) => {
		const child = spawn(claudeBinary, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.on('error', reject);
		child.on('close', (code) => resolve({ code, stdout, stderr }));
	});
}
