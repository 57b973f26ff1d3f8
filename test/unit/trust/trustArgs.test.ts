import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../src/cli/args.js';
import { UsageError } from '../../../src/cli/usageError.js';

describe('trust on the command line', () => {
	it('massgen trust [--workspace DIR] [--config FILE] | --revoke | --list', () => {
		expect(parseCliArgs(['trust'], '/w')).toEqual({ kind: 'trust', action: 'trust', workspace: '/w' });
		expect(parseCliArgs(['trust', '--workspace', '/r', '--config', 'c.yaml'], '/w')).toEqual({
			kind: 'trust',
			action: 'trust',
			workspace: '/r',
			config: '/w/c.yaml',
		});
		expect(parseCliArgs(['trust', '--revoke'], '/w')).toMatchObject({ action: 'revoke' });
		expect(parseCliArgs(['trust', '--list'], '/w')).toMatchObject({ action: 'list' });
		for (const bad of [
			['trust', '--revoke', '--list'],
			['trust', 'x'],
			['trust', '--yes'],
			['run', '--revoke', 'q'],
		]) {
			expect(() => parseCliArgs(bad, '/w')).toThrow(UsageError);
		}
	});

	it('--trust-workspace on run and chat; absent by default', () => {
		expect(parseCliArgs(['run', '--trust-workspace', 'q'], '/w')).toMatchObject({
			kind: 'run',
			trustWorkspace: true,
		});
		expect(parseCliArgs(['chat', '--trust-workspace'], '/w')).toMatchObject({
			kind: 'chat',
			trustWorkspace: true,
		});
		expect(parseCliArgs(['run', 'q'], '/w')).not.toHaveProperty('trustWorkspace');
	});
});
