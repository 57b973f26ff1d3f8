import * as vscode from 'vscode';
import { changeScheme } from './changeUri.js';

/** The most text a save of the proposed side may hold (the user's own typing; a paste of more is refused). */
export const maxProposalBytes = 4 * 1024 * 1024;

/** One change review's documents: the text of each version it knows, and where a proposed side's save goes. */
export interface ChangeSource {
	/** The text of one version of one file; undefined for a run or file this source does not know. */
	text(uri: vscode.Uri): string | undefined;
	/** Whether a save of this document is taken (the proposed side of a file pending in this source). */
	writable(uri: vscode.Uri): boolean;
	write(uri: vscode.Uri, text: string): void;
}

export interface AttachedSource extends vscode.Disposable {
	/** A document's text changed: open documents of it reload. */
	changed(uri: vscode.Uri): void;
}

/**
 * The one file system provider of the change scheme in this extension host (VS Code takes one per
 * scheme), serving every change review attached to it: a window has one, a test may add its own.
 * A document is served by the source that has its file pending (the live selection and edits),
 * else by the one attached last. Every version is read-only but the proposed side of a pending
 * file; its save goes to its source (memory), never to a workspace file.
 */
class ChangeFileSystem implements vscode.FileSystemProvider {
	private readonly _sources: ChangeSource[] = [];
	private readonly _onDidChangeFile = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
	readonly onDidChangeFile = this._onDidChangeFile.event;
	/** Bumped per document whenever its text changes: VS Code reloads a document whose mtime moved. */
	private readonly _generation = new Map<string, number>();
	private readonly _started = Date.now();
	private _registration: vscode.Disposable | undefined;

	attach(source: ChangeSource): AttachedSource {
		this._sources.unshift(source);
		this._registration ??= vscode.workspace.registerFileSystemProvider(changeScheme, this, {
			isCaseSensitive: true,
		});
		return {
			changed: (uri) => this._changed(uri),
			dispose: () => {
				const at = this._sources.indexOf(source);
				if (at >= 0) this._sources.splice(at, 1);
				if (this._sources.length > 0) return;
				this._registration?.dispose();
				this._registration = undefined;
			},
		};
	}

	private _changed(uri: vscode.Uri): void {
		this._generation.set(uri.toString(), (this._generation.get(uri.toString()) ?? 0) + 1);
		this._onDidChangeFile.fire([{ type: vscode.FileChangeType.Changed, uri }]);
	}

	stat(uri: vscode.Uri): vscode.FileStat {
		const { text, source } = this._read(uri);
		return {
			type: vscode.FileType.File,
			ctime: this._started,
			mtime: this._started + (this._generation.get(uri.toString()) ?? 0),
			size: Buffer.byteLength(text, 'utf8'),
			...(source.writable(uri) ? {} : { permissions: vscode.FilePermission.Readonly }),
		};
	}

	readFile(uri: vscode.Uri): Uint8Array {
		return Buffer.from(this._read(uri).text, 'utf8');
	}

	writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): void {
		const source = this._sources.find((candidate) => candidate.writable(uri));
		if (!source || !options.overwrite) throw vscode.FileSystemError.NoPermissions(uri);
		if (content.byteLength > maxProposalBytes) {
			throw vscode.FileSystemError.NoPermissions(
				vscode.l10n.t(
					'MassGen: an edit of the proposal may hold at most {0} MB.',
					maxProposalBytes / 1024 / 1024,
				),
			);
		}
		source.write(uri, Buffer.from(content).toString('utf8'));
	}

	watch(): vscode.Disposable {
		// Every change is reported as it happens (`changed`): nothing to set up per watch.
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

	private _read(uri: vscode.Uri): { text: string; source: ChangeSource } {
		let found: { text: string; source: ChangeSource } | undefined;
		for (const source of this._sources) {
			const text = source.text(uri);
			if (text === undefined) continue;
			if (source.writable(uri)) return { text, source };
			found ??= { text, source };
		}
		if (!found) throw vscode.FileSystemError.FileNotFound(uri);
		return found;
	}
}

/** One instance per extension host, also across bundles (the extension's and a test's). */
const shared = Symbol.for('massgen.changeFileSystem');

/** Attaches a change review's documents to the change scheme's file system (registered on first use). */
export function attachChangeSource(source: ChangeSource): AttachedSource {
	const global = globalThis as { [shared]?: ChangeFileSystem };
	global[shared] ??= new ChangeFileSystem();
	return global[shared].attach(source);
}
