/**
 * Agent roles (`role: read-only`, `tools: [...]`) from a config, through the run's tools: what a
 * provider is offered (the loopback servers' request logs, real SDKs) and what a call by name does.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalBroker } from '../../../src/core/permissions/approvalBroker.js';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';
import { toRunToolSettings } from '../../../src/core/config/toSettings.js';
import type { RunEvent, RunEventOf } from '../../../src/contract/runEvents.js';
import { Orchestrator } from '../../../src/core/orchestrator/orchestrator.js';
import type { AgentSpec } from '../../../src/core/orchestrator/types.js';
import { createModel } from '../../../src/core/providers/createModel.js';
import { ScriptedModel } from '../../../src/core/providers/vendors/scriptedModel.js';
import { runSession } from '../../../src/core/run/runSession.js';
import { createRunTools } from '../../../src/core/tools/guardedRunTools.js';
import { initialRunState } from '../../../src/protocol/runState.js';
import { reduceRunEvents } from '../../../src/protocol/reduceRun.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { answer, fastSettings, makeWorkspaceDir, sequence, vote } from '../../fakes/team.js';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';
import { logLines, stdioServerSpec } from '../../servers/mcp/launch.js';
import { repo, runCli } from '../cli/cliProcess.js';
import { AuditLedger } from '../../../src/core/permissions/auditLedger.js';

const posix = process.platform !== 'win32';
const servers: LoopbackProvider[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A team config: `reader` (read-only), `picker` (a tools list) and `writer` (no role), all with commands. */
function teamConfig(baseUrls: { claude: string; openai: string }) {
	const backend = (type: string, model: string, url: string) =>
		`      type: ${type}\n      model: ${model}\n      base_url: ${url}\n      api_key: loopback\n      enable_command_execution: true\n`;
	const text = [
		'agents:',
		'  - id: reader',
		'    role: read-only',
		'    backend:',
		backend('claude', 'claude-haiku-4-5', baseUrls.claude),
		'  - id: picker',
		'    tools: [read_file, search_files, mcp__srv__*]',
		'    backend:',
		backend('openai', 'gpt-5-mini', baseUrls.openai),
		'  - id: writer',
		'    backend:',
		backend('openai', 'gpt-5-nano', baseUrls.openai),
	].join('\n');
	const loaded = loadConfigText(text, 'team.yaml');
	expect(loaded.issues).toEqual([]);
	return loaded.config!;
}

async function run(agents: AgentSpec[], config: ReturnType<typeof teamConfig>, log: string) {
	const root = makeWorkspaceDir({ 'README.md': '# demo\n' });
	const settings = toRunToolSettings(config, { configFromWorkspace: false });
	for (const tools of settings.agents.values()) {
		(tools.mcpServers as unknown[]).push(stdioServerSpec('srv', { log }));
	}
	const runTools = createRunTools({
		workspaceRoot: root,
		agents: settings.agents,
		// Commands on for everyone who may have them, sandbox or not, so that only the role leaves them out.
		permissions: { ...settings.permissions, commandSandbox: 'allow-unsandboxed' },
		broker: new ApprovalBroker(),
		trusted: true,
		ledger: new AuditLedger(mkdtempSync(join(tmpdir(), 'massgen-roles-'))),
		env: process.env,
	});
	const orchestrator = new Orchestrator({
		question: 'Check the project',
		workspace: await createWorkspace(root),
		agents,
		settings: fastSettings,
		anonymousOrder: 'config',
		tools: runTools,
	});
	const events: RunEvent[] = [];
	for await (const event of orchestrator.run()) events.push(event);
	return { result: orchestrator.result!, events };
}

const writeTools = ['write_file', 'edit_file', 'delete_file'];

