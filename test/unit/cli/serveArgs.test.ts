import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../src/cli/args.js';
import { UsageError } from '../../../src/cli/usageError.js';

const parse = (...argv: string[]) => parseCliArgs(argv, '/work/here');

describe('massgen serve arguments', () => {
	it('defaults to 127.0.0.1:8000 in the current folder; resolves --config and takes port 0', () => {
		expect(parse('serve')).toEqual({
			kind: 'serve',
			host: '127.0.0.1',
			port: 8000,
			workspace: '/work/here',
			requestTimeoutSeconds: 30,
		});
		expect(
			parse(
				'serve',
				'--port',
				'0',
				'--config',
				'team.yaml',
				'--host',
				'0.0.0.0',
				'--token',
				't',
				'--request-timeout',
				'2',
			),
		).toMatchObject({
			port: 0,
			config: '/work/here/team.yaml',
			host: '0.0.0.0',
			token: 't',
			requestTimeoutSeconds: 2,
		});
	});

	it("refuses a bad port, an empty token, run's options and arguments; serve's options belong to serve", () => {
		expect(() => parse('serve', '--port', '80x')).toThrow(
			new UsageError("--port must be a port number (0: any free port), not '80x'"),
		);
		expect(() => parse('serve', '--port', '70000')).toThrow('--port must be a port number');
		expect(() => parse('serve', '--token', ' ')).toThrow('--token needs a value');
		expect(() => parse('serve', '--apply')).toThrow('--apply is not an option of serve');
		expect(() => parse('serve', 'extra')).toThrow('serve takes no arguments');
		expect(() => parse('run', '--port', '1', 'q')).toThrow('--port is an option of serve');
	});
});
