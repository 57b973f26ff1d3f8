/**
 * The prompt's `<CONTEXT>` section: every attachment labelled with its kind and source, the same
 * text for every agent and every call (but the image lines of a text-only model), so it stays inside
 * the cached stable prefix.
 */
import { attachmentSource, type Attachment } from './attachment.js';
import type { PromptContext } from './promptContext.js';
import { quotedModelText } from './quotedText.js';
import { formatBytes } from './resolveAttachments.js';

/** Empty when nothing is attached (the prompt then has no section). */
export function contextSection(context: PromptContext): string {
	const { attachments } = context;
	if (attachments.length === 0) return '';
	let image = 0;
	const blocks = attachments.map((attachment) =>
		attachmentBlock(attachment, attachment.kind === 'image' && context.images ? ++image : undefined),
	);
	return [
		'<CONTEXT>',
		'The user attached these to the ORIGINAL MESSAGE (the workspace may have changed since; read files to check):',
		...blocks,
		'</CONTEXT>',
	].join('\n');
}

/** `image` is the image's number among the message's image inputs; undefined when it is not sent. */
function attachmentBlock(attachment: Attachment, image: number | undefined): string {
	const lines =
		attachment.kind === 'file' && attachment.range
			? ` lines="${attachment.range.start}-${attachment.range.end}"`
			: '';
	// File names and text are the repository's: neither closes the block nor speaks as the user.
	const source = quotedModelText(JSON.stringify(attachmentSource(attachment)));
	const open = `<attachment kind="${attachment.kind}" source=${source}${lines}>`;
	if (attachment.kind === 'image') {
		const what = `${attachment.mediaType} image, ${formatBytes(attachment.data.byteLength)}`;
		const where =
			image === undefined
				? 'not shown: your model takes text only, so you get the other attachments alone'
				: `image input ${image} of this message`;
		return `${open}\n(${what}: ${where})\n</attachment>`;
	}
	const text = quotedModelText(attachment.text);
	const body = text.endsWith('\n') ? text : `${text}\n`;
	return `${open}\n${body}${attachment.truncated ? `${attachment.truncated}\n` : ''}</attachment>`;
}
