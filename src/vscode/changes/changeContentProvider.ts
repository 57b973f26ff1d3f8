import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle.js';
import { attachChangeSource, type ChangeSource } from './changeFileSystem.js';
import { changeUri, parseChangeUri } from './changeUri.js';
import type { PendingChangeSet } from './pendingChangeSet.js';

/** How many runs' change sets stay readable (so diff tabs of earlier runs still show their text). */
const keptRuns = 5;

/** Where a save of a proposed document goes: never the workspace, only the run's pending set. */
export interface ProposalWrites {
	/** Whether the proposed version of the file may be edited (the file is pending in its run's set). */
	canWrite(runId: string, path: string): boolean;
	/** The user saved the proposed side: `text` becomes the file's proposal. */
	write(runId: string, path: string, text: string): void;
}

/**
 * Serves every version of a change set as a document (docs/changes.md): the base the agents read,
 * the winner's final text, the proposed text (base + selected hunks, or the user's own text once
 * they saved the proposed side) and each answer's overlay version. The URI only names run, version
 * and path. Served through the change scheme's file system (`changeFileSystem.ts`), not a content
 * provider, so the proposed side of a pending file can be typed in and saved (VS Code's chat
 * editing does the same with its modified side); every other version is read-only. A save never
 * reaches the disk: it goes to `ProposalWrites`.
 */
export class ChangeContentProvider extends Disposable implements ChangeSource {
	private readonly _sets: PendingChangeSet[] = [];
	private readonly _attached = this._register(attachChangeSource(this));

	constructor(private readonly _writes: ProposalWrites) {
		super();
	}

	add(set: PendingChangeSet): void {
		const known = this._sets.findIndex((other) => other.runId === set.runId);
		if (known >= 0) this._sets.splice(known, 1);
		this._sets.unshift(set);
		this._sets.splice(keptRuns);
	}

	/** A run's change set this provider still serves. */
	set(runId: string): PendingChangeSet | undefined {
		return this._sets.find((candidate) => candidate.runId === runId);
	}

	/** The proposed text of a file changed (its selection, the user's text): open documents reload. */
	proposedChanged(runId: string, path: string): void {
		this._attached.changed(changeUri(runId, 'proposed', path));
	}

	text(uri: vscode.Uri): string | undefined {
		const parsed = parseChangeUri(uri);
		const set = parsed && this.set(parsed.runId);
		const file = parsed && set?.teamFile(parsed.path);
		if (!parsed || !set || !file) return undefined;
		switch (parsed.version) {
			case 'base':
				return file.base;
			case 'final':
				return file.final ?? '';
			case 'proposed':
				return set.proposedText(parsed.path);
			default: {
				const answer = set.answers.find((candidate) => candidate.label === parsed.version);
				const edit = answer?.changes.find((change) => change.path === parsed.path);
				if (!answer) return undefined;
				return edit === undefined ? file.base : (edit.content ?? '');
			}
		}
	}

	writable(uri: vscode.Uri): boolean {
		const parsed = parseChangeUri(uri);
		return parsed?.version === 'proposed' && this._writes.canWrite(parsed.runId, parsed.path);
	}

	write(uri: vscode.Uri, text: string): void {
		const parsed = parseChangeUri(uri);
		if (!parsed || !this.writable(uri)) throw vscode.FileSystemError.NoPermissions(uri);
		this._writes.write(parsed.runId, parsed.path, text);
	}
}
