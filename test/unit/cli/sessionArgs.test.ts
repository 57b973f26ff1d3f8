import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../src/cli/args.js';
import { UsageError } from '../../../src/cli/usageError.js';

const parse = (...argv: string[]) => parseCliArgs(argv, '/work/here');
const runId = '20250101-090000-abcd';

describe('massgen run --continue, runs and show arguments', () => {
	it('takes the word after --continue as the id only when it has the form of a run id', () => {
		expect(parse('run', '--continue', 'why', 'not?')).toMatchObject({
			question: 'why not?',
			continue: { id: undefined },
		});
		expect(parse('run', '--continue', runId, 'and then?')).toMatchObject({
			question: 'and then?',
			continue: { id: runId },
		});
		expect(parse('run', '--continue=my-old-run', 'q')).toMatchObject({ continue: { id: 'my-old-run' } });
		expect(parse('run', 'q')).not.toHaveProperty('continue');
		expect(parse('run', '--', '--continue', 'is a word')).toMatchObject({ question: '--continue is a word' });
	});

	it('refuses --continue twice, without an id after =, or outside run', () => {
		expect(() => parse('run', '--continue', '--continue', 'q')).toThrow(
			new UsageError('give --continue at most once'),
		);
		expect(() => parse('run', '--continue=', 'q')).toThrow('--continue= needs a RUN_ID or SESSION_ID');
		expect(() => parse('runs', '--continue')).toThrow('--continue is an option of run and chat');
	});

	it('parses runs and show with their own options only', () => {
		expect(parse('runs', '--json', '--workspace', '/ws')).toEqual({
			kind: 'runs',
			workspace: '/ws',
			json: true,
		});
		expect(parse('show', runId, '--markdown')).toEqual({
			kind: 'show',
			workspace: '/work/here',
			runId,
			markdown: true,
			session: false,
		});
		expect(parse('show', runId, '--session')).toMatchObject({ session: true, markdown: false });
		expect(() => parse('run', '--session', 'q')).toThrow('--session is an option of show');
		expect(() => parse('show')).toThrow('show takes exactly one RUN_ID (massgen runs lists them)');
		expect(() => parse('runs', 'extra')).toThrow('runs takes no arguments');
		expect(() => parse('show', runId, '--json')).toThrow('--json is not an option of show');
		expect(() => parse('runs', '--attach-diff')).toThrow('--attach-diff is not an option of runs');
		expect(() => parse('run', '--markdown', 'q')).toThrow('--markdown is an option of show');
	});

	it('parses runs --keep and --keep-days (retention first), and nothing else as them', () => {
		expect(parse('runs', '--keep', '0')).toMatchObject({ kind: 'runs', keep: { count: 0 } });
		expect(parse('runs', '--keep-days', '1.5', '--keep', '3')).toMatchObject({
			keep: { count: 3, days: 1.5 },
		});
		expect(parse('runs')).not.toHaveProperty('keep');
		expect(() => parse('runs', '--keep', '2.5')).toThrow("--keep must be a whole number ≥ 0, not '2.5'");
		expect(() => parse('runs', '--keep-days=-1')).toThrow(
			"--keep-days must be a number of days ≥ 0, not '-1'",
		);
		expect(() => parse('run', '--keep', '3', 'q')).toThrow('--keep is an option of runs');
	});

	it('parses chat with the run options that hold for every question, and no question', () => {
		expect(parse('chat', '--config', 't.yaml', '--deny-all', '--continue', runId)).toEqual({
			kind: 'chat',
			config: 't.yaml',
			workspace: '/work/here',
			timeoutSeconds: undefined,
			approvals: 'deny-all',
			continue: { id: runId },
		});
		expect(() => parse('chat', 'why?')).toThrow('chat takes no QUESTION: it asks for one');
		expect(() => parse('chat', '--apply')).toThrow('--apply is not an option of chat');
		expect(() => parse('chat', '--attach', 'a.ts')).toThrow('--attach is not an option of chat');
	});
});
