import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalBroker } from '../../../src/core/permissions/approvalBroker.js';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';
import { toOrchestratorSettings, toRunToolSettings } from '../../../src/core/config/toSettings.js';
import type { RunEvent } from '../../../src/contract/runEvents.js';
import { Orchestrator } from '../../../src/core/orchestrator/orchestrator.js';
import type { ChatRequest, ModelEvent } from '../../../src/core/providers/spec/model.js';
import { createScriptedModel } from '../../../src/core/providers/vendors/scripted.js';
import { buildAgents } from '../../../src/core/team/buildAgents.js';
import { createRunTools } from '../../../src/core/tools/guardedRunTools.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { AuditLedger } from '../../../src/core/permissions/auditLedger.js';

const coordinationTools = [
	{ name: 'new_answer', description: '', parameters: { type: 'object', properties: {} } },
	{
		name: 'vote',
		description: '',
		parameters: { type: 'object', properties: { agent_id: { enum: ['agent1'] } } },
	},
];

async function collect(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
	const events: ModelEvent[] = [];
	for await (const event of stream) events.push(event);
	return events;
}

const calls = (events: readonly ModelEvent[]) =>
	events.flatMap((event) =>
		event.type === 'tool-call' ? [{ name: event.call.name, arguments: event.call.arguments }] : [],
	);

describe('scripted backend: tool_calls in a script step', () => {
	it('makes the step’s tool calls (then its edits) on the first call, and the decision once a tool result came back', async () => {
		const model = createScriptedModel({
			type: 'scripted',
			model: 'scripted-tools',
			options: {
				script: {
					coordination: [
						{
							text: 'Let me check.',
							tool_calls: [
								{ name: 'run_command', arguments: { command: 'npm test' } },
								{ name: 'mcp__fs__list' },
							],
							edits: [{ path: 'NOTES.md', content: 'checked\n' }],
							answer: 'Tests pass.',
						},
					],
				},
			},
		});
		const request: ChatRequest = {
			system: '',
			messages: [{ role: 'user', content: 'Q' }],
			tools: coordinationTools,
		} as unknown as ChatRequest;
		const first = await collect(model.stream(request, new AbortController().signal));
		expect(calls(first)).toEqual([
			{ name: 'run_command', arguments: { command: 'npm test' } },
			{ name: 'mcp__fs__list', arguments: {} },
			{ name: 'write_file', arguments: { path: 'NOTES.md', content: 'checked\n' } },
		]);
		const continuing = {
			...request,
			messages: [...request.messages, { role: 'tool', callId: 'call_0_0', content: 'denied' }],
		} as unknown as ChatRequest;
		const second = await collect(model.stream(continuing, new AbortController().signal));
		expect(calls(second)).toEqual([{ name: 'new_answer', arguments: { content: 'Tests pass.' } }]);
	});

	it("votes 'first' / 'last' among the answers the conversation shows, not the whole enum", async () => {
		const tools = [
			coordinationTools[0]!,
			{
				name: 'vote',
				description: '',
				parameters: { type: 'object', properties: { agent_id: { enum: ['agent1', 'agent2', 'agent3'] } } },
			},
		];
		const ask = async (vote: string, content: string) => {
			const model = createScriptedModel({
				type: 'scripted',
				model: 'scripted-voter',
				options: { script: { coordination: [{ vote }] } },
			});
			const request = { system: '', messages: [{ role: 'user', content }], tools } as unknown as ChatRequest;
			return calls(await collect(model.stream(request, new AbortController().signal)));
		};
		const shown = '<answer id="agent2">\nB\n</answer>\n<answer id="agent3">\nC\n</answer>';
		expect(await ask('first', shown)).toEqual([
			{ name: 'vote', arguments: { agent_id: 'agent2', reason: 'Best answer so far.' } },
		]);
		expect(await ask('last', shown)).toEqual([
			{ name: 'vote', arguments: { agent_id: 'agent3', reason: 'Best answer so far.' } },
		]);
		// No answer shown yet: it answers instead.
		expect((await ask('first', '(no answers yet)'))[0]!.name).toBe('new_answer');
	});

	it('rejects a tool call without a name (the config reports it)', () => {
		const loaded = loadConfigText(
			[
				'agent:',
				'  id: a',
				'  backend:',
				'    type: scripted',
				'    model: m',
				'    script:',
				'      coordination:',
				'        - tool_calls: [{ arguments: {} }]',
			].join('\n'),
			'team.yaml',
		);
		expect(loaded.issues.some((issue) => issue.severity === 'error')).toBe(true);
	});

	it('a scripted team config (one agent asks to run a risky command): approval request, denial as a tool error, the run completes, the ledger records it', async () => {
		const yaml = `
agents:
  - id: runner
    backend:
      type: scripted
      model: scripted-runner
      enable_command_execution: true
      script:
        coordination:
          - text: Publishing first.
            tool_calls:
              - name: run_command
                arguments: { command: "npm publish" }
            answer: I could not publish.
          - vote: first
  - id: checker
    backend:
      type: scripted
      model: scripted-checker
      script:
        latency_ms: 50
        coordination:
          - answer: Publishing needs a human.
          - vote: first
`;
		const loaded = loadConfigText(yaml, 'team.yaml');
		expect(loaded.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
		const config = loaded.config!;
		const root = makeWorkspaceDir({ 'package.json': '{}\n' });
		const runDir = mkdtempSync(join(tmpdir(), 'massgen-run-'));
		const broker = new ApprovalBroker();
		broker.onDidRequest((request) =>
			setTimeout(() => broker.resolve(request.requestId, 'deny', 'not today'), 20),
		);
		const toolSettings = toRunToolSettings(config, { configFromWorkspace: false });
		const tools = createRunTools({
			workspaceRoot: root,
			agents: toolSettings.agents,
			permissions: toolSettings.permissions,
			broker,
			trusted: true,
			ledger: new AuditLedger(runDir),
			env: {},
		});
		const { agents } = buildAgents(config, { keys: { env: {}, dotenv: {} } });
		const orchestrator = new Orchestrator({
			question: 'Publish it',
			workspace: await createWorkspace(root),
			agents,
			settings: toOrchestratorSettings(config),
			tools,
		});
		const events: RunEvent[] = [];
		for await (const event of orchestrator.run()) events.push(event);
		expect(events.find((event) => event.type === 'approval-request')).toMatchObject({
			agentId: 'runner',
			action: 'command',
			target: 'npm publish',
		});
		expect(events.find((event) => event.type === 'approval-result')).toMatchObject({
			decision: 'deny',
			by: 'user',
		});
		expect(
			events.find((event) => event.type === 'tool-result' && event.name === 'run_command'),
		).toMatchObject({ isError: true, text: expect.stringContaining('not today') });
		expect(orchestrator.result?.status).toBe('completed');
		expect(orchestrator.result?.winner).toBeTruthy();
		const ledger = join(runDir, 'permissions.jsonl');
		expect(existsSync(ledger)).toBe(true);
		const lines = readFileSync(ledger, 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as Record<string, unknown>);
		expect(lines).toEqual([
			expect.objectContaining({
				agentId: 'runner',
				tool: 'run_command',
				target: 'npm publish',
				decision: 'deny',
				via: 'approval',
				by: 'user',
				note: 'not today',
			}),
		]);
	});
});
