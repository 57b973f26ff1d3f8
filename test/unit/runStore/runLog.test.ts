import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRunEvents } from '../../../src/core/runStore/readRunEvents.js';
import { RunLogWriter } from '../../../src/core/runStore/runLog.js';
import { Redactor } from '../../../src/core/secrets/redactor.js';
import type { RunResult } from '../../../src/contract/runResult.js';
import { RUN_ID, stamp } from '../protocol/eventFixtures.js';
import { convergenceEvents } from '../protocol/scenarios.js';
import { waitFor } from '../../support/waitFor.js';

let ws: string;
beforeEach(async () => {
	ws = await mkdtemp(join(tmpdir(), 'massgen-log-'));
});
afterEach(async () => {
	await rm(ws, { recursive: true, force: true });
});

const result: RunResult = {
	runId: RUN_ID,
	question: 'How should parse() work?',
	status: 'completed',
	winner: { agentId: 'alice', label: 'agent1.2' },
	answers: [
		{ agentId: 'alice', label: 'agent1.2', content: 'A2' },
		{ agentId: 'bob', label: 'agent2.1', content: 'B1' },
	],
	votes: [{ voter: 'bob', votedFor: 'alice', votedForLabel: 'agent1.2', reason: 'better' }],
	finalAnswer: '# Final\nUse a map.',
	changes: [{ path: 'src/parse.ts', kind: 'modify', baseHash: 'ab'.repeat(32), base: 'old', content: 'new' }],
	usage: [{ agentId: 'alice', inputTokens: 300, outputTokens: 50, calls: 2, costUsd: 0.03 }],
	durationMs: 12_345,
};
const patch =
	'diff --git a/src/parse.ts b/src/parse.ts\n--- a/src/parse.ts\n+++ b/src/parse.ts\n@@ -1 +1 @@\n-old\n+new\n';

