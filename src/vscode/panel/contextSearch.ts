/**
 * What the ask box's `#` completion and drops offer (docs/context.md), built on the host: the fixed items
 * (`#selection`, `#file`, `#changes`, `#problems`, from the editor the user was in) and the
 * workspace's files and folders (`WorkspaceFileList`, read once per panel and refreshed when files
 * are created or deleted). The requests are built here, never taken from the webview's words; the
 * core still checks every path when the run starts.
 */
import { posix } from 'node:path';
import * as vscode from 'vscode';
import { onDidChangeSettings, settings } from '../common/settings.js';
import { secretPaths } from '../../core/workspace/secretPaths.js';
import type { AttachmentChip } from '../../protocol/attachmentChip.js';
import { editorAttachments, workspacePath } from '../context/editorAttachments.js';
import { editorStateOf } from '../context/editorState.js';
import { toDiagnostic } from '../context/fixRequest.js';
import { ripgrepInEditor } from '../../core/util/ripgrepBinary.js';
import { listFilesWithRipgrep, WorkspaceFileList } from '../context/workspaceFileList.js';
import { Disposable } from '../common/lifecycle.js';
import { readSecretPathsSetting } from '../run/secretPathsSetting.js';

/** Suggestions one `#` query returns at most. */
export const maxContextResults = 30;

/**
 * A file or folder chip: the core tells a file, a folder and an image apart by what is on disk.
 * The id only needs to be unique in one answer: the ask box gives each chip its own when it adds it.
 */
export function pathChip(path: string, folder: boolean, id: string): AttachmentChip {
	const name = posix.basename(path);
	return {
		id,
		label: folder ? `${name}/` : name,
		detail: folder ? vscode.l10n.t('folder {0}/', path) : path,
		request: { kind: 'path', path },
	};
}

/**
 * The editor `#file` and `#selection` mean: the active one, or (the panel has the focus, so no
 * text editor is active) the first visible one.
 */
function editorOfUser(): vscode.TextEditor | undefined {
	return (
		vscode.window.activeTextEditor ??
		vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'file')
	);
}

/** The fixed items there is something for now, with the keyword each answers to. */
function fixedChips(folder: vscode.WorkspaceFolder): { keyword: string; chip: AttachmentChip }[] {
	const items: { keyword: string; chip: AttachmentChip }[] = [];
	const editor = editorOfUser();
	const attached = editor ? editorAttachments(folder.uri.fsPath, editorStateOf(editor)) : undefined;
	const request = attached?.requests[0];
	if (request?.kind === 'file') {
		if (request.range) {
			items.push({
				keyword: 'selection',
				chip: { id: 'fixed-selection', label: 'selection', detail: attached!.label!, request },
			});
		}
		items.push({
			keyword: 'file',
			chip: {
				id: 'fixed-file',
				label: posix.basename(request.path),
				detail: vscode.l10n.t('active file {0}', request.path),
				request: { kind: 'file', path: request.path },
			},
		});
	}
	// The diff runs git on the repository: a trusted workspace only (gitChanges.ts says why).
	if (vscode.workspace.isTrusted) {
		items.push({
			keyword: 'changes',
			chip: {
				id: 'fixed-changes',
				label: 'changes',
				detail: vscode.l10n.t('working-tree diff'),
				request: { kind: 'diff', source: 'working-tree' },
			},
		});
	}
	const path = editor && workspacePath(folder.uri.fsPath, editor.document.uri.fsPath);
	const diagnostics = editor && path ? vscode.languages.getDiagnostics(editor.document.uri) : [];
	if (path && diagnostics.length > 0) {
		const problems = diagnostics.map((d) =>
			toDiagnostic({
				startLine: d.range.start.line,
				startCharacter: d.range.start.character,
				endLine: d.range.end.line,
				severity: d.severity,
				message: d.message,
				...(d.source ? { source: d.source } : {}),
				...(d.code !== undefined ? { code: typeof d.code === 'object' ? d.code.value : d.code } : {}),
			}),
		);
		items.push({
			keyword: 'problems',
			chip: {
				id: 'fixed-problems',
				label: 'problems',
				detail: vscode.l10n.t('{0} in {1}', diagnostics.length, path),
				request: { kind: 'diagnostics', path, items: problems },
			},
		});
	}
	return items;
}

