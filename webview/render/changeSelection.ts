/**
 * The hunk selection the panel shows: the host's selection (from its latest `change-set`) with
 * the user's toggles that the host has not confirmed yet laid on top, so a checkbox never flips
 * back while a `select-hunks` is in flight. Also builds the `accept` message from exactly what
 * the user sees. Pure logic, no DOM.
 */
import type { ChangeFileView, ChangeSetView } from '../../src/protocol/changeSetView.js';
import { isDefaultSelection, toggleHunk } from '../../src/contract/hunkRules.js';
import type { HunkSelection, WebviewMessage } from '../../src/protocol/messages.js';

/** A toggle sent to the host and not yet reflected in its change set. */
interface Intent {
	readonly path: string;
	readonly id: string;
	readonly on: boolean;
}

export interface FileSelection {
	/** Selected ids (winner hunks and alternatives). */
	readonly ids: ReadonlySet<string>;
	readonly added: number;
	readonly removed: number;
	/** Toggles of this file not yet confirmed by the host. */
	readonly pending: boolean;
}

/** The host's toggle rule, on the panel's view of a file. */
function toggle(file: ChangeFileView, selected: ReadonlySet<string>, id: string, on: boolean): Set<string> {
	return toggleHunk([...file.hunks, ...file.alternatives], selected, id, on);
}

function hostSelection(file: ChangeFileView): Set<string> {
	const ids = new Set<string>();
	for (const hunk of file.hunks) if (hunk.selected) ids.add(hunk.id);
	for (const hunk of file.alternatives) if (hunk.selected) ids.add(hunk.id);
	return ids;
}

export class ChangeSelection {
	private _set: ChangeSetView | null = null;
	private _intents: Intent[] = [];
	private readonly _cache = new Map<string, FileSelection>();

	get changeSet(): ChangeSetView | null {
		return this._set;
	}

	/** A new change set from the host: toggles it now reflects are done. */
	setChangeSet(set: ChangeSetView | null): void {
		if (set?.runId !== this._set?.runId) this._intents = [];
		this._set = set;
		this._cache.clear();
		if (!set) return;
		const files = new Map(set.files.map((file) => [file.path, file]));
		this._intents = this._intents.filter((intent) => {
			const file = files.get(intent.path);
			if (!file) return false;
			const hunk = [...file.hunks, ...file.alternatives].find((candidate) => candidate.id === intent.id);
			return hunk !== undefined && hunk.selected !== intent.on;
		});
	}

	/** Records a toggle the panel posts to the host (the latest one per hunk wins). */
	intend(path: string, ids: readonly string[], on: boolean): void {
		const touched = new Set(ids);
		this._intents = this._intents.filter((intent) => intent.path !== path || !touched.has(intent.id));
		for (const id of ids) this._intents.push({ path, id, on });
		this._cache.delete(path);
	}

	file(file: ChangeFileView): FileSelection {
		const cached = this._cache.get(file.path);
		if (cached) return cached;
		const intents = this._intents.filter((intent) => intent.path === file.path);
		let ids = hostSelection(file);
		for (const intent of intents) ids = toggle(file, ids, intent.id, intent.on);
		const chosen = [...file.hunks, ...file.alternatives].filter((hunk) => ids.has(hunk.id));
		const selection: FileSelection =
			intents.length === 0
				? { ids, added: file.added, removed: file.removed, pending: false }
				: {
						ids,
						added: chosen.reduce((sum, hunk) => sum + hunk.newLines, 0),
						removed: chosen.reduce((sum, hunk) => sum + hunk.oldLines, 0),
						pending: true,
					};
		this._cache.set(file.path, selection);
		return selection;
	}

	/**
	 * `accept` for what the panel shows: just the run id when every file has its default selection
	 * and the host agrees, otherwise the ids of every file (files not named would fall back to the
	 * host's selection, which may lag behind the panel's).
	 */
	acceptMessage(): WebviewMessage | undefined {
		const set = this._set;
		if (!set) return undefined;
		const selections = set.files.map((file) => ({ file, selection: this.file(file) }));
		const plain =
			this._intents.length === 0 &&
			selections.every(({ file, selection }) => isDefaultSelection(file.hunks, selection.ids));
		if (plain || selections.length === 0) return { type: 'accept', runId: set.runId };
		const hunks: HunkSelection[] = selections.map(({ file, selection }) => ({
			path: file.path,
			ids: [...file.hunks, ...file.alternatives]
				.filter((hunk) => selection.ids.has(hunk.id))
				.map((hunk) => hunk.id),
		}));
		return { type: 'accept', runId: set.runId, hunks };
	}

	/** Selected and total change counts over all files (winner hunks plus chosen alternatives). */
	totals(): { selected: number; winnerSelected: number; hunks: number; added: number; removed: number } {
		let selected = 0;
		let winnerSelected = 0;
		let hunks = 0;
		let added = 0;
		let removed = 0;
		for (const file of this._set?.files ?? []) {
			const selection = this.file(file);
			hunks += file.hunks.length;
			selected += selection.ids.size;
			added += selection.added;
			removed += selection.removed;
			for (const hunk of file.hunks) if (selection.ids.has(hunk.id)) winnerSelected += 1;
		}
		return { selected, winnerSelected, hunks, added, removed };
	}
}
