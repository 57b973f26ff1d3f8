import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseCliArgs } from '../../../src/cli/args.js';
import { validateCommand } from '../../../src/cli/validateCommand.js';

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

describe('massgen validate', () => {
	it('says which cost cap the config sets and that a lower one applies', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'massgen-validate-'));
		const file = join(dir, 'team.yaml');
		const backend = { type: 'openai', model: 'gpt-5-mini', api_key: 'k' };
		writeFileSync(file, stringify({ agents: [{ id: 'a', backend }], permissions: { max_cost_usd: 0.25 } }));
		let out = '';
		const stderr = new Writable({ write: (chunk, _encoding, done) => ((out += String(chunk)), done()) });
		expect(await validateCommand(file, {}, stderr)).toBe(0);
		expect(out).toContain(
			'  budget: $0.25 per run (permissions.max_cost_usd; a lower --max-cost or massgen.maxCostUsd applies)\n',
		);
	});
});
