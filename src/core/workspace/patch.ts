import { formatPatch as formatStructuredPatch } from 'diff';
import { boundedStructuredPatch } from '../util/boundedDiff.js';
import type { FileChange } from '../../contract/fileChange.js';

/** Lines of context around each hunk, as `git diff` uses. */
const contextLines = 3;

/**
 * Formats a change set as a git-style unified diff (`diff --git`, `new file mode`,
 * `deleted file mode`, `/dev/null` sides, `\ No newline at end of file`) that
 * `git apply` accepts against the base the changes carry (what the agents read).
 */
export function formatPatch(changes: readonly FileChange[]): string {
	const sorted = [...changes].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
	let out = '';
	for (const change of sorted) {
		const before = change.kind === 'add' ? '' : (change.base ?? '');
		const after = change.kind === 'delete' ? '' : (change.content ?? '');
		if (change.kind === 'modify' && before === after) continue;
		const [oldName, newName] = [`a/${change.path}`, `b/${change.path}`];
		const patch = boundedStructuredPatch(oldName, newName, before, after, contextLines);
		// The library emits git headers (and omits ---/+++ for empty files, as git does) when told.
		patch.isGit = true;
		if (change.kind === 'add') {
			patch.isCreate = true;
			patch.oldFileName = '/dev/null';
		} else if (change.kind === 'delete') {
			patch.isDelete = true;
			patch.newFileName = '/dev/null';
		}
		// Formatted one by one: the library's array form puts a blank line between files.
		out += formatStructuredPatch(patch);
	}
	return out;
}
