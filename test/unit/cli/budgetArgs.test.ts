import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../src/cli/args.js';

const parse = (...argv: string[]) => parseCliArgs(argv, '/work/here');

describe('massgen run --max-cost / --max-tokens', () => {
	it('takes a positive USD amount and a whole number of tokens', () => {
		expect(parse('run', '--max-cost', '0.25', '--max-tokens', '50000', 'q')).toMatchObject({
			kind: 'run',
			maxCostUsd: 0.25,
			maxTokens: 50_000,
		});
		expect(parse('run', 'q')).not.toHaveProperty('maxCostUsd');
	});

	it('refuses anything else with the flag and the value', () => {
		expect(() => parse('run', '--max-cost', '0', 'q')).toThrow(
			"--max-cost must be a positive USD amount, not '0'",
		);
		expect(() => parse('run', '--max-cost', 'ten', 'q')).toThrow("not 'ten'");
		expect(() => parse('run', '--max-tokens', '1.5', 'q')).toThrow(
			"--max-tokens must be a whole number of tokens, not '1.5'",
		);
		expect(() => parse('chat', '--max-cost', '1')).toThrow('--max-cost is not an option of chat');
		expect(() => parse('runs', '--max-tokens', '1')).toThrow('--max-tokens is not an option of runs');
	});
});
