import type { ImageMediaType } from './attachment.js';

/** File names that claim to be images: one whose bytes say otherwise is refused, not sent as text. */
export const imageExtension = /\.(png|jpe?g|gif|webp)$/i;

/** The media type the bytes show (magic numbers; the name may lie), or null for none we accept. */
export function sniffImageType(head: Uint8Array): ImageMediaType | null {
	const bytes = Buffer.from(head.buffer, head.byteOffset, Math.min(head.byteLength, 12));
	if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
		return 'image/png';
	}
	if (bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))) return 'image/jpeg';
	const ascii = bytes.toString('latin1');
	if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a')) return 'image/gif';
	if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'image/webp';
	return null;
}
