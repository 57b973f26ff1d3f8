import { describe, expect, it } from 'vitest';
import { chooseRun, runArgOf } from '../../../src/vscode/changes/runChoice';

const a = '20261203-050000-aaaa';
const b = '20261203-051000-bbbb';
const c = '20261203-052000-cccc';

describe('which pending run a change command is for', () => {
	it('the run its argument names, even when another run is active or several wait', () => {
		expect(chooseRun(b, a, [a, b])).toEqual({ runId: b });
		expect(chooseRun(a, undefined, [a])).toEqual({ runId: a });
	});

	it('an argument naming a run with nothing pending does nothing: it never falls through to another run', () => {
		expect(chooseRun(c, a, [a, b])).toEqual({ gone: c });
		expect(chooseRun(c, undefined, [a])).toEqual({ gone: c });
	});

	it("without an argument: the active diff's or multi-file view's run", () => {
		expect(chooseRun(undefined, b, [a, b])).toEqual({ runId: b });
	});

	it('an active editor of a run no longer pending says nothing: the only pending run, else the user picks', () => {
		expect(chooseRun(undefined, c, [a])).toEqual({ runId: a });
		expect(chooseRun(undefined, c, [a, b])).toEqual({ ask: [a, b] });
	});

	it('several runs and nothing says which: ask, in the order they finished, never silently the latest', () => {
		expect(chooseRun(undefined, undefined, [b, a])).toEqual({ ask: [b, a] });
	});

	it('nothing pending', () => {
		expect(chooseRun(undefined, undefined, [])).toEqual({ none: true });
		expect(chooseRun(undefined, a, [])).toEqual({ none: true });
	});
});

describe('the run a command argument names', () => {
	it("a notification's link and the chat's { runId }", () => {
		expect(runArgOf({ runId: a, notice: 3 })).toBe(a);
		expect(runArgOf({ runId: b })).toBe(b);
	});

	it('anything else names no run', () => {
		for (const arg of [undefined, null, 'src/a.ts', 42, { runId: 7 }, { path: 'x' }, [{ runId: a }]]) {
			expect(runArgOf(arg)).toBeUndefined();
		}
	});
});
