import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle.js';
import { changeUri, parseChangeUri } from './changeUri.js';
import type { PendingChangeSet } from './pendingChangeSet.js';

/** How many runs' change sets stay readable (so diff tabs of earlier runs still show their text). */
const keptRuns = 5;

/**
 * Serves every version of a change set as a read-only virtual document (docs/changes.md): the base the
 * agents read, the winner's final text, the proposed text (base + selected hunks) and each
 * answer's overlay version. The URI only names run, version and path.
 */
export class ChangeContentProvider extends Disposable implements vscode.TextDocumentContentProvider {
	private readonly _sets: PendingChangeSet[] = [];
	private readonly _onDidChange = this._register(new vscode.EventEmitter<vscode.Uri>());
	readonly onDidChange = this._onDidChange.event;

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

	/** The proposed text of a file changed (its selection): refresh open diffs. */
	proposedChanged(runId: string, path: string): void {
		this._onDidChange.fire(changeUri(runId, 'proposed', path));
	}

	/** Undefined for a run this provider does not know, so another provider of the scheme may answer. */
	provideTextDocumentContent(uri: vscode.Uri): string | undefined {
		const parsed = parseChangeUri(uri);
		const set = parsed && this.set(parsed.runId);
		const file = parsed && set?.anyFile(parsed.path);
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
}
