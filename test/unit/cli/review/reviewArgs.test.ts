import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../../src/cli/args.js';
import { UsageError } from '../../../../src/cli/usageError.js';

const parse = (...argv: string[]) => parseCliArgs(['review', ...argv], '/work/project');
const refusal = (...argv: string[]) => {
	try {
		parse(...argv);
	} catch (error) {
		if (UsageError.is(error)) return error.message;
		throw error;
	}
	return undefined;
};

describe('massgen review arguments', () => {
	it('reviews the working tree of the current folder by default; --staged, --range A..B', () => {
		expect(parse()).toEqual({
			kind: 'review',
			workspace: '/work/project',
			source: 'working-tree',
			json: false,
		});
		expect(parse('--staged')).toMatchObject({ source: 'staged' });
		expect(parse('--range', 'main..HEAD')).toMatchObject({ source: 'main..HEAD' });
		expect(parse('--help')).toEqual({ kind: 'help' });
	});

	it('resolves --workspace, --config and --sarif against the current folder; reads the gate and the caps', () => {
		expect(
			parse(
				'--workspace',
				'sub',
				'--config',
				'team.yaml',
				'--sarif',
				'out/review.sarif',
				'--json',
				'--fail-on',
				'medium',
				'--max-cost',
				'0.5',
				'--max-tokens',
				'20000',
				'--timeout',
				'90',
				'--no-instructions',
			),
		).toEqual({
			kind: 'review',
			workspace: '/work/project/sub',
			config: '/work/project/team.yaml',
			source: 'working-tree',
			json: true,
			sarif: '/work/project/out/review.sarif',
			failOn: 'medium',
			maxCostUsd: 0.5,
			maxTokens: 20000,
			timeoutSeconds: 90,
			noInstructions: true,
		});
	});

	it('refuses both sources, a range that is not two revisions, an unknown severity, words and other commands’ flags', () => {
		expect(refusal('--staged', '--range', 'a..b')).toBe('use either --staged or --range, not both');
		expect(refusal('--range', 'HEAD')).toMatch(/--range must be two revisions A\.\.B/);
		expect(refusal('--range', 'HEAD..$(touch x)')).toMatch(/--range must be two revisions/);
		expect(refusal('--fail-on', 'error')).toBe("--fail-on must be high, medium or low, not 'error'");
		expect(refusal('src/app.ts')).toMatch(/review takes no arguments/);
		expect(refusal('--apply')).toMatch(/Unknown option '--apply'/);
		expect(refusal('--sarif', ' ')).toBe('--sarif needs a FILE');
	});
});