describe('RunLogWriter', () => {
	it('streams every event as one JSON line, in order, into .massgen/runs/<runId>/events.jsonl', async () => {
		const log = await RunLogWriter.create(ws, RUN_ID);
		expect(log.runDir).toBe(join(ws, '.massgen', 'runs', RUN_ID));
		const events = convergenceEvents();
		for (const event of events) log.append(event);
		await log.close();
		const lines = (await readFile(join(log.runDir, 'events.jsonl'), 'utf8')).split('\n');
		expect(lines.pop()).toBe('');
		expect(lines.map((line) => JSON.parse(line))).toEqual(events);
	});

	it('keeps order when events arrive while earlier writes are still pending', async () => {
		const log = await RunLogWriter.create(ws, RUN_ID, { flushDelayMs: 0 });
		const events = stamp(
			Array.from({ length: 3_000 }, (_, i) => ({
				type: 'text-delta' as const,
				agentId: `a${i % 3}`,
				phase: 'coordination' as const,
				text: `${i} ${'x'.repeat(i % 200)}`,
			})),
		);
		const pending: Promise<void>[] = [];
		for (const [i, event] of events.entries()) {
			log.append(event);
			if (i % 97 === 0) pending.push(log.flush());
			if (i % 500 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
		}
		await Promise.all(pending);
		await log.close();
		expect((await readRunEvents(log.runDir)).map((e) => e.seq)).toEqual(events.map((e) => e.seq));
	});

	it('writes buffered events after the flush delay, without close (a crash keeps the partial log)', async () => {
		const log = await RunLogWriter.create(ws, RUN_ID, { flushDelayMs: 5 });
		const [first] = convergenceEvents();
		log.append(first!);
		await waitFor(
			async () => (await readRunEvents(log.runDir)).length > 0,
			'the flush timer to write the event',
		);
		expect(await readRunEvents(log.runDir)).toEqual([first]);
		await log.close();
	});

	it('writes result.json (docs/protocol.md), final-answer.md, changes.patch and config.yaml atomically', async () => {
		const log = await RunLogWriter.create(ws, RUN_ID);
		for (const event of convergenceEvents()) log.append(event);
		await log.finish({ result, configYaml: 'agents:\n  - id: alice\n', patch });
		await log.close();
		const files = (await readdir(log.runDir)).sort();
		expect(files).toEqual(['changes.patch', 'config.yaml', 'events.jsonl', 'final-answer.md', 'result.json']);
		const json = JSON.parse(await readFile(join(log.runDir, 'result.json'), 'utf8'));
		expect(json).toEqual(result);
		expect(Object.keys(json)).toEqual(
			expect.arrayContaining([
				'runId',
				'question',
				'status',
				'winner',
				'answers',
				'votes',
				'finalAnswer',
				'changes',
				'usage',
				'durationMs',
			]),
		);
		expect(await readFile(join(log.runDir, 'final-answer.md'), 'utf8')).toBe(result.finalAnswer);
		expect(await readFile(join(log.runDir, 'changes.patch'), 'utf8')).toBe(patch);
		expect(await readFile(join(log.runDir, 'config.yaml'), 'utf8')).toBe('agents:\n  - id: alice\n');
	});

	it('omits final-answer.md and changes.patch when there is no answer or no change', async () => {
		const log = await RunLogWriter.create(ws, RUN_ID);
		await log.finish({
			result: { ...result, status: 'cancelled', winner: null, finalAnswer: null, changes: [] },
			configYaml: '',
			patch: '',
		});
		await log.close();
		expect((await readdir(log.runDir)).sort()).toEqual(['config.yaml', 'events.jsonl', 'result.json']);
	});

	it('never lets a known secret reach disk', async () => {
		const secrets = ['sk-live-0123456789', 'k"ey\\with-quotes'];
		const log = await RunLogWriter.create(ws, RUN_ID, { redactor: new Redactor(secrets) });
		const events = stamp([
			{ type: 'text-delta', agentId: 'alice', phase: 'coordination', text: 'my key is sk-live-0123456789!' },
			{
				type: 'tool-call',
				agentId: 'alice',
				phase: 'coordination',
				callId: 'c',
				name: 'x',
				args: { 'sk-live-0123456789': secrets[1] },
			},
			{
				type: 'agent-error',
				agentId: 'bob',
				message: `401 for key ${secrets[1]}`,
				kind: 'auth',
				retryable: false,
				failures: 1,
			},
		]);
		for (const event of events) log.append(event);
		await log.finish({
			result: { ...result, finalAnswer: 'use sk-live-0123456789' },
			configYaml: 'api_key: sk-live-0123456789\n',
			patch: '+const key = "sk-live-0123456789";\n',
		});
		await log.close();
		for (const file of await readdir(log.runDir)) {
			const text = await readFile(join(log.runDir, file), 'utf8');
			for (const secret of secrets) {
				expect(text, file).not.toContain(secret);
				expect(text, file).not.toContain(JSON.stringify(secret).slice(1, -1));
			}
		}
		const back = await readRunEvents(log.runDir);
		expect(back).toHaveLength(3);
		expect(back[0]).toMatchObject({ text: 'my key is [redacted]!' });
		expect(back[1]).toMatchObject({ args: { '[redacted]': '[redacted]' } });
	});

	it('refuses an unsafe run id and appends after close', async () => {
		await expect(RunLogWriter.create(ws, '../escape')).rejects.toThrow(/not a safe directory name/);
		const log = await RunLogWriter.create(ws, RUN_ID);
		await log.close();
		await log.close();
		expect(() => log.append(convergenceEvents()[0]!)).toThrow(/closed/);
	});
});

describe('readRunEvents', () => {
	it('skips a truncated last line and an unreadable line in the middle', async () => {
		const dir = join(ws, 'run');
		const [a, b, c] = convergenceEvents();
		await import('node:fs/promises').then((fs) => fs.mkdir(dir));
		const text = [
			JSON.stringify(a),
			'{not json',
			JSON.stringify(b),
			'[1,2]',
			JSON.stringify(c).slice(0, 25),
		].join('\n');
		await writeFile(join(dir, 'events.jsonl'), text);
		expect(await readRunEvents(dir)).toEqual([a, b]);
	});

	it('reads a log written by the writer back to the same events', async () => {
		const log = await RunLogWriter.create(ws, RUN_ID);
		const events = convergenceEvents();
		for (const event of events) log.append(event);
		await log.close();
		expect(await readRunEvents(log.runDir)).toEqual(events);
	});
});
