/**
 * What "Re-run" asks for: the run's question with its attachments as recorded in `run-start`
 * (paths and ranges; the files are read again now). Diagnostics, terminal and pasted text are
 * recorded without their contents, so they cannot be given again and are named as left out.
 */
import * as vscode from 'vscode';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { AttachmentRequest } from '../../core/context/attachment.js';
import type { AttachmentRecord } from '../../contract/runEvents.js';
import { parseEventLine } from '../../core/logs/readRunEvents.js';
import { openRegularFile } from '../../core/util/regularFile.js';

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
	// The run folder is in the workspace: a FIFO there must not block (regularFile.ts).
	const opened = await openRegularFile(join(runDir, 'events.jsonl')).catch(() => null);
	if (opened === null) return [];
	const stream = opened.handle.createReadStream({ encoding: 'utf8' });
	const lines = createInterface({ input: stream, crlfDelay: Infinity });
	try {
		for await (const line of lines) {
			const event = parseEventLine(line);
			return event?.type === 'run-start' ? (event.attachments ?? []) : [];
		}
		return [];
	} finally {
		lines.close();
		stream.destroy();
	}
}
