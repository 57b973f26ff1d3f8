import { targetOf } from '../../core/changes/changeSet.js';
import type { PendingChangeSet } from '../changes/pendingChangeSet.js';
import type { ProposalFile } from '../../contract/revision.js';

/**
 * What Accept would write now for each pending file of a run (base + the selected hunks): the
 * proposal the team revises. A file with nothing selected is left as its base (not sent: the team
 * is asked about what the reviewer would accept). One function, so the editable proposal's own
 * `proposalFiles` can take its place.
 */
export function proposalFilesOf(pending: PendingChangeSet): ProposalFile[] {
	return pending.files().flatMap((file): ProposalFile[] => {
		const target = targetOf(file, pending.selected(file.path));
		if (target.op === 'none') return [];
		return [{ path: file.path, content: target.op === 'delete' ? null : target.text }];
	});
}
