import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	ApprovalBroker,
	type ApprovalChoice,
	type PendingApproval,
} from '../../../src/core/permissions/approvalBroker.js';
import type { RunEvent, RunEventOf, RunEventType } from '../../../src/contract/runEvents.js';
import { Orchestrator } from '../../../src/core/orchestrator/orchestrator.js';
import type { OrchestratorSettings } from '../../../src/core/orchestrator/types.js';
import { ScriptedModel, type ScriptedHandler } from '../../../src/core/providers/vendors/scriptedModel.js';
import {
	createRunTools,
	type AgentToolSettings,
	type RunToolsOptions,
} from '../../../src/core/tools/guardedRunTools.js';
import type { PermissionSettings } from '../../../src/core/tools/permissionSettings.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { answer, fastSettings, makeWorkspaceDir, read, sequence, vote } from '../../fakes/team.js';
import { isAlive, logLines, stdioServerSpec } from '../../servers/mcp/launch.js';
import { AuditLedger } from '../../../src/core/permissions/auditLedger.js';
import { toolNotices } from '../../support/toolNotices.js';
import { waitFor } from '../../support/waitFor.js';

const posix = process.platform !== 'win32';
const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });
const tools = (...calls: ReturnType<typeof call>[]) => ({ toolCalls: calls });

interface Setup {
	readonly members: readonly { id: string; handler: ScriptedHandler }[];
	readonly agents: Record<string, Partial<AgentToolSettings>>;
	readonly answer?: (request: PendingApproval) => { choice: ApprovalChoice; note?: string } | undefined;
	readonly permissions?: Partial<PermissionSettings>;
	readonly settings?: Partial<OrchestratorSettings>;
	readonly signal?: AbortSignal;
	readonly root?: string;
	readonly options?: Partial<RunToolsOptions>;
	readonly onEvent?: (event: RunEvent) => void;
}

async function run(setup: Setup) {
	const root = setup.root ?? makeWorkspaceDir({ 'README.md': '# demo\n' });
	const runDir = mkdtempSync(join(tmpdir(), 'massgen-run-'));
	const broker = new ApprovalBroker();
	broker.onDidRequest((request) => {
		// Answer a little later, so identical requests from other agents can join first.
		setTimeout(() => {
			const answer = setup.answer?.(request);
			if (answer) broker.resolve(request.requestId, answer.choice, answer.note);
		}, 150);
	});
	const agents = new Map(
		setup.members.map((member) => [
			member.id,
			{ mcpServers: [], commandExecution: false, ...setup.agents[member.id] },
		]),
	);
	const runTools = createRunTools({
		workspaceRoot: root,
		agents,
		permissions: setup.permissions,
		broker,
		trusted: true,
		ledger: new AuditLedger(runDir),
		env: process.env,
		...setup.options,
	});
	const models = new Map(setup.members.map((member) => [member.id, new ScriptedModel(member.handler)]));
	const orchestrator = new Orchestrator({
		question: 'Check the project',
		workspace: await createWorkspace(root),
		agents: setup.members.map((member) => ({ id: member.id, model: models.get(member.id)! })),
		settings: { ...fastSettings, ...setup.settings },
		signal: setup.signal,
		anonymousOrder: 'config',
		tools: runTools,
	});
	const events: RunEvent[] = [];
	for await (const event of orchestrator.run()) {
		events.push(event);
		setup.onEvent?.(event);
	}
	const ledgerFile = join(runDir, 'permissions.jsonl');
	return {
		root,
		events,
		result: orchestrator.result!,
		broker,
		notices: toolNotices(events),
		models,
		session: runTools.last!,
		of: <T extends RunEventType>(type: T) =>
			events.filter((event): event is RunEventOf<T> => event.type === type),
		ledger: () =>
			existsSync(ledgerFile)
				? readFileSync(ledgerFile, 'utf8')
						.trim()
						.split('\n')
						.map((line) => JSON.parse(line))
				: [],
	};
}

