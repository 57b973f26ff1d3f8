/**
 * The prompt's `<CONTEXT>` section: every attachment labelled with its kind and source, the same
 * text for every agent and every call, so it stays inside the cached stable prefix.
 */
import { attachmentSource, type Attachment } from './attachment.js';
import { formatBytes } from './resolveAttachments.js';

/** Empty when nothing is attached (the prompt then has no section). */
export function contextSection(attachments: readonly Attachment[]): string {
	if (attachments.length === 0) return '';
	const blocks = attachments.map(attachmentBlock);
	return [
		'<CONTEXT>',
		'The user attached these to the ORIGINAL MESSAGE (the workspace may have changed since; read files to check):',
		...blocks,
		'</CONTEXT>',
	].join('\n');
}

function attachmentBlock(attachment: Attachment): string {
	const lines =
		attachment.kind === 'file' && attachment.range
			? ` lines="${attachment.range.start}-${attachment.range.end}"`
			: '';
	const open = `<attachment kind="${attachment.kind}" source="${attachmentSource(attachment)}"${lines}>`;
	if (attachment.kind === 'image') {
		// Images reach models as native inputs in a later step; until then every agent reads the same notice.
		return `${open}\n(${attachment.mediaType} image, ${formatBytes(attachment.data.byteLength)}: not shown, this run gives agents text attachments only)\n</attachment>`;
	}
	const body = attachment.text.endsWith('\n') ? attachment.text : `${attachment.text}\n`;
	return `${open}\n${body}${attachment.truncated ? `${attachment.truncated}\n` : ''}</attachment>`;
}
