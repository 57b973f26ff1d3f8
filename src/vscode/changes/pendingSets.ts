import type { PendingChangeSet } from './pendingChangeSet.js';

/**
 * The change sets of this window by run id, in the order their runs finished: those pending (a
 * finished run adds its set; it never replaces another run's), and those no longer pending whose
 * accept is still followed (an Undo of that accept puts its files back into that very set).
 */
export class PendingSets {
	/** Every set held, in the order the runs finished. */
	private readonly _sets = new Map<string, PendingChangeSet>();
	private readonly _pending = new Set<string>();

	/** The run's set while something of it is pending. */
	get(runId: string): PendingChangeSet | undefined {
		return this._pending.has(runId) ? this._sets.get(runId) : undefined;
	}

	/** The run's set, pending or not (an accept of it may still be undone). */
	held(runId: string): PendingChangeSet | undefined {
		return this._sets.get(runId);
	}

	/** The pending sets, in the order their runs finished. */
	list(): PendingChangeSet[] {
		return [...this._sets.values()].filter((set) => this._pending.has(set.runId));
	}

	runIds(): string[] {
		return this.list().map((set) => set.runId);
	}

	get size(): number {
		return this._pending.size;
	}

	/** A finished run's set. */
	add(set: PendingChangeSet): void {
		this._sets.set(set.runId, set);
		this.settle(set);
	}

	/** The set's files changed (decided, or put back by an undo): pending while any file is. */
	settle(set: PendingChangeSet): void {
		if (this._sets.get(set.runId) !== set) return;
		if (set.isEmpty) this._pending.delete(set.runId);
		else this._pending.add(set.runId);
	}

	/** Lets a set go once nothing of it is pending or followed. */
	drop(runId: string): void {
		this._pending.delete(runId);
		this._sets.delete(runId);
	}
}
