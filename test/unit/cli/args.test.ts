import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../src/cli/args.js';
import { UsageError } from '../../../src/cli/usageError.js';

const run = (...argv: string[]) => {
	const command = parseCliArgs(['run', ...argv], '/work/here');
	if (command.kind !== 'run') throw new Error(`parsed as ${command.kind}`);
	return command;
};

describe('massgen run attachment arguments', () => {
	it('keeps the question after a bare --attach-diff and resolves --attach against the current folder', () => {
		const command = run('--attach', 'src/a.ts', '--attach-diff', 'review', 'this', '--attach', '/abs/b.png');
		expect(command.question).toBe('review this');
		expect(command.attach).toEqual(['/work/here/src/a.ts', '/abs/b.png']);
		expect(command.attachDiff).toEqual(['working-tree']);
		expect(command.stdin).toBeUndefined();
	});

	it('takes --attach-diff=staged alongside the working tree, once each', () => {
		expect(run('--attach-diff=staged', '--attach-diff', '--attach-diff', 'q').attachDiff).toEqual([
			'staged',
			'working-tree',
		]);
	});

	it('reads - as stdin: attached after a question, the question when alone', () => {
		expect(run('review this', '-')).toMatchObject({ question: 'review this', stdin: 'attachment' });
		expect(run('-')).toMatchObject({ question: '', stdin: 'question' });
	});

	it('refuses a bad diff source, two dashes, an empty --attach and a question after -- as options', () => {
		expect(() => run('--attach-diff=HEAD', 'q')).toThrow(
			new UsageError("unknown option '--attach-diff=HEAD' (use --attach-diff or --attach-diff=staged)"),
		);
		expect(() => run('-', '-')).toThrow('give - (read stdin) at most once');
		expect(() => run('--attach', '', 'q')).toThrow('--attach needs a PATH');
		// After `--` everything is the question, flags included.
		expect(run('--', '--attach-diff', 'is', 'a', 'word').question).toBe('--attach-diff is a word');
	});
});

describe('massgen mcp arguments', () => {
	it('takes --workspace and --config resolved against the current folder, and nothing else', () => {
		expect(parseCliArgs(['mcp'], '/work/here')).toEqual({ kind: 'mcp', workspace: '/work/here' });
		expect(parseCliArgs(['mcp', '--workspace', 'ws', '--config', 'team.yaml'], '/work/here')).toEqual({
			kind: 'mcp',
			workspace: '/work/here/ws',
			config: '/work/here/team.yaml',
		});
		expect(() => parseCliArgs(['mcp', '--json'], '/w')).toThrow(/--json is not an option of mcp/);
		expect(() => parseCliArgs(['mcp', 'question'], '/w')).toThrow(/mcp takes no arguments/);
	});
});

describe('--no-instructions', () => {
	it('is an option of run, chat and mcp only', () => {
		expect(run('--no-instructions', 'q')).toMatchObject({ question: 'q', noInstructions: true });
		expect(run('q').noInstructions).toBeUndefined();
		expect(parseCliArgs(['chat', '--no-instructions'], '/w')).toMatchObject({
			kind: 'chat',
			noInstructions: true,
		});
		expect(parseCliArgs(['mcp', '--no-instructions'], '/w')).toMatchObject({
			kind: 'mcp',
			noInstructions: true,
		});
		for (const command of [['trust'], ['runs'], ['revert', 'r'], ['serve']]) {
			expect(() => parseCliArgs([...command, '--no-instructions'], '/w'), command[0]).toThrow(
				/--no-instructions is not an option of/,
			);
		}
	});
});
