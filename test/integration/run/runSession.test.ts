import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApprovalBroker } from '../../../src/core/permissions/approvalBroker.js';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';
import type { RunEvent } from '../../../src/contract/runEvents.js';
import { runSession, type RunSessionOptions } from '../../../src/core/run/runSession.js';
import type { Redactor } from '../../../src/core/secrets/redactor.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { toolNotices } from '../../support/toolNotices.js';
import { startLoopbackTeam, type LoopbackTeam } from '../../servers/loopbackTeam.js';

const shippedConfigsDir = join(__dirname, '..', '..', '..', 'configs');

/** The session as both shells use it, for a team config written into the workspace. */
function session(root: string, yaml: string, overrides: Partial<RunSessionOptions> = {}) {
	const file = join(root, 'team.yaml');
	writeFileSync(file, yaml);
	const loaded = loadConfigText(yaml, file);
	expect(loaded.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
	const events: RunEvent[] = [];
	const options: RunSessionOptions = {
		team: { config: loaded.config!, file },
		keys: { env: {} },
		workspaceRoot: root,
		question: 'What does a.ts export?',
		signal: new AbortController().signal,
		shippedConfigsDir,
		onEvent: (event) => events.push(event),
		...overrides,
	};
	return { options, events };
}

const eventsOnDisk = (runDir: string) =>
	readFileSync(join(runDir, 'events.jsonl'), 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((line) => JSON.parse(line) as RunEvent);

describe('runSession: one run as both shells assemble it', () => {
	let team: LoopbackTeam;
	beforeAll(async () => {
		team = await startLoopbackTeam();
	});
	afterAll(() => team.close());

	it('runs the loopback team: redacted events in order, the result, the run directory, the log closed', async () => {
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const { options, events } = session(root, team.configYaml());
		let redactor: Redactor | undefined;
		let started: { runDir: string; runId: string } | undefined;
		const outcome = await runSession({
			...options,
			onRedactor: (learned) => (redactor = learned),
			onRunDir: (runDir, runId) => (started = { runDir, runId }),
			tools: {
				broker: new ApprovalBroker({ policy: () => ({ decision: 'deny' }) }),
				trusted: true,
			},
		});
		const { result, runDir } = outcome;
		expect(result.status).toBe('completed');
		expect(result.votes.map((vote) => vote.voter).sort()).toEqual([
			'chat_agent',
			'claude_agent',
			'gemini_agent',
			'openai_agent',
		]);
		expect(result.finalAnswer).toBeTruthy();
		expect(started).toEqual({ runDir, runId: result.runId });
		expect(redactor?.needles).toEqual(expect.arrayContaining(['loopback-openai-key']));
		// Priced from the shipped table; the Chat Completions model has no price.
		const usage = Object.fromEntries(result.usage.map((u) => [u.agentId, u]));
		expect(usage['openai_agent']!.costUsd).toBeGreaterThan(0);
		expect(usage['chat_agent']!.costUsd).toBeNull();
		expect(events.map((event) => event.seq)).toEqual(events.map((_, i) => i));
		expect(events.at(-1)?.type).toBe('run-end');
		expect(JSON.stringify(events)).not.toContain('loopback-openai-key');
		// The log is closed: every event reached events.jsonl, and the end-of-run files are there.
		expect(eventsOnDisk(runDir)).toEqual(events);
		expect(readdirSync(runDir)).toEqual(
			expect.arrayContaining(['events.jsonl', 'result.json', 'final-answer.md', 'config.yaml']),
		);
		expect(JSON.parse(readFileSync(join(runDir, 'result.json'), 'utf8')).runId).toBe(result.runId);
		expect(readFileSync(join(runDir, 'config.yaml'), 'utf8')).not.toContain('loopback-openai-key');
		expect(outcome.ledger).toBeDefined();
		expect(toolNotices(events)).toEqual([]);
	});

	it('returns the bases the agents read (the run snapshot), not the file as it is after the run', async () => {
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		// Both agents make the same edit, so the winner's change set holds it whoever wins.
		const agent = (id: string) => [
			`  - id: ${id}`,
			'    backend:',
			'      type: scripted',
			'      script:',
			'        coordination:',
			'          - edits: [{ path: a.ts, content: "export const a = 2;\\n" }]',
			'            answer: a is 2 now',
			'          - vote: first',
			'        presentation: { text: done }',
		];
		const yaml = ['agents:', ...agent('first'), ...agent('second')].join('\n');
		const { options } = session(root, yaml);
		const outcome = await runSession({
			...options,
			// The user edits the file while the run goes on: the base stays what the agent read.
			onEvent: (event) => {
				if (event.type === 'run-end') writeFileSync(join(root, 'a.ts'), 'export const a = 3;\n');
			},
		});
		expect(outcome.result.changes.map((change) => change.path)).toEqual(['a.ts']);
		expect(outcome.result.changes.map((change) => change.base)).toEqual(['export const a = 1;\n']);
		expect(outcome.ledger).toBeUndefined();
		expect(readFileSync(join(outcome.runDir, 'changes.patch'), 'utf8')).toContain('+export const a = 2;');
	});

	it('closes the log when a consumer throws: the events so far are on disk, the error reaches the caller', async () => {
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const { options } = session(root, team.configYaml());
		let runDir = '';
		const seen: RunEvent[] = [];
		await expect(
			runSession({
				...options,
				onRunDir: (dir) => (runDir = dir),
				onEvent: (event) => {
					seen.push(event);
					if (seen.length === 3) throw new Error('display broke');
				},
			}),
		).rejects.toThrow('display broke');
		expect(eventsOnDisk(runDir)).toEqual(seen);
		expect(readdirSync(runDir)).not.toContain('result.json');
	});
});
