import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle.js';
import { changeUri, parseChangeUri } from './changeUri.js';
import type { PendingChangeSet } from './pendingChangeSet.js';

/** How many runs' change sets stay readable (so diff tabs of earlier runs still show their text). */
const keptRuns = 5;

/** The most text a save of the proposed side may hold (the user's own typing; a paste of more is refused). */
export const maxProposalBytes = 4 * 1024 * 1024;

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
 * and path. A file system provider, not a content provider, so the proposed side of a pending
 * file can be typed in and saved (VS Code's chat editing does the same with its modified side);
 * every other version is read-only. A save never reaches the disk: it goes to `ProposalWrites`.
 */
export class ChangeContentProvider extends Disposable implements vscode.FileSystemProvider {
	private readonly _sets: PendingChangeSet[] = [];
	private readonly _onDidChangeFile = this._register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
	readonly onDidChangeFile = this._onDidChangeFile.event;
	/** Bumped per document whenever its text changes: VS Code reloads a document whose mtime moved. */
	private readonly _generation = new Map<string, number>();
	private readonly _started = Date.now();

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
		const uri = changeUri(runId, 'proposed', path);
		this._generation.set(uri.toString(), (this._generation.get(uri.toString()) ?? 0) + 1);
		this._onDidChangeFile.fire([{ type: vscode.FileChangeType.Changed, uri }]);
	}

	/** The text of one version of one file; undefined for a run or file this provider does not know. */
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

	stat(uri: vscode.Uri): vscode.FileStat {
		const text = this._read(uri);
		return {
			type: vscode.FileType.File,
			ctime: this._started,
			mtime: this._started + (this._generation.get(uri.toString()) ?? 0),
			size: Buffer.byteLength(text, 'utf8'),
			...(this._writable(uri) ? {} : { permissions: vscode.FilePermission.Readonly }),
		};
	}

	readFile(uri: vscode.Uri): Uint8Array {
		return Buffer.from(this._read(uri), 'utf8');
	}

	/** Only the proposed side of a pending file takes a save, and it goes to the pending set alone. */
	writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): void {
		const parsed = parseChangeUri(uri);
		if (!parsed || !this._writable(uri) || !options.overwrite) {
			throw vscode.FileSystemError.NoPermissions(uri);
		}
		if (content.byteLength > maxProposalBytes) {
			throw vscode.FileSystemError.NoPermissions(
				vscode.l10n.t(
					'MassGen: an edit of the proposal may hold at most {0} MB.',
					maxProposalBytes / 1024 / 1024,
				),
			);
		}
		this._writes.write(parsed.runId, parsed.path, Buffer.from(content).toString('utf8'));
	}

	watch(): vscode.Disposable {
		// Changes are reported for every document (`proposedChanged`); nothing to set up per watch.
		return new vscode.Disposable(() => undefined);
	}

	readDirectory(uri: vscode.Uri): never {
		throw vscode.FileSystemError.FileNotADirectory(uri);
	}

	createDirectory(uri: vscode.Uri): never {
		throw vscode.FileSystemError.NoPermissions(uri);
	}

	delete(uri: vscode.Uri): never {
		throw vscode.FileSystemError.NoPermissions(uri);
	}

	rename(uri: vscode.Uri): never {
		throw vscode.FileSystemError.NoPermissions(uri);
	}

	private _read(uri: vscode.Uri): string {
		const text = this.text(uri);
		if (text === undefined) throw vscode.FileSystemError.FileNotFound(uri);
		return text;
	}

	private _writable(uri: vscode.Uri): boolean {
		const parsed = parseChangeUri(uri);
		return parsed?.version === 'proposed' && this._writes.canWrite(parsed.runId, parsed.path);
	}
}
