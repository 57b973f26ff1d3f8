import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anthropicToolUse } from '../../../src/core/providers/vendors/anthropicProviderTools.js';
import { costOf, loadPriceTable, priceFor } from '../../../src/core/providers/spec/pricing.js';

/** Provider tool results the stream tests do not reach, and their per-call prices. */
describe('per-call prices of provider tools', () => {
	it('configs/prices.yaml prices a web search per call, counted into the call cost', async () => {
		const table = await loadPriceTable(join(__dirname, '..', '..', '..', 'configs', 'prices.yaml'));
		const sonnet = priceFor('claude', 'claude-sonnet-4-5-20250929', table)!;
		expect(sonnet.webSearchCall).toBe(0.01);
		expect(priceFor('openai', 'gpt-5-mini', table)!.webSearchCall).toBe(0.01);
		expect(priceFor('gemini', 'gemini-2.5-flash', table)!.webSearchCall).toBe(0.035);
		const tokens = { inputTokens: 1_000_000, outputTokens: 0 };
		expect(costOf(tokens, sonnet)).toBeCloseTo(3);
		expect(costOf({ ...tokens, webSearchCalls: 3 }, sonnet)).toBeCloseTo(3.03);
	});
});

describe("Anthropic's other server tool results", () => {
	it('a file edit in the container, a failed command and a refused search read as the lane shows them', () => {
		const edit = anthropicToolUse(
			{ command: 'create', path: '/tmp/a.py', file_text: 'print(1)' },
			{
				type: 'text_editor_code_execution_tool_result',
				tool_use_id: 't1',
				content: { type: 'text_editor_code_execution_create_result', is_file_update: false },
			},
		);
		expect(edit).toEqual({ id: 't1', kind: 'code', code: 'create /tmp/a.py' });
		const failed = anthropicToolUse(
			{ command: 'false' },
			{
				type: 'bash_code_execution_tool_result',
				tool_use_id: 't2',
				content: { type: 'bash_code_execution_result', stdout: '', stderr: 'boom', return_code: 1 },
			},
		);
		expect(failed).toEqual({ id: 't2', kind: 'code', code: 'false', output: 'boom', isError: true });
		const refused = anthropicToolUse(
			{ query: 'q' },
			{
				type: 'web_search_tool_result',
				tool_use_id: 't3',
				content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' },
			},
		);
		expect(refused).toEqual({
			id: 't3',
			kind: 'search',
			query: 'q',
			isError: true,
			output: 'max_uses_exceeded',
		});
	});
});
