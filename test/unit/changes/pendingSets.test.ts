import { describe, expect, it } from 'vitest';
import type { PendingChangeSet } from '../../../src/vscode/changes/pendingChangeSet';
import { PendingSets } from '../../../src/vscode/changes/pendingSets';

/** The two members PendingSets reads of a set; the files are what the review decides. */
function set(runId: string, files: string[]) {
	const pending = new Set(files);
	return {
		runId,
		get isEmpty() {
			return pending.size === 0;
		},
		decide: (path: string) => pending.delete(path),
		undo: (path: string) => pending.add(path),
	};
}
const as = (s: ReturnType<typeof set>) => s as unknown as PendingChangeSet;

describe('pending change sets by run', () => {
	it('a finished run adds its set beside the others, in the order the runs finished', () => {
		const sets = new PendingSets();
		const a = set('a', ['x.ts']);
		const b = set('b', ['x.ts', 'y.ts']);
		sets.add(as(a));
		sets.add(as(b));
		expect(sets.runIds()).toEqual(['a', 'b']);
		expect(sets.get('a')).toBe(a);
		expect(sets.get('b')).toBe(b);
		expect(sets.size).toBe(2);
	});

	it("a set whose files are all decided is no longer pending but still held (its accept may be undone); settling it again puts it back in its run's place", () => {
		const sets = new PendingSets();
		const a = set('a', ['x.ts']);
		const b = set('b', ['y.ts']);
		sets.add(as(a));
		sets.add(as(b));
		a.decide('x.ts');
		sets.settle(as(a));
		expect(sets.runIds()).toEqual(['b']);
		expect(sets.get('a')).toBeUndefined();
		expect(sets.held('a')).toBe(a);
		// Undo of a's accept: pending again, ahead of b (a finished first).
		a.undo('x.ts');
		sets.settle(as(a));
		expect(sets.runIds()).toEqual(['a', 'b']);
	});

	it('a dropped set is gone; settling a set the sets no longer hold changes nothing', () => {
		const sets = new PendingSets();
		const a = set('a', ['x.ts']);
		sets.add(as(a));
		sets.drop('a');
		expect(sets.held('a')).toBeUndefined();
		sets.settle(as(a));
		expect(sets.runIds()).toEqual([]);
	});
});
