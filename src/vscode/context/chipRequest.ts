/**
 * The host's side of an ask-box chip (docs/context.md): the webview's JSON-safe request becomes the core's
 * `AttachmentRequest`. The message schema has checked shapes and caps already; this checks what a
 * schema cannot say (the base64 decodes to what it claims) and never trusts the webview's label.
 */
import type { AttachmentRequest } from '../../core/context/attachment.js';
import { AttachmentError } from '../../core/context/attachment.js';
import type { AttachmentChip } from '../../protocol/attachmentChip.js';
import { assertNever } from '../../protocol/assertNever.js';

const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Throws `AttachmentError` (the run does not start; the reason is shown) for a chip that cannot be attached. */
export function chipToRequest(chip: AttachmentChip): AttachmentRequest {
	const request = chip.request;
	switch (request.kind) {
		case 'path':
		case 'file':
		case 'diff':
		case 'terminal':
		case 'text':
			return request;
		case 'diagnostics':
			return { kind: 'diagnostics', path: request.path, items: request.items };
		case 'image': {
			if (request.dataBase64.length === 0 || !base64.test(request.dataBase64)) {
				throw new AttachmentError(`cannot attach '${request.path}': the image data is not base64`);
			}
			const data = Buffer.from(request.dataBase64, 'base64');
			return {
				kind: 'image',
				path: request.path,
				data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
			};
		}
		default:
			return assertNever(request);
	}
}

/** Every chip of one question, in order. */
export function chipsToRequests(chips: readonly AttachmentChip[]): AttachmentRequest[] {
	return chips.map(chipToRequest);
}
