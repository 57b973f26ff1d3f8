/**
 * What "Re-run" asks for: the run's question with its attachments as recorded in `run-start`
 * (paths and ranges; the files are read again now). Diagnostics, terminal and pasted text are
 * recorded without their contents, so they cannot be given again and are named as left out.
 */
import * as vscode from 'vscode';
import type { AttachmentRequest } from '../../core/context/attachment.js';
import type { AttachmentRecord } from '../../contract/runEvents.js';

export interface RerunAttachments {
	readonly requests: AttachmentRequest[];
	/** Sources that cannot be attached again (e.g. `diagnostics: src/a.ts`). */
	readonly leftOut: string[];
}

export function rerunAttachments(records: readonly AttachmentRecord[]): RerunAttachments {
	const requests: AttachmentRequest[] = [];
	const leftOut: string[] = [];
	for (const record of records) {
		switch (record.kind) {
			case 'file':
				requests.push({
					kind: 'file',
					path: record.source,
					...(record.lines ? { range: record.lines } : {}),
				});
				break;
			case 'folder':
			case 'image':
				requests.push({ kind: 'path', path: record.source });
				break;
			case 'diff':
				if (record.source === 'working-tree' || record.source === 'staged') {
					requests.push({ kind: 'diff', source: record.source });
				} else leftOut.push(vscode.l10n.t('diff: {0}', record.source));
				break;
			default:
				leftOut.push(`${record.kind}: ${record.source}`);
		}
	}
	return { requests, leftOut };
}

/** The attachments of a run's `run-start` (its first line only: the log may be large); [] when none. */
export async function recordedAttachments(runDir: string): Promise<AttachmentRecord[]> {
	// The run store's readers check with zod: loaded at the first Re-run, not at activation.
	const { readRunStart } = await import('../../core/runStore/readRunEvents.js');
	return (await readRunStart(runDir))?.attachments ?? [];
}
