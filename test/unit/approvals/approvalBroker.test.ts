import { describe, expect, it } from 'vitest';
import { ApprovalBroker, type ApprovalQuestion } from '../../../src/core/permissions/approvalBroker.js';
import type { RunEventBody } from '../../../src/contract/runEvents.js';

function setup(options: ConstructorParameters<typeof ApprovalBroker>[0] = {}) {
	const events: RunEventBody[] = [];
	const broker = new ApprovalBroker(options);
	const question = (agentId: string, overrides: Partial<ApprovalQuestion> = {}): ApprovalQuestion => ({
		runId: 'run-1',
		agentId,
		tool: 'run_command',
		action: 'command',
		target: 'npm install',
		args: { command: 'npm install', cwd: '.' },
		reason: 'high risk: installs packages',
		risk: { level: 'high', reasons: ['installs packages'] },
		key: 'command\0npm install',
		grantRule: 'command(npm install)',
		timeoutMs: 10_000,
		emit: (body) => events.push(body),
		...overrides,
	});
	return { broker, events, question };
}

const live = () => new AbortController().signal;

describe('ApprovalBroker', () => {
	it('emits approval-request, waits, and resolves with the user decision and its scope', async () => {
		const { broker, events, question } = setup();
		const announced: string[] = [];
		broker.onDidRequest((request) => announced.push(request.requestId));
		const pending = broker.request(question('alice'), live());
		const [request] = broker.pending('run-1');
		expect(request).toMatchObject({
			agentIds: ['alice'],
			target: 'npm install',
			args: { command: 'npm install', cwd: '.' },
			grantRule: 'command(npm install)',
		});
		expect(announced).toEqual([request!.requestId]);
		expect(request!.requestId).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
		expect(broker.resolve(request!.requestId, 'allow-run')).toBe(true);
		expect(await pending).toEqual({
			requestId: request!.requestId,
			decision: 'allow',
			by: 'user',
			scope: 'run',
		});
		expect(events).toEqual([
			{
				type: 'approval-request',
				agentId: 'alice',
				requestId: request!.requestId,
				action: 'command',
				target: 'npm install',
				reason: 'high risk: installs packages',
			},
			{
				type: 'approval-result',
				agentId: 'alice',
				requestId: request!.requestId,
				decision: 'allow',
				by: 'user',
			},
		]);
		expect(broker.pending()).toEqual([]);
		expect(broker.resolve(request!.requestId, 'deny')).toBe(false);
	});

	it('shows identical requests from several agents of one run once and resolves them for all', async () => {
		const { broker, events, question } = setup();
		const first = broker.request(question('alice'), live());
		const second = broker.request(question('bob'), live());
		const otherRun = broker.request(question('carol', { runId: 'run-2' }), live());
		const different = broker.request(question('bob', { key: 'command\0npm ci', target: 'npm ci' }), live());
		expect(broker.pending('run-1').map((request) => [request.target, request.agentIds])).toEqual([
			['npm install', ['alice', 'bob']],
			['npm ci', ['bob']],
		]);
		expect(events.filter((event) => event.type === 'approval-request')).toHaveLength(3);
		const shared = broker.pending('run-1')[0]!;
		broker.resolve(shared.requestId, 'deny', '  not now  ');
		const expected = {
			requestId: shared.requestId,
			decision: 'deny',
			by: 'user',
			scope: 'once',
			note: 'not now',
		};
		expect(await first).toEqual(expected);
		expect(await second).toEqual(expected);
		expect(events.filter((event) => event.type === 'approval-result')).toHaveLength(1);
		expect(broker.pending().map((request) => request.target)).toEqual(['npm install', 'npm ci']);
		broker.cancelRun('run-2');
		broker.cancelRun('run-1');
		expect((await otherRun).by).toBe('cancelled');
		expect((await different).by).toBe('cancelled');
	});

	it('maps the panel choices to scopes', async () => {
		const { broker, question } = setup();
		for (const [choice, decision, scope] of [
			['allow-once', 'allow', 'once'],
			['allow-run', 'allow', 'run'],
			['always', 'allow', 'always'],
			['deny', 'deny', 'once'],
		] as const) {
			const pending = broker.request(question('alice'), live());
			broker.resolve(broker.pending()[0]!.requestId, choice);
			expect(await pending).toMatchObject({ decision, scope, by: 'user' });
		}
	});

	it('times out to deny', async () => {
		const { broker, events, question } = setup();
		const started = Date.now();
		const outcome = await broker.request(question('alice', { timeoutMs: 60 }), live());
		expect(outcome).toMatchObject({ decision: 'deny', by: 'timeout', note: 'no decision within 0 s' });
		expect(Date.now() - started).toBeGreaterThanOrEqual(50);
		expect(events.at(-1)).toMatchObject({ type: 'approval-result', decision: 'deny', by: 'timeout' });
		expect(broker.pending()).toEqual([]);
	});

	it('cancelling one waiter leaves the request to the others; cancelling the last withdraws it', async () => {
		const { broker, events, question } = setup();
		const settled: string[] = [];
		broker.onDidSettle((_request, outcome) => settled.push(outcome.by));
		const a = new AbortController();
		const b = new AbortController();
		const first = broker.request(question('alice'), a.signal);
		const second = broker.request(question('bob'), b.signal);
		a.abort();
		expect(await first).toMatchObject({ decision: 'deny', by: 'cancelled' });
		expect(broker.pending()).toHaveLength(1);
		expect(broker.pending()[0]!.agentIds).toEqual(['alice', 'bob']);
		b.abort();
		expect(await second).toMatchObject({ decision: 'deny', by: 'cancelled' });
		expect(broker.pending()).toEqual([]);
		expect(settled).toEqual(['cancelled']);
		// The event union has no "withdrawn": the card is closed as expired.
		expect(events.at(-1)).toMatchObject({ type: 'approval-result', decision: 'deny', by: 'timeout' });
		const aborted = new AbortController();
		aborted.abort();
		expect(await broker.request(question('carol'), aborted.signal)).toMatchObject({ by: 'cancelled' });
	});

	it('a policy answers at once, recorded as a rule decision (CLI --yes / --deny-all)', async () => {
		const { broker, events, question } = setup({
			policy: () => ({ decision: 'deny', note: 'denied by --deny-all' }),
		});
		let asked = false;
		broker.onDidRequest(() => (asked = true));
		expect(await broker.request(question('alice'), live())).toMatchObject({
			decision: 'deny',
			by: 'rule',
			note: 'denied by --deny-all',
		});
		expect(asked).toBe(false);
		expect(events.map((event) => event.type)).toEqual(['approval-request', 'approval-result']);
		expect(events[1]).toMatchObject({ decision: 'deny', by: 'rule' });
	});
});
