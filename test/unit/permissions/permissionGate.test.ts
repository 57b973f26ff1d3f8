import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalBroker, type ApprovalChoice } from '../../../src/core/permissions/approvalBroker.js';
import { Redactor } from '../../../src/core/secrets/redactor.js';
import type { RunEventBody } from '../../../src/contract/runEvents.js';
import { AuditLedger } from '../../../src/core/permissions/auditLedger.js';
import { runFileNames } from '../../../src/contract/runLayout.js';
import { PermissionEngine, type PermissionRequest } from '../../../src/core/permissions/permissionEngine.js';
import { PermissionGate } from '../../../src/core/permissions/permissionGate.js';
import { RunBudget } from '../../../src/core/permissions/runBudget.js';

function setup(
	options: {
		answer?: ApprovalChoice;
		note?: string;
		maxToolCalls?: number;
		maxCostUsd?: number;
		secrets?: string[];
	} = {},
) {
	const runDir = mkdtempSync(join(tmpdir(), 'massgen-gate-'));
	const events: RunEventBody[] = [];
	const stopped: [string, string][] = [];
	const persisted: string[] = [];
	const store = { rules: () => persisted, add: (rule: string) => void persisted.push(rule) };
	const broker = new ApprovalBroker();
	let asked = 0;
	broker.onDidRequest((request) => {
		asked++;
		if (options.answer) {
			queueMicrotask(() => broker.resolve(request.requestId, options.answer!, options.note));
		}
	});
	const engine = new PermissionEngine({ store });
	const ledger = new AuditLedger(runDir, new Redactor(options.secrets).text);
	const gate = new PermissionGate({
		runId: 'run-1',
		engine,
		broker,
		ledger,
		budget: new RunBudget({
			maxToolCalls: options.maxToolCalls ?? null,
			maxCostUsd: options.maxCostUsd ?? null,
		}),
		approvalTimeoutMs: 5_000,
		store,
		emit: (body) => events.push(body),
		stopAgent: (agentId, reason) => stopped.push([agentId, reason]),
	});
	const lines = () =>
		readFileSync(join(runDir, runFileNames.permissions), 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line));
	return { gate, ledger, events, stopped, persisted, lines, asked: () => asked };
}

const command = (target: string, agentId = 'alice'): PermissionRequest => ({
	agentId,
	tool: 'run_command',
	action: 'command',
	target,
	args: { command: target, cwd: '.' },
	cwd: '.',
});
const signal = () => new AbortController().signal;

describe('PermissionGate', () => {
	it('lets low-risk calls through and refuses the floor without asking, recording both', async () => {
		const { gate, lines, asked } = setup();
		expect(await gate.authorize(command('ls'), 'coordination', signal())).toEqual({ allowed: true });
		const refused = await gate.authorize(command('rm -rf ~'), 'coordination', signal());
		expect(refused).toEqual({
			allowed: false,
			message: expect.stringMatching(/^run_command: refused by the safety floor: recursively deletes ~/),
		});
		expect(asked()).toBe(0);
		expect(lines()).toEqual([
			expect.objectContaining({
				runId: 'run-1',
				agentId: 'alice',
				phase: 'coordination',
				tool: 'run_command',
				action: 'command',
				target: 'ls',
				decision: 'allow',
				via: 'risk',
				by: 'engine',
				risk: { level: 'low', reasons: [] },
			}),
			expect.objectContaining({ target: 'rm -rf ~', decision: 'deny', via: 'hardline', by: 'engine' }),
		]);
		expect(lines()[0].time).toMatch(/^\d{4}-\d\d-\d\dT/);
	});

	it('"allow for this run" answers later identical calls without asking; "once" asks again', async () => {
		const once = setup({ answer: 'allow-once' });
		await once.gate.authorize(command('npm test'), 'coordination', signal());
		await once.gate.authorize(command('npm test'), 'coordination', signal());
		expect(once.asked()).toBe(2);

		const run = setup({ answer: 'allow-run' });
		expect(await run.gate.authorize(command('npm test'), 'coordination', signal())).toEqual({
			allowed: true,
		});
		expect(await run.gate.authorize(command('npm  test', 'bob'), 'presentation', signal())).toEqual({
			allowed: true,
		});
		expect(run.asked()).toBe(1);
		expect(run.persisted).toEqual([]);
		expect(
			run
				.lines()
				.map((entry) => [
					entry.agentId,
					entry.via,
					entry.by,
					entry.scope ?? null,
					entry.rule?.source ?? null,
				]),
		).toEqual([
			['alice', 'approval', 'user', 'run', null],
			['bob', 'rule', 'engine', null, 'run'],
		]);
	});

	it('"always allow" persists the exact rule through the store', async () => {
		const { gate, persisted, lines } = setup({ answer: 'always' });
		await gate.authorize(command('make check'), 'coordination', signal());
		expect(persisted).toEqual(['command(make check)']);
		expect(lines()[0]).toMatchObject({ decision: 'allow', via: 'approval', by: 'user', scope: 'always' });
	});

	it("a denial reaches the model with the user's note; the ledger keeps it", async () => {
		const { gate, events, lines } = setup({ answer: 'deny', note: 'use the staging registry' });
		const result = await gate.authorize(command('npm publish'), 'coordination', signal());
		expect(result).toEqual({
			allowed: false,
			message: 'run_command: denied by the user. Note from the user: use the staging registry',
		});
		expect(events.map((event) => event.type)).toEqual(['approval-request', 'approval-result']);
		expect(lines()[0]).toMatchObject({
			decision: 'deny',
			via: 'approval',
			by: 'user',
			note: 'use the staging registry',
			reason: expect.stringMatching(/high risk: publishes/),
		});
		expect(lines()[0].requestId).toMatch(/^approval-/);
	});

	it('stops the agent that exceeds the tool-call budget, with a message naming the cap', () => {
		const { gate, stopped } = setup({ maxToolCalls: 2 });
		expect(gate.charge('alice', 'read_file')).toEqual({ allowed: true });
		expect(gate.charge('bob', 'run_command')).toEqual({ allowed: true });
		const over = gate.charge('alice', 'read_file');
		expect(over).toEqual({
			allowed: false,
			message:
				"read_file: stopped: the run's tool-call budget is used up (max_tool_calls: 2). Finish now with what you have.",
		});
		expect(stopped).toEqual([
			['alice', "stopped: the run's tool-call budget is used up (max_tool_calls: 2)"],
		]);
	});

	it('stops an agent whose model call takes the run over its cost budget (unpriced calls count 0)', () => {
		const { gate, stopped } = setup({ maxCostUsd: 0.5 });
		gate.usage('alice', 0.3);
		gate.usage('bob', null);
		expect(stopped).toEqual([]);
		gate.usage('bob', 0.25);
		expect(stopped).toEqual([
			['bob', "stopped: the run's cost budget is used up ($0.5500 spent, max_cost_usd: 0.5)"],
		]);
		expect(gate.charge('alice', 'read_file').allowed).toBe(false);
	});

	it('redacts known secrets from the ledger', async () => {
		const secret = 'sk-live-abcdefghijklmnop';
		const { gate, ledger, lines } = setup({ secrets: [secret] });
		await gate.authorize(command(`echo ${secret}`), 'coordination', signal());
		expect(JSON.stringify(lines())).not.toContain(secret);
		expect(ledger.entries[0]!.target).toContain(secret);
	});
});
