import { describe, expect, it } from 'vitest';
import { formatEventLine } from '../../../src/cli/display/formatEventLine.js';
import { reduceRun } from '../../../src/protocol/reduceRun.js';
import { initialRunState } from '../../../src/protocol/runState.js';
import { stamp } from '../protocol/eventFixtures.js';

describe('the command-sandbox event', () => {
	it('puts the mode into the run state the panel header shows; the CLI display prints the sandboxed modes (off and unsandboxed are warnings of their own)', () => {
		const events = stamp([
			{ type: 'run-start', question: 'q', workspace: '/w', agents: [] },
			{
				type: 'command-sandbox',
				mode: 'none',
				network: false,
				notice: 'run_command: commands run WITHOUT a sandbox',
			},
		]);
		const state = events.reduce(reduceRun, initialRunState());
		expect(state.commandSandbox).toEqual({
			mode: 'none',
			network: false,
			notice: 'run_command: commands run WITHOUT a sandbox',
		});
		expect(reduceRun(initialRunState(), events[0]!).commandSandbox).toBeUndefined();
		expect(formatEventLine(events[1]!, state)).toBeNull();
		const [walled] = stamp([
			{
				type: 'command-sandbox',
				mode: 'bubblewrap',
				network: false,
				notice: 'run_command: commands run in a bubblewrap sandbox',
			},
		]);
		expect(formatEventLine(walled!, state)).toBe('run_command: commands run in a bubblewrap sandbox');
	});
});