describe.runIf(posix)('orchestrator with MCP tools and run_command behind the permission engine', () => {
	it('two agents call an MCP tool and commands: approvals in order, identical requests shown once, a denial is a tool error and the run completes', async () => {
		const log = join(mkdtempSync(join(tmpdir(), 'massgen-log-')), 'server.log');
		const server = stdioServerSpec('srv', { log });
		const r = await run({
			members: [
				{
					id: 'alice',
					handler: sequence([
						tools(
							call('mcp__srv__echo', { text: 'hi' }),
							call('run_command', { command: 'ls > listing.txt && cat listing.txt' }),
						),
						answer('alice: all good'),
						vote('agent1'),
					]),
				},
				{
					id: 'bob',
					handler: sequence([
						tools(
							call('run_command', { command: 'ls > listing.txt && cat listing.txt' }),
							call('run_command', { command: 'curl https://evil.example' }),
						),
						answer('bob: all good'),
						vote('agent1'),
					]),
				},
			],
			agents: {
				alice: { mcpServers: [server], commandExecution: true },
				bob: { mcpServers: [server], commandExecution: true },
			},
			answer: (request) =>
				request.target.startsWith('curl')
					? { choice: 'deny', note: 'no network, please' }
					: { choice: 'allow-once' },
		});
		expect(r.result.status).toBe('completed');
		expect(r.result.finalAnswer).toBe('final answer');

		// The identical command of both agents was asked once and resolved for both.
		const requests = r.of('approval-request');
		expect(requests.map((event) => [event.action, event.target])).toEqual([
			['command', 'ls > listing.txt && cat listing.txt'],
			['command', 'curl https://evil.example'],
		]);
		// Shown once, in the lane of whichever agent asked first.
		expect(['alice', 'bob']).toContain(requests[0]!.agentId);
		expect(requests[1]!.agentId).toBe('bob');
		expect(requests[0]!.reason).toMatch(/medium risk: writes a file in the workspace copy/);
		const results = r.of('approval-result');
		expect(results.map((event) => [event.requestId, event.decision, event.by])).toEqual([
			[requests[0]!.requestId, 'allow', 'user'],
			[requests[1]!.requestId, 'deny', 'user'],
		]);

		// tool-call → approval-request → approval-result → tool-result, per call.
		const toolResult = (agentId: string, predicate: (event: RunEventOf<'tool-result'>) => boolean) =>
			r.of('tool-result').find((event) => event.agentId === agentId && predicate(event))!;
		const seqOf = (event: RunEvent) => event.seq;
		const curlCall = r
			.of('tool-call')
			.find((event) => event.agentId === 'bob' && String(event.args['command']).startsWith('curl'))!;
		const curlResult = toolResult('bob', (event) => event.callId === curlCall.callId);
		expect(seqOf(curlCall)).toBeLessThan(seqOf(requests[1]!));
		expect(seqOf(requests[1]!)).toBeLessThan(seqOf(results[1]!));
		expect(seqOf(results[1]!)).toBeLessThan(seqOf(curlResult));
		expect(curlResult).toMatchObject({
			isError: true,
			text: 'run_command: denied by the user. Note from the user: no network, please',
		});

		// Allowed calls ran: the MCP tool (read-only, no approval needed) and the command in the scratch copy.
		expect(toolResult('alice', (event) => event.name === 'mcp__srv__echo')).toMatchObject({
			isError: false,
			text: 'echo: hi',
		});
		for (const agent of ['alice', 'bob']) {
			const listing = toolResult(
				agent,
				(event) => event.name === 'run_command' && event.text.startsWith('exit code'),
			);
			expect(listing.text).toMatch(/^exit code 0 \(.*\)\nREADME\.md\nlisting\.txt$/);
		}
		expect(existsSync(join(r.root, 'listing.txt'))).toBe(false);

		// The models saw the MCP tool with its server schema next to the workspace tools.
		const offered = r.models.get('alice')!.requests[0]!.tools;
		expect(offered.find((tool) => tool.name === 'mcp__srv__echo')!.parameters).toMatchObject({
			properties: { text: { type: 'string' } },
		});
		expect(offered.map((tool) => tool.name)).toEqual(
			expect.arrayContaining(['read_file', 'run_command', 'mcp__srv__echo', 'new_answer']),
		);

		// The ledger records every decision: who asked, what, why, and who decided.
		const decisions = r
			.ledger()
			.map((entry) => [
				entry.agentId,
				entry.target,
				entry.decision,
				entry.via,
				entry.by,
				entry.requestId ?? null,
			]);
		expect(decisions).toHaveLength(4);
		expect(decisions).toEqual(
			expect.arrayContaining([
				['alice', 'srv/echo', 'allow', 'risk', 'engine', null],
				['alice', 'ls > listing.txt && cat listing.txt', 'allow', 'approval', 'user', requests[0]!.requestId],
				['bob', 'ls > listing.txt && cat listing.txt', 'allow', 'approval', 'user', requests[0]!.requestId],
				['bob', 'curl https://evil.example', 'deny', 'approval', 'user', requests[1]!.requestId],
			]),
		);
		expect(r.ledger().find((entry) => entry.target.startsWith('curl'))).toMatchObject({
			note: 'no network, please',
			risk: { level: 'high' },
			phase: 'coordination',
		});

		// One MCP session for the run, shared by both agents, closed at the end.
		expect(logLines(log).filter((line) => line.startsWith('start'))).toHaveLength(1);
		const pid = Number(logLines(log)[0]!.split(' ')[1]);
		await waitFor(() => !isAlive(pid), 'the MCP server to exit after the run', { timeoutMs: 5000 });
	});

	it('cancelling the run while a call waits for approval and another runs a slow MCP tool leaves no process behind', async () => {
		const log = join(mkdtempSync(join(tmpdir(), 'massgen-log-')), 'server.log');
		const controller = new AbortController();
		const r = await run({
			members: [
				{
					id: 'alice',
					handler: sequence([
						tools(call('mcp__srv__spawn_grandchild', {}), call('mcp__srv__slow', { ms: 60_000 })),
						answer('a'),
					]),
				},
				{
					id: 'bob',
					handler: sequence([tools(call('run_command', { command: 'npm publish' })), answer('b')]),
				},
			],
			agents: {
				alice: { mcpServers: [stdioServerSpec('srv', { log })], commandExecution: false },
				bob: { commandExecution: true },
			},
			answer: (request) =>
				request.target.includes('spawn_grandchild') ? { choice: 'allow-once' } : undefined,
			signal: controller.signal,
			onEvent: (event) => {
				if (event.type === 'tool-call' && event.name === 'mcp__srv__slow') {
					setTimeout(() => controller.abort(), 300);
				}
			},
		});
		expect(r.result.status).toBe('cancelled');
		expect(r.of('run-end')[0]!.status).toBe('cancelled');
		expect(r.broker.pending()).toEqual([]);
		const publish = r.of('approval-request').find((event) => event.target === 'npm publish')!;
		expect(r.of('approval-result').find((event) => event.requestId === publish.requestId)).toMatchObject({
			decision: 'deny',
		});
		const server = Number(
			logLines(log)
				.find((line) => line.startsWith('start'))!
				.split(' ')[1],
		);
		const grandchild = Number(
			logLines(log)
				.find((line) => line.startsWith('grandchild'))!
				.split(' ')[1],
		);
		await waitFor(() => !isAlive(server) && !isAlive(grandchild), 'the server and its child to be gone', {
			timeoutMs: 5000,
		});
		expect(r.ledger().find((entry) => entry.target === 'npm publish')).toMatchObject({
			decision: 'deny',
			by: 'cancelled',
		});
	});

	it('the run budget stops the agent that exceeds it, cleanly; the others finish the run', async () => {
		const r = await run({
			members: [
				{
					id: 'alice',
					handler: sequence([
						tools(
							call('read_file', { path: 'README.md' }),
							call('run_command', { command: 'ls' }),
							call('list_directory', { path: '.' }),
						),
						answer('never'),
					]),
				},
				{ id: 'bob', handler: sequence([answer('bob answer'), vote('agent2')]) },
			],
			agents: { alice: { commandExecution: true } },
			permissions: { maxToolCalls: 2 },
		});
		expect(r.result.status).toBe('completed');
		expect(r.result.winner?.agentId).toBe('bob');
		expect(r.of('agent-killed')).toEqual([
			expect.objectContaining({
				agentId: 'alice',
				reason: "stopped: the run's tool-call budget is used up (max_tool_calls: 2)",
			}),
		]);
		expect(
			r
				.of('tool-result')
				.filter((event) => event.agentId === 'alice')
				.map((event) => [event.name, event.isError]),
		).toEqual([
			['read_file', false],
			['run_command', false],
			['list_directory', true],
		]);
	});

	it('the presenter runs commands too, in its scratch copy with its edits, and the workspace is not written', async () => {
		let presentationCalls = 0;
		const presenter: ScriptedHandler = (request) => {
			if (!read.isPresentation(request)) return answer('the answer');
			presentationCalls++;
			if (presentationCalls === 1) {
				return tools(call('write_file', { path: 'NOTES.md', content: 'from the presenter\n' }));
			}
			if (presentationCalls === 2) return tools(call('run_command', { command: 'cat NOTES.md README.md' }));
			return { text: 'presented' };
		};
		const r = await run({
			members: [{ id: 'solo', handler: presenter }],
			agents: { solo: { commandExecution: true } },
			permissions: { rules: { allow: ['command(cat *)'] } },
		});
		expect(r.result).toMatchObject({ status: 'completed', finalAnswer: 'presented' });
		const output = r.of('tool-result').find((event) => event.name === 'run_command')!;
		expect(output).toMatchObject({ phase: 'presentation', isError: false });
		expect(output.text).toMatch(/^exit code 0 .*\nfrom the presenter\n# demo$/);
		expect(r.ledger()).toEqual([
			expect.objectContaining({
				agentId: 'solo',
				phase: 'presentation',
				decision: 'allow',
				via: 'rule',
				rule: { effect: 'allow', pattern: 'command(cat *)', source: 'config' },
			}),
		]);
		expect(existsSync(join(r.root, 'NOTES.md'))).toBe(false);
		expect(r.result.changes.map((change) => change.path)).toEqual(['NOTES.md']);
	});

	it('planning mode: a write tool is described, not run, during coordination; the presenter runs it after approval', async () => {
		const log = join(mkdtempSync(join(tmpdir(), 'massgen-log-')), 'server.log');
		const server = stdioServerSpec('srv', { log });
		let presentationCalls = 0;
		let coordinationCalls = 0;
		const planner: ScriptedHandler = (request) => {
			if (read.isPresentation(request)) {
				presentationCalls++;
				return presentationCalls === 1
					? tools(call('mcp__srv__note', { text: 'ship it' }))
					: { text: 'done' };
			}
			coordinationCalls++;
			if (coordinationCalls === 1) {
				return tools(call('mcp__srv__note', { text: 'early' }), call('mcp__srv__echo', { text: 'look' }));
			}
			return coordinationCalls === 2 ? answer('plan: note "ship it"') : vote('agent1');
		};
		const r = await run({
			members: [
				{ id: 'lead', handler: planner },
				{ id: 'peer', handler: sequence([answer('peer plan'), vote('agent1')]) },
			],
			agents: { lead: { mcpServers: [server] } },
			settings: { planningMode: true },
			answer: () => ({ choice: 'allow-once' }),
		});
		expect(r.result.status).toBe('completed');
		const results = r.of('tool-result').filter((event) => event.agentId === 'lead');
		const byName = (name: string, phase: string) => results.find((e) => e.name === name && e.phase === phase);
		// Coordination: the write is held (no approval asked, the server never saw it); the read-only echo ran.
		expect(byName('mcp__srv__note', 'coordination')).toMatchObject({ planned: true, isError: false });
		expect(byName('mcp__srv__echo', 'coordination')).toMatchObject({ isError: false, text: 'echo: look' });
		// Presentation: the same tool runs, after the user's approval.
		expect(byName('mcp__srv__note', 'presentation')).toMatchObject({
			isError: false,
			text: 'noted: ship it',
		});
		expect(byName('mcp__srv__note', 'presentation')?.planned).toBeUndefined();
		expect(r.of('approval-request').map((event) => event.target)).toEqual(['srv/note']);
		const calls = readFileSync(log, 'utf8')
			.split('\n')
			.filter((line) => line.startsWith('call '));
		expect(calls).toEqual(['call echo look', 'call note ship it']);
		// The coordination prompt says so.
		const first = [...r.models.get('lead')!.requests][0]!;
		expect(first.system).toContain('PLANNING MODE');
	});

	it('an agent waiting for approval does not hold up the others', async () => {
		let broker: ApprovalBroker | undefined;
		let denied = false;
		const r = await run({
			members: [
				{
					id: 'alice',
					handler: sequence([
						tools(call('run_command', { command: 'make' })),
						answer('alice answer'),
						vote('agent2'),
					]),
				},
				{ id: 'bob', handler: sequence([answer('bob answer'), vote('agent2')], 'bob presents') },
			],
			agents: { alice: { commandExecution: true } },
			options: {
				broker: (broker = new ApprovalBroker()),
			},
			onEvent: (event) => {
				// Decide once bob has answered and voted: bob must not wait for alice's approval. Only at
				// bob's first vote: he votes again after alice's answer, when nothing is pending any more.
				if (event.type === 'vote' && event.agentId === 'bob' && !denied) {
					denied = true;
					const [pending] = broker!.pending();
					setTimeout(() => broker!.resolve(pending!.requestId, 'deny'), 50);
				}
			},
		});
		expect(r.result.status).toBe('completed');
		const bobVote = r.of('vote').find((event) => event.agentId === 'bob')!;
		const request = r.of('approval-request')[0]!;
		const decided = r.of('approval-result')[0]!;
		expect(request.seq).toBeLessThan(bobVote.seq);
		expect(bobVote.seq).toBeLessThan(decided.seq);
		expect(decided).toMatchObject({ agentId: 'alice', decision: 'deny', by: 'user' });
	});

	it('closes the tool session on the crash path too (a failure inside the run)', async () => {
		let closed = 0;
		const orchestrator = new Orchestrator({
			question: 'q',
			workspace: await createWorkspace(makeWorkspaceDir()),
			agents: [{ id: 'solo', model: new ScriptedModel(() => ({ text: 'x' })) }],
			settings: fastSettings,
			tools: {
				open: () => ({
					ready: () => Promise.reject(new Error('tools exploded')),
					toolbox: (_agent, workspace) => workspace,
					usage: () => undefined,
					close: async () => void closed++,
				}),
			},
		});
		const events: RunEvent[] = [];
		for await (const event of orchestrator.run()) events.push(event);
		expect(events.at(-1)).toMatchObject({
			type: 'run-end',
			status: 'failed',
			error: 'internal error: tools exploded',
		});
		expect(closed).toBe(1);
	});

	it('an untrusted workspace offers no run_command and starts no stdio server from workspace files', async () => {
		const log = join(mkdtempSync(join(tmpdir(), 'massgen-log-')), 'server.log');
		const r = await run({
			members: [{ id: 'solo', handler: () => ({ text: 'done' }) }],
			agents: { solo: { commandExecution: true } },
			options: {
				trusted: false,
				workspaceServers: [
					stdioServerSpec('repo', { log, origin: { kind: 'workspace-file', file: '.mcp.json' } }),
				],
			},
		});
		expect(r.result.status).toBe('completed');
		expect(r.models.get('solo')!.requests[0]!.tools.map((tool) => tool.name)).not.toEqual(
			expect.arrayContaining(['run_command']),
		);
		expect(r.notices).toEqual([
			"MCP server 'repo' (from .mcp.json) was not started: the workspace is not trusted, and stdio servers start processes",
			'run_command is off: the workspace is not trusted (commands would run its own scripts)',
		]);
		expect(logLines(log)).toEqual([]);
	});
});
