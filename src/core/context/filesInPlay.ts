/**
 * The files and folders a run is about, for the project instructions that depend on them (nested
 * `AGENTS.md`, `applyTo` globs): every attachment with a path, and every word of the question that
 * names an existing file or folder of the workspace (`src/app.ts`, `docs/`), under the tools' path
 * policy. Bounded: a question is not a file list.
 */
import { lstat } from 'node:fs/promises';
import type { Workspace } from '../workspace/types.js';
import type { Attachment } from './attachment.js';
import type { InPlay } from './projectInstructions.js';

/** Words of the question looked up at most (each costs a policy check and an `lstat`). */
const maxWords = 32;

export async function filesInPlay(
	question: string,
	attachments: readonly Attachment[],
	workspace: Workspace,
): Promise<InPlay[]> {
	const found = new Map<string, InPlay>();
	for (const attachment of attachments) {
		if (attachment.kind === 'diff' || attachment.kind === 'terminal' || attachment.kind === 'text') continue;
		found.set(attachment.path, { path: attachment.path, folder: attachment.kind === 'folder' });
	}
	for (const word of pathWords(question).slice(0, maxWords)) {
		const resolved = await workspace.resolve(word, 'read');
		if (!resolved.ok || resolved.path === '.' || found.has(resolved.path)) continue;
		const info = await lstat(resolved.absolute).catch(() => null);
		if (info === null || info.isSymbolicLink()) continue;
		found.set(resolved.path, { path: resolved.path, folder: info.isDirectory() });
	}
	return [...found.values()];
}

/** Words that look like a path: a `/` in them or a file extension. */
export function pathWords(question: string): string[] {
	const words = question.match(/[\w@.\-/\\]+/g) ?? [];
	const paths = words
		.map((word) => word.replace(/[.:]+$/, ''))
		.filter((word) => word.length <= 300 && (/[/\\]/.test(word) || /\.\w{1,10}$/.test(word)));
	return [...new Set(paths)];
}
