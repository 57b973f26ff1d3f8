import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../src/cli/args.js';
import { UsageError } from '../../../src/cli/usageError.js';

describe('massgen revert arguments', () => {
	it('takes one RUN_ID, --workspace and --markers', () => {
		expect(parseCliArgs(['revert', '20261201-120000-abcd'], '/ws')).toEqual({
			kind: 'revert',
			workspace: '/ws',
			runId: '20261201-120000-abcd',
			markers: false,
		});
		expect(parseCliArgs(['revert', 'r1', '--markers', '--workspace', '/other'], '/ws')).toMatchObject({
			workspace: '/other',
			markers: true,
		});
	});

	it('refuses other options, a missing or second id, and --markers elsewhere', () => {
		expect(() => parseCliArgs(['revert'], '/ws')).toThrow(UsageError);
		expect(() => parseCliArgs(['revert', 'a', 'b'], '/ws')).toThrow(/exactly one RUN_ID/);
		expect(() => parseCliArgs(['revert', 'a', '--apply'], '/ws')).toThrow(
			/--apply is not an option of revert/,
		);
		expect(() => parseCliArgs(['run', '--markers', 'why?'], '/ws')).toThrow(
			/--markers is an option of revert/,
		);
	});
});