describe.runIf(posix)('agent roles', () => {
	it("a read-only agent's requests carry no write tools, no run_command and no MCP tool not marked read-only", async () => {
		const claude = await startLoopbackProvider('anthropic', { auto: { name: 'claude' } });
		const openai = await startLoopbackProvider('responses', { auto: { name: 'openai' } });
		servers.push(claude, openai);
		const config = teamConfig({ claude: claude.baseUrl, openai: openai.baseUrl });
		const agents = config.agents.map((agent) => ({
			id: agent.id,
			model: createModel({
				type: agent.backend.type,
				model: agent.backend.model,
				baseUrl: agent.backend.base_url!,
				apiKey: 'loopback',
				options: {},
			}),
		}));
		const log = join(mkdtempSync(join(tmpdir(), 'massgen-log-')), 'server.log');
		const { result } = await run(agents, config, log);
		expect(result.status).toBe('completed');
		const offered = (server: LoopbackProvider, model: string) => {
			const requests = server.requests.filter((request) => request.model === model);
			expect(requests.length).toBeGreaterThan(0);
			return new Set(requests.flatMap((request) => request.prompt.tools.map((tool) => tool.name)));
		};
		const reader = offered(claude, 'claude-haiku-4-5');
		expect(reader).toContain('read_file');
		expect(reader).toContain('mcp__srv__echo'); // marked readOnlyHint by its server
		expect(reader).toContain('new_answer');
		for (const name of [...writeTools, 'run_command', 'mcp__srv__note', 'mcp__srv__add']) {
			expect(reader).not.toContain(name);
		}
		const picker = [...offered(openai, 'gpt-5-mini')].filter(
			(name) => !['new_answer', 'vote'].includes(name),
		);
		expect(picker.filter((name) => !name.startsWith('mcp__srv__')).sort()).toEqual([
			'read_file',
			'search_files',
		]);
		expect(picker).toContain('mcp__srv__note');
		// Without a role the same config offers everything the reader lacks.
		const writer = offered(openai, 'gpt-5-nano');
		for (const name of [...writeTools, 'run_command', 'mcp__srv__note']) expect(writer).toContain(name);
	});

	it('a write, a command and a side-effecting MCP tool called by name are refused; nothing runs or changes', async () => {
		const config = teamConfig({ claude: 'http://127.0.0.1:9/', openai: 'http://127.0.0.1:9/v1' });
		const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });
		const reader = new ScriptedModel(
			sequence([
				{
					toolCalls: [
						call('write_file', { path: 'README.md', content: 'overwritten\n' }),
						call('run_command', { command: 'touch made-by-command' }),
						call('mcp__srv__note', { text: 'side effect' }),
						call('mcp__srv__echo', { text: 'allowed' }),
					],
				},
				answer('reader: README says demo'),
				vote('agent1'),
			]),
		);
		const others = ['picker', 'writer'].map((id) => ({
			id,
			model: new ScriptedModel(sequence([answer(`${id}: fine`), vote('agent1')])),
		}));
		const log = join(mkdtempSync(join(tmpdir(), 'massgen-log-')), 'server.log');
		const { result, events } = await run([{ id: 'reader', model: reader }, ...others], config, log);
		const results = events.filter(
			(event): event is RunEventOf<'tool-result'> =>
				event.type === 'tool-result' && event.agentId === 'reader',
		);
		const byName = new Map(results.map((event) => [event.name, event]));
		expect(byName.get('write_file')).toMatchObject({
			isError: true,
			text: 'write_file is not available to this agent: its role is read-only (no write tools)',
		});
		expect(byName.get('run_command')).toMatchObject({
			isError: true,
			text: 'run_command is not available to this agent: its role is read-only (no commands)',
		});
		expect(byName.get('mcp__srv__note')?.text).toContain('only MCP tools their server marks read-only');
		expect(byName.get('mcp__srv__echo')).toMatchObject({ isError: false, text: 'echo: allowed' });
		expect(logLines(log).filter((line) => line.startsWith('call '))).toEqual(['call echo allowed']);
		expect(result.answers.find((entry) => entry.agentId === 'reader')?.content).toBe(
			'reader: README says demo',
		);
		expect(result.changes).toEqual([]);
	});

	it("run-start names each agent's role, and the panel's lanes carry it", async () => {
		const scripted = (id: string, extra: string) =>
			`  - id: ${id}\n${extra}    backend:\n      type: scripted\n      script:\n        coordination:\n          - answer: ${id} answer\n          - vote: first\n`;
		const yaml = [
			'agents:\n',
			scripted('reader', '    role: read-only\n'),
			scripted('picker', '    tools: [read_file, search_files]\n'),
			scripted('writer', ''),
		].join('');
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const loaded = loadConfigText(yaml, join(root, 'team.yaml'));
		expect(loaded.issues).toEqual([]);
		const events: RunEvent[] = [];
		await runSession({
			team: { config: loaded.config!, file: join(root, 'team.yaml') },
			keys: { env: {} },
			workspaceRoot: root,
			question: 'What does a.ts export?',
			signal: new AbortController().signal,
			shippedConfigsDir: join(__dirname, '..', '..', '..', 'configs'),
			onEvent: (event) => events.push(event),
		});
		const start = events.find((event): event is RunEventOf<'run-start'> => event.type === 'run-start')!;
		expect(start.agents.map((agent) => [agent.agentId, agent.role])).toEqual([
			['reader', 'read-only'],
			['picker', 'tools: read_file, search_files'],
			['writer', undefined],
		]);
		const state = reduceRunEvents(initialRunState(), events);
		expect(state.agentOrder.map((id) => [id, state.agents[id]!.role])).toEqual([
			['reader', 'read-only'],
			['picker', 'tools: read_file, search_files'],
			['writer', undefined],
		]);
	});

	it("massgen validate (dist/cli.js) lists each agent's role; a misspelt tool name is an error", async () => {
		const file = join(repo, 'test', 'fixtures', 'configs', 'massgen', 'examples', 'roles.yaml');
		const bad = await runCli(['validate', file], { cwd: makeWorkspaceDir() });
		expect(bad.code).toBe(1);
		expect(bad.stderr).toMatch(
			/roles\.yaml:10:69: error: agents\[1\]\.tools\[4\]: unknown tool 'write_fille'/,
		);
		const root = makeWorkspaceDir();
		const good = join(root, 'roles.yaml');
		writeFileSync(good, readFileSync(file, 'utf8').replace(', write_fille', ''));
		const ok = await runCli(['validate', good], { cwd: root });
		expect(ok.code).toBe(0);
		expect(ok.stderr).toContain(
			'  reviewer: read-only (no write tools, no run_command, only read-only MCP tools)\n' +
				'  tester: only read_file, search_files, run_command, mcp__github__*\n',
		);
	});
});
