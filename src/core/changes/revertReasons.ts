// Kept apart from revertRun.ts: the editor's prompts import it at activation, without the diff library.
import type { ConflictReason } from './planFile.js';

/** Why a file cannot be reverted by itself, for the terminal and the modal. */
export function describeRevertConflict(reason: ConflictReason): string {
	switch (reason) {
		case 'overlap':
			return 'you changed it since the accept, and your changes overlap the ones being undone';
		case 'unseen':
			// Reverts plan against the recorded accept, whose hashes are real: kept for completeness.
			return 'its earlier version was not kept, and it has changed since: compare and restore it by hand';
		case 'deleted':
			return 'it was deleted since the accept';
		case 'exists':
			return 'the accept deleted it, but a different file exists there now';
		case 'modified':
			return 'the accept created it, and you changed it since';
		case 'too-large':
			return 'it is over 8 MiB: only its hash was recorded, so its earlier text cannot be restored';
	}
}
