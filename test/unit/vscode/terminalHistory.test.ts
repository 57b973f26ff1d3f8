import { describe, expect, it } from 'vitest';
import {
	outputChars,
	TerminalHistory,
	type ShellExecution,
} from '../../../src/vscode/context/terminalHistory.js';

/** An execution whose output stream yields `chunks`, then ends (as VS Code's does when the command ends). */
function execution(commandLine: string, chunks: readonly string[]): ShellExecution {
	return {
		commandLine: { value: commandLine },
		async *read() {
			for (const chunk of chunks) yield chunk;
		},
	};
}

describe('TerminalHistory', () => {
	it('keeps each finished command with its output (escape sequences and CRs removed), newest first, per terminal', async () => {
		const history = new TerminalHistory();
		const first = {};
		const second = {};
		const test = execution('npm test', [
			'\u001b[31mFAIL\u001b[0m a.test.ts\r\n',
			'  expected 2\u001b]633;P;x\u0007, got 3\r\n',
		]);
		history.started(test);
		await history.ended(first, 'bash', test, 1);
		const ls = execution('ls', ['a.ts\r\n']);
		history.started(ls);
		await history.ended(first, 'bash', ls, 0);
		expect(history.executions(first)).toEqual([
			{ terminal: 'bash', commandLine: 'ls', output: 'a.ts', exitCode: 0 },
			{
				terminal: 'bash',
				commandLine: 'npm test',
				output: 'FAIL a.test.ts\n  expected 2, got 3',
				exitCode: 1,
			},
		]);
		expect(history.executions(second)).toEqual([]);
		history.closed(first);
		expect(history.executions(first)).toEqual([]);
	});

	it('ignores an execution it did not see start, keeps the last five, and the end of a long output', async () => {
		const history = new TerminalHistory();
		const terminal = {};
		await history.ended(terminal, 'zsh', execution('unseen', ['x']), 0);
		expect(history.executions(terminal)).toEqual([]);
		for (let i = 0; i < 7; i++) {
			const run = execution(`echo ${i}`, [`${i}\n`]);
			history.started(run);
			await history.ended(terminal, 'zsh', run, 0);
		}
		expect(history.executions(terminal).map((e) => e.commandLine)).toEqual([
			'echo 6',
			'echo 5',
			'echo 4',
			'echo 3',
			'echo 2',
		]);
		const long = 'x'.repeat(3 * outputChars) + 'THE END';
		const big = execution('build', [long.slice(0, outputChars), long.slice(outputChars)]);
		history.started(big);
		await history.ended(terminal, 'zsh', big, 2);
		const [latest] = history.executions(terminal);
		expect(latest!.output).toHaveLength(outputChars);
		expect(latest!.output.endsWith('THE END')).toBe(true);
		expect(latest!.cut).toBe(
			`[the first ${long.length - outputChars} characters of the output are left out]`,
		);
	});
});
