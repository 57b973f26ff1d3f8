import { realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RunResult } from '../../contract/runResult.js';
import { policyRefusal } from '../../core/workspace/pathPolicy.js';
import { changeUri } from '../changes/changeUri.js';
import type { FinishedRun } from '../run/runTypes.js';
import { citedLines } from './citedLines.js';

/** The part of the response stream links go to. */
export type LinkStream = Pick<vscode.ChatResponseStream, 'markdown' | 'anchor' | 'reference'>;

/**
 * "Proposed changes (not applied)", one line per file with its path as an anchor: the workspace
 * file for a change to an existing one, the winner's text (read-only, while the set is pending) for
 * a new file. The existing files are also the response's references.
 */
export function streamChangedFiles(run: FinishedRun, stream: LinkStream): void {
	const changes = [...run.result.changes].sort((a, b) => a.path.localeCompare(b.path));
	if (changes.length === 0) return;
	stream.markdown(vscode.l10n.t('\n\n**Proposed changes** (not applied):\n'));
	for (const change of changes) {
		const uri = changedFileUri(run, change);
		stream.markdown(`- ${change.kind} `);
		stream.anchor(uri, change.path);
		stream.markdown('\n');
	}
	for (const change of changes) {
		if (change.kind !== 'add') stream.reference(changedFileUri(run, change));
	}
}

function changedFileUri(run: FinishedRun, change: RunResult['changes'][number]): vscode.Uri {
	return change.kind === 'add'
		? changeUri(run.result.runId, 'final', change.path)
		: vscode.Uri.joinPath(run.folder.uri, ...change.path.split('/'));
}

/**
 * The lines the final answer cites (`src/app.ts:12-20`) as references, for files that exist in the
 * run's folder and that the run's path policy lets agents read: no secret path, nothing in `.git/` or
 * `.massgen/`, no link out of the folder.
 */
export async function streamCitedLines(run: FinishedRun, stream: LinkStream): Promise<number> {
	const answer = run.result.finalAnswer;
	if (!answer) return 0;
	let count = 0;
	for (const cited of citedLines(answer)) {
		if (!(await readableFile(run, cited.path))) continue;
		const uri = vscode.Uri.joinPath(run.folder.uri, ...cited.path.split('/'));
		stream.reference(new vscode.Location(uri, new vscode.Range(cited.start - 1, 0, cited.end - 1, 0)));
		count++;
	}
	return count;
}

async function readableFile(run: FinishedRun, path: string): Promise<boolean> {
	const policy = run.writePolicy;
	if (policyRefusal(path, path, 'read', [], policy.secretPaths) !== null) return false;
	try {
		const real = await realpath(join(run.folder.uri.fsPath, path));
		const root = policy.root.replace(/\\/g, '/');
		const target = real.replace(/\\/g, '/');
		if (!target.startsWith(`${root}/`)) return false;
		// A link inside the folder is judged by what it points at too (`notes.txt` → `.env`).
		const relative = target.slice(root.length + 1);
		if (policyRefusal(relative, relative, 'read', [], policy.secretPaths) !== null) return false;
		return (await stat(real)).isFile();
	} catch {
		return false;
	}
}
