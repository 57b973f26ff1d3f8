import { describe, expect, it } from 'vitest';
import { massGenConfigSchema } from '../../../src/core/config/schema.js';
import { toRunToolSettings } from '../../../src/core/config/toSettings.js';
import { maxCommandChars, PermissionEngine } from '../../../src/core/permissions/permissionEngine.js';

const evaluate = (target: string) =>
	new PermissionEngine().evaluate({
		agentId: 'a1',
		tool: 'run_command',
		action: 'command',
		target,
		args: { command: target },
		cwd: '.',
	});

describe('command length floor', () => {
	// Each of these took 1-2 s at 30 KB and grows with the square of the length (the shell analysis);
	// their time bounds are in test/bench/timeBounds.bench.ts.
	it.each([
		['a|', 'pipes'],
		['.', 'dots'],
		['a', 'letters'],
		[':', 'colons'],
	])('a 100 KB command of %s (%s) is refused at once, unanalysed', (unit) => {
		const verdict = evaluate(unit.repeat(Math.ceil(100_000 / unit.length)));
		expect(verdict).toMatchObject({ decision: 'deny', via: 'hardline' });
		expect(verdict.reason).toMatch(
			/^refused by the safety floor: the command has 100000 characters \(at most 8000\): write a script/,
		);
	});

	it('a command at the limit is still analysed, in bounded time', () => {
		const verdict = evaluate('a|'.repeat(maxCommandChars / 2));
		expect(verdict.via).not.toBe('hardline');
	});
});

describe('command_line_*_commands regexes', () => {
	it('a catastrophic config regex cannot be made to backtrack by a command (RE2)', () => {
		const config = massGenConfigSchema.parse({
			agent: {
				id: 'a1',
				backend: {
					type: 'scripted',
					script: { coordination: [{ answer: 'x' }] },
					command_line_blocked_commands: ['(a+)+$'],
				},
			},
		});
		const filters = toRunToolSettings(config, { configFromWorkspace: false }).agents.get(
			'a1',
		)!.commandFilters!;
		const engine = new PermissionEngine({ commandFilters: new Map([['a1', filters]]) });
		// With RegExp, `^(?:(a+)+$)` on this takes minutes (RE2's bound: test/bench/timeBounds.bench.ts).
		const target = `${'a'.repeat(40)}!`;
		const verdict = engine.evaluate({
			agentId: 'a1',
			tool: 'run_command',
			action: 'command',
			target,
			args: { command: target },
			cwd: '.',
		});
		expect(verdict.decision).not.toBe('deny');
		expect(filters.blocked[0]!.test('aaa')).toBe(true);
	});
});