/** Per panel session: the file list, its watcher, and the answers to `#` queries. */
export class ContextSearch extends Disposable {
	private readonly _files: WorkspaceFileList;

	constructor(
		/** The folder whose files `#` offers (the panel makes a new session when it changes). */
		readonly folder: vscode.WorkspaceFolder,
		log: vscode.LogOutputChannel,
	) {
		super();
		const binary = ripgrepInEditor(vscode.env.appRoot);
		if (!binary) log.warn('ask box: VS Code ships no ripgrep here; # completion offers the fixed items only');
		this._files = new WorkspaceFileList(
			() => (binary ? listFilesWithRipgrep(binary, folder.uri.fsPath) : Promise.resolve([])),
			() => secretPaths(readSecretPathsSetting(folder.uri).patterns),
		);
		const watcher = this._register(
			vscode.workspace.createFileSystemWatcher(
				new vscode.RelativePattern(folder, '**/*'),
				false,
				true,
				false,
			),
		);
		const invalidate = () => this._files.invalidate();
		this._register(watcher.onDidCreate(invalidate));
		this._register(watcher.onDidDelete(invalidate));
		this._register(onDidChangeSettings(invalidate, [settings.secretPaths.key]));
	}

	/** Fixed items whose keyword starts with the query first, then the best-matching files and folders. */
	async search(query: string): Promise<AttachmentChip[]> {
		const needle = query.trim().toLowerCase();
		const fixed = fixedChips(this.folder)
			.filter((item) => item.keyword.startsWith(needle))
			.map((item) => item.chip);
		const entries = await this._files.search(query, maxContextResults - fixed.length);
		return [...fixed, ...entries.map((entry, i) => pathChip(entry.path, entry.folder, `file-${i}`))];
	}

	/**
	 * Chips for URIs dropped from the Explorer: those in the workspace folder and not secret; the
	 * notice names the others. Folders are told apart by the core (a `path` chip).
	 */
	async fromUris(uris: readonly string[]): Promise<{ chips: AttachmentChip[]; notice?: string }> {
		const secret = secretPaths(readSecretPathsSetting(this.folder.uri).patterns);
		const chips: AttachmentChip[] = [];
		const left: string[] = [];
		for (const raw of uris) {
			let uri: vscode.Uri;
			try {
				uri = vscode.Uri.parse(raw, true);
			} catch {
				left.push(vscode.l10n.t('{0} (not a URI)', raw.slice(0, 80)));
				continue;
			}
			const rel =
				uri.scheme === 'file' || uri.scheme === 'vscode-remote' ? relativeTo(this.folder, uri) : undefined;
			if (rel === undefined) {
				left.push(
					vscode.l10n.t('{0} (outside the workspace folder)', posix.basename(uri.path) || raw.slice(0, 80)),
				);
				continue;
			}
			const hit = secret.match(rel);
			if (hit !== null) {
				left.push(vscode.l10n.t('{0} (a secret path: {1})', rel, hit));
				continue;
			}
			const stat = await vscode.workspace.fs.stat(vscode.Uri.joinPath(this.folder.uri, rel)).then(
				(s) => s,
				() => undefined,
			);
			if (!stat) {
				left.push(vscode.l10n.t('{0} (not found)', rel));
				continue;
			}
			chips.push(pathChip(rel, (stat.type & vscode.FileType.Directory) !== 0, `drop-${chips.length}`));
		}
		return {
			chips,
			...(left.length ? { notice: vscode.l10n.t('Not attached: {0}.', left.join('; ')) } : {}),
		};
	}
}

/** The workspace-relative path of `uri` (its path compared with the folder's), else undefined. */
function relativeTo(folder: vscode.WorkspaceFolder, uri: vscode.Uri): string | undefined {
	const base = folder.uri.path.replace(/\/+$/, '');
	const path = posix.normalize(uri.path);
	if (!path.startsWith(`${base}/`)) return undefined;
	const rel = path.slice(base.length + 1).replace(/\/+$/, '');
	return rel === '' || rel.split('/').includes('..') ? undefined : rel;
}
