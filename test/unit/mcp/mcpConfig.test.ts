import { describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';
import { redactConfig } from '../../../src/core/config/redact.js';
import { Redactor } from '../../../src/core/secrets/redactor.js';
import { toBackendSettings, toRunToolSettings } from '../../../src/core/config/toSettings.js';

const issuesOf = (text: string) =>
	loadConfigText(text, 'team.yaml').issues.map(
		(issue) => `${issue.line}:${issue.col} ${issue.severity}: ${issue.message}`,
	);

describe('config: tools and permissions', () => {
	const text = `
agents:
  - id: dev
    backend:
      type: scripted
      script: { coordination: [{ answer: hi }] }
      enable_mcp_command_line: true
      command_line_blocked_commands: ['git push']
      allowed_tools: [echo]
      mcp_servers:
        github:
          type: streamableHttp
          url: https://mcp.example.test/
          headers: { Authorization: "Bearer \${GITHUB_TOKEN}" }
        fs:
          command: npx
          args: [-y, server-fs, "."]
          security: { level: high }
  - id: plain
    backend: { type: scripted, script: { coordination: [{ answer: hi }] } }
permissions:
  deny: [command(git push*)]
  approval_timeout_seconds: 30
  max_tool_calls: 50
`;

	it('accepts the map form (Claude Code) and MassGen key names, normalising the type; warns about ignored security', () => {
		const result = loadConfigText(text, 'team.yaml');
		expect(result.issues.map((issue) => [issue.severity, issue.line, issue.message])).toEqual([
			[
				'warning',
				18,
				"MassGen key 'security' in agents[0].backend.mcp_servers.fs is not supported yet and is ignored: the permission engine and approvals decide what MCP tools may do",
			],
		]);
		const dev = result.config!.agents[0]!;
		expect(dev.backend.mcp_servers).toEqual([
			{
				name: 'github',
				type: 'streamable-http',
				url: 'https://mcp.example.test/',
				headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' },
			},
			{ name: 'fs', type: 'stdio', command: 'npx', args: ['-y', 'server-fs', '.'] },
		]);
		expect(dev.backend.enable_command_execution).toBe(true);
		// Tool keys never reach the provider.
		expect(toBackendSettings(dev).options).not.toHaveProperty('mcp_servers');
		expect(Object.keys(toBackendSettings(dev).options)).toEqual(['script']);
	});

	it('maps to run tool settings: per-agent servers with their origin, command filters anchored like re.match, the permissions section', () => {
		const config = loadConfigText(text, 'team.yaml').config!;
		const settings = toRunToolSettings(config, { configFromWorkspace: true });
		const dev = settings.agents.get('dev')!;
		expect(dev.mcpServers.map((server) => [server.name, server.type, server.origin])).toEqual([
			['github', 'streamable-http', { kind: 'config', fromWorkspace: true }],
			['fs', 'stdio', { kind: 'config', fromWorkspace: true }],
		]);
		expect(dev).toMatchObject({ commandExecution: true, allowedTools: ['echo'] });
		expect(dev.commandFilters!.blocked[0]!.test('git push origin')).toBe(true);
		expect(dev.commandFilters!.blocked[0]!.test('echo git push')).toBe(false);
		expect(settings.agents.get('plain')).toEqual({ mcpServers: [], commandExecution: false });
		expect(settings.permissions).toMatchObject({
			rules: { allow: [], ask: [], deny: ['command(git push*)'] },
			approvalTimeoutMs: 30_000,
			maxToolCalls: 50,
			maxCostUsd: null,
			commandTimeoutMs: 120_000,
			mcpCallTimeoutMs: 120_000,
		});
	});

	it('the redacted config.yaml of a run reloads and hides header secrets', () => {
		const config = loadConfigText(text.replace('${GITHUB_TOKEN}', 'ghp_realtoken123'), 'team.yaml').config!;
		const out = redactConfig(config, new Redactor());
		expect(out).not.toContain('ghp_realtoken123');
		const again = loadConfigText(out, 'config.yaml');
		expect(again.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
		expect(again.config!.agents[0]!.backend.mcp_servers).toHaveLength(2);
	});

	it('reports bad servers and rules with their positions', () => {
		expect(
			issuesOf(`
agent:
  backend:
    type: scripted
    script: { coordination: [{ answer: hi }] }
    mcp_servers:
      - name: a
        type: websocket
        url: ws://x
      - name: b
        type: http
      - name: a
        command: x
        cwd: ../outside
      - name: bad name
        command: x
      - name: c
        comand: x
    command_line_allowed_commands: ['(']
permissions:
  allow: [run everything]
  max_tool_calls: 0
`),
		).toEqual([
			"8:15 error: agent.backend.mcp_servers[0].type: unknown MCP server type 'websocket': use stdio, streamable-http (or http) or sse",
			"10:9 error: agent.backend.mcp_servers[1]: MCP server 'b' (streamable-http) needs 'url'",
			"12:9 error: agent.backend.mcp_servers[2].name: duplicate MCP server name 'a'",
			"14:14 error: agent.backend.mcp_servers[2].cwd: 'cwd' may not contain '..'",
			"15:15 error: agent.backend.mcp_servers[3].name: MCP server names use letters, digits, - and _ only, got 'bad name'",
			"17:9 error: agent.backend.mcp_servers[4]: MCP server 'c' (stdio) needs 'command'",
			"18:9 warning: unknown key 'comand' in agent.backend.mcp_servers[4] (did you mean 'command'?); ignored",
			'19:37 error: agent.backend.command_line_allowed_commands[0]: not a valid RE2 regular expression (lookahead and backreferences are not supported)',
			"21:11 error: permissions.allow[0]: 'run everything' is not a rule: write action(target), e.g. command(npm test) or mcp(github/*)",
			'22:19 error: permissions.max_tool_calls: must be at least 1, got 0',
		]);
	});
});
