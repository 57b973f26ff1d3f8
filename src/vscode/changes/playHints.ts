import { isAbsolute, relative } from 'node:path';
import * as vscode from 'vscode';
import type { FinishedRun } from '../run/runTypes.js';
import type { PlayHints } from './fileInPlay.js';

/** What says which file a run was about: the active editor, the reviewed file, attachments, the question. */
export function playHints(run: FinishedRun): PlayHints {
	const root = run.folder.uri;
	const relativeTo = (uri: vscode.Uri | undefined) => {
		if (!uri || uri.scheme !== root.scheme) return undefined;
		const path = relative(root.fsPath, uri.fsPath);
		return path && !path.startsWith('..') && !isAbsolute(path) ? path.split('\\').join('/') : undefined;
	};
	const attached = (run.request.attachments ?? []).flatMap((attachment) =>
		attachment.kind === 'file' || attachment.kind === 'path'
			? [isAbsolute(attachment.path) ? (relativeTo(vscode.Uri.file(attachment.path)) ?? '') : attachment.path]
			: [],
	);
	return {
		activePath: relativeTo(vscode.window.activeTextEditor?.document.uri),
		...(run.request.review ? { reviewedPath: run.request.review.path } : {}),
		attached,
		question: run.request.question,
	};
}
