import { describe, expect, it } from 'vitest';
import { planQuestion } from '../../../../src/core/plans/planPrompt';
import { planArgument, planRunRequest } from '../../../../src/vscode/plans/planRunRequest';

describe('planRunRequest: the run Plan with Team, the Plan toggle and /plan start', () => {
	it('is a plan run (the controller makes it read-only) asked in the plan format, recorded as the planning run of its task and depth', () => {
		const request = planRunRequest({ task: 'Add a --verbose flag', depth: 'deep' });
		expect(request).toEqual({
			question: planQuestion('Add a --verbose flag', 'deep'),
			kind: 'plan',
			plan: { kind: 'planning', planId: '', depth: 'deep', task: 'Add a --verbose flag' },
		});
	});

	it('carries the attachments when there are any', () => {
		const attachments = [{ kind: 'path' as const, path: 'src/cli.ts' }];
		expect(planRunRequest({ task: 't', depth: 'medium', attachments }).attachments).toEqual(attachments);
		expect('attachments' in planRunRequest({ task: 't', depth: 'medium', attachments: [] })).toBe(false);
	});
});

describe('planArgument: what the command was given', () => {
	it('a string is the task; an object gives a task and a known depth', () => {
		expect(planArgument('  Add a flag ')).toEqual({ task: 'Add a flag' });
		expect(planArgument({ task: 'Add a flag', depth: 'shallow' })).toEqual({
			task: 'Add a flag',
			depth: 'shallow',
		});
		expect(planArgument({ depth: 'dynamic' })).toEqual({ depth: 'dynamic' });
	});

	it('blank, unknown or mistyped values are left for the user to give', () => {
		expect(planArgument('   ')).toEqual({});
		expect(planArgument(undefined)).toEqual({});
		expect(planArgument(42)).toEqual({});
		expect(planArgument({ task: 7, depth: 'bottomless' })).toEqual({});
		expect(planArgument({ task: ' ', depth: 'DEEP' })).toEqual({});
	});
});
