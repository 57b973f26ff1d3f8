import { describe, expect, it } from 'vitest';
import { maxCommandChars, PermissionEngine } from '../../../src/core/permissions/permissionEngine.js';

const evaluate = (target: string) =>
	new PermissionEngine().evaluate({ agentId: 'a1', tool: 'run_command', action: 'command', target, args: { command: target }, cwd: '.' });

describe('command length floor', () => {
	// Each of these took 1-2 s at 30 KB and grows with the square of the length (the shell analysis).
	it.each([
		['a|', 'pipes'],
		['.', 'dots'],
		['a', 'letters'],
		[':', 'colons'],
	])('a 100 KB command of %s (%s) is refused at once, unanalysed', (unit) => {
		const started = performance.now();
		const verdict = evaluate(unit.repeat(Math.ceil(100_000 / unit.length)));
		expect(performance.now() - started).toBeLessThan(100);
		expect(verdict).toMatchObject({ decision: 'deny', via: 'hardline' });
		expect(verdict.reason).toMatch(/^refused by the safety floor: the command has 100000 characters \(at most 8000\): write a script/);
	});

	it('a command at the limit is still analysed, in bounded time', () => {
		const started = performance.now();
		const verdict = evaluate('a|'.repeat(maxCommandChars / 2));
		expect(performance.now() - started).toBeLessThan(1000);
		expect(verdict.via).not.toBe('hardline');
	});
});
