import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CodexUsage } from '../../../../src/core/providers/codingAgents/codexUsage.js';

const thread = '01a233bf-af4a-7bb3-abb9-3030149f7771';

/** Session-file lines as the Codex CLI 0.163.0 writes them (the fields we read). */
const record = (response: string, input: number, output: number) =>
	JSON.stringify({
		type: 'token_usage_record',
		payload: {
			thread_id: thread,
			response_id: response,
			usage: {
				input_tokens: input,
				cached_input_tokens: 0,
				output_tokens: output,
				reasoning_output_tokens: 0,
			},
		},
	});
const bridgedCall = (name: string) =>
	JSON.stringify({
		type: 'response_item',
		payload: { type: 'function_call', name, namespace: 'mcp__massgen' },
	});

describe("a Codex turn's usage from the CLI's session file", () => {
	let home: string;
	let file: string;
	beforeEach(() => {
		home = mkdtempSync(join(tmpdir(), 'massgen-codex-usage-'));
		const day = join(home, 'sessions', '2026', '12', '01');
		mkdirSync(day, { recursive: true });
		file = join(day, `rollout-2026-12-01T22-35-29-${thread}.jsonl`);
		// Another thread's file of the same agent is not this conversation's.
		writeFileSync(
			join(day, 'rollout-2026-12-01T22-00-00-other.jsonl'),
			`${record('resp_other', 999, 999)}\n`,
		);
	});
	afterEach(() => rmSync(home, { recursive: true, force: true }));

	it('each step counts the responses recorded so far; the completion counts the rest of the reported total', async () => {
		const usage = new CodexUsage(home);
		writeFileSync(file, `${bridgedCall('new_answer')}\n${record('resp_1', 100, 5)}\n`);
		expect(await usage.step(thread, 1)).toMatchObject({ inputTokens: 100, outputTokens: 5 });
		// A line still being written is left for the next look.
		appendFileSync(file, `${bridgedCall('vote')}\n${record('resp_2', 120, 5)}\n{"type":"token_usage_rec`);
		expect(await usage.step(thread, 2)).toMatchObject({ inputTokens: 120, outputTokens: 5 });
		appendFileSync(file, `ord","payload":{}}\n${record('resp_3', 130, 2)}\n`);
		const completed = await usage.completed(thread, { inputTokens: 350, outputTokens: 12 });
		expect(completed).toMatchObject({ inputTokens: 130, outputTokens: 2 });
		// Nothing is counted twice: the next turn starts from what the completion saw.
		expect(await usage.step(thread, 2)).toBeUndefined();
		expect(await usage.completed(thread, { inputTokens: 40, outputTokens: 3 })).toMatchObject({
			inputTokens: 40,
			outputTokens: 3,
		});
	});

	it('without a session file a step counts nothing and the completion all the CLI reported', async () => {
		const usage = new CodexUsage(join(home, 'no-such-home'));
		expect(await usage.step(thread, 0)).toBeUndefined();
		expect(await usage.completed(thread, { inputTokens: 10, outputTokens: 2 })).toMatchObject({
			inputTokens: 10,
			outputTokens: 2,
		});
		expect(await usage.step(null, 0)).toBeUndefined();
	});
});
