import * as vscode from 'vscode';
import type { DiffSource } from '../../core/context/attachment.js';
import type { GitRepo } from '../../core/context/gitRevision.js';
import { rangeSides } from '../../core/context/gitRevision.js';
import { Disposable } from '../common/lifecycle.js';

/**
 * Read-only virtual documents of a reviewed diff's two sides: `massgen-review://<old|new>/<path>?<key>`
 * (the key names the review; no content is in the URI). Used when the diff's new side (the index,
 * a commit) is not the text of the workspace file, so a finding's line numbers would not fit it.
 */
export const reviewScheme = 'massgen-review';

/** Where a finding on one file of a reviewed diff is shown. */
export interface ReviewSide {
	/** The document the thread goes on: the workspace file, or the virtual new side. */
	readonly uri: vscode.Uri;
	/** When the new side is virtual: its diff against the old side, to open. */
	readonly diff?: { readonly left: vscode.Uri; readonly right: vscode.Uri };
}

/** The newest reviews' virtual sides are kept (older ones' documents read as empty). */
const keptReviews = 8;

export class ReviewSides extends Disposable implements vscode.TextDocumentContentProvider {
	private readonly _texts = new Map<string, string>();
	private readonly _keys: string[] = [];

	constructor() {
		super();
		this._register(vscode.workspace.registerTextDocumentContentProvider(reviewScheme, this));
	}

	provideTextDocumentContent(uri: vscode.Uri): string {
		return this._texts.get(uri.toString()) ?? '';
	}

	/**
	 * The side of `path` a finding of review `key` goes on. The working tree's new side is the file
	 * itself; the index's or a commit's is the workspace file when its text is the same (an open
	 * file's unsaved edits included), else a virtual document. Undefined: the file is not on the new
	 * side (deleted) or not in the workspace.
	 */
	async sideOf(
		key: string,
		folder: vscode.Uri,
		source: DiffSource,
		path: string,
		repo: () => Promise<GitRepo>,
	): Promise<ReviewSide | undefined> {
		const file = vscode.Uri.joinPath(folder, ...path.split('/'));
		const workspaceText = await textOf(file);
		if (source === 'working-tree') return workspaceText === undefined ? undefined : { uri: file };
		const git = await repo();
		const [oldRev, newRev] = source === 'staged' ? ['HEAD', ':'] : rangeSides(source);
		const text = await git.fileAt(newRev, path);
		if (text === undefined) return undefined;
		if (text === workspaceText) return { uri: file };
		const left = this._remember(key, 'old', path, (await git.fileAt(oldRev, path)) ?? '');
		const right = this._remember(key, 'new', path, text);
		return { uri: right, diff: { left, right } };
	}

	private _remember(key: string, side: 'old' | 'new', path: string, text: string): vscode.Uri {
		if (!this._keys.includes(key)) {
			this._keys.push(key);
			while (this._keys.length > keptReviews) {
				const dropped = this._keys.shift()!;
				for (const uri of [...this._texts.keys()]) {
					if (vscode.Uri.parse(uri).query === dropped) this._texts.delete(uri);
				}
			}
		}
		const uri = vscode.Uri.from({ scheme: reviewScheme, authority: side, path: `/${path}`, query: key });
		this._texts.set(uri.toString(), text);
		return uri;
	}
}

/** The file's text as the user sees it: an open document's with unsaved edits, else the disk's. */
async function textOf(file: vscode.Uri): Promise<string | undefined> {
	const open = vscode.workspace.textDocuments.find((doc) => doc.uri.toString() === file.toString());
	if (open?.isDirty) return open.getText();
	try {
		return new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
	} catch {
		return undefined;
	}
}
