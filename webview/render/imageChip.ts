/**
 * A pasted or dropped image as an ask-box chip (docs/context.md): PNG, JPEG, GIF or WebP, with a small
 * thumbnail. One over the room left (the core's cap for an image, shared by all images of the
 * question) is downscaled here with a canvas until it fits, re-encoded as JPEG (PNG when the
 * original is a PNG, to keep transparency, as long as that fits); one that still does not fit, or
 * cannot be decoded, is refused with the reason.
 */
import { t } from '../strings.js';
import type { AttachmentChip } from '../../src/protocol/attachmentChip.js';
import { MAX_CHIP_BASE64_CHARS, MAX_CHIP_IMAGE_BYTES } from '../../src/protocol/attachmentChip.js';

export const imageTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
const extensions: Record<string, string> = {
	'image/png': 'png',
	'image/jpeg': 'jpg',
	'image/gif': 'gif',
	'image/webp': 'webp',
};

const thumbnailSize = 64;
/** Below this much room a downscaled image is not worth sending. */
const minImageBytes = 16 * 1024;
const maxDownscaleSteps = 8;

export type ImageOutcome = { ok: true; chip: Omit<AttachmentChip, 'id'> } | { ok: false; reason: string };

/** Decoded bytes the images already in the box take (base64 length × ¾). */
export function imageBytesOf(chips: readonly AttachmentChip[]): number {
	let chars = 0;
	for (const chip of chips) if (chip.request.kind === 'image') chars += chip.request.dataBase64.length;
	return Math.floor((chars * 3) / 4);
}

/** Room left for one more image: its own cap, and what the others leave of the total. */
export function imageRoom(chips: readonly AttachmentChip[]): number {
	const total = Math.floor((MAX_CHIP_BASE64_CHARS * 3) / 4) - imageBytesOf(chips);
	// Base64 grows in steps of 3 bytes: keep one step of slack.
	return Math.min(MAX_CHIP_IMAGE_BYTES, total) - 3;
}

export function formatSize(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < 1024 * 1024) return t('kb', Math.round(bytes / 1024));
	return t('mb', (bytes / (1024 * 1024)).toFixed(1));
}

/** Turns one image file into a chip (no id yet), fitting it into `room` bytes. */
export async function imageChip(
	file: Blob & { name?: string },
	room: number,
	index: number,
): Promise<ImageOutcome> {
	const type = file.type.toLowerCase();
	const name = file.name || `pasted-image-${index}.${extensions[type] ?? 'png'}`;
	if (!(imageTypes as readonly string[]).includes(type)) {
		return { ok: false, reason: t('notAPngJpeg', name) };
	}
	if (room < minImageBytes) {
		return {
			ok: false,
			reason: t('theImagesOfOne', name, formatSize(MAX_CHIP_IMAGE_BYTES)),
		};
	}
	let bitmap: ImageBitmap;
	try {
		bitmap = await createImageBitmap(file);
	} catch {
		return { ok: false, reason: t('theImageCannotBe', name) };
	}
	try {
		const thumbnail = await encode(bitmap, fitScale(bitmap, thumbnailSize), 'image/png');
		let bytes: Uint8Array = new Uint8Array(await file.arrayBuffer());
		let detail = formatSize(bytes.byteLength);
		let path = name;
		if (bytes.byteLength > room) {
			const scaled = await downscale(bitmap, type, room);
			if (!scaled) {
				return {
					ok: false,
					reason: t('doesNotFitIn', name, formatSize(bytes.byteLength), formatSize(room)),
				};
			}
			detail = t(
				'downscaledTo',
				formatSize(bytes.byteLength),
				scaled.width,
				scaled.height,
				formatSize(scaled.bytes.byteLength),
			);
			bytes = scaled.bytes;
			path = name.replace(/\.[a-z0-9]+$/i, '') + (scaled.type === 'image/png' ? '.png' : '.jpg');
		}
		return {
			ok: true,
			chip: {
				label: name,
				detail,
				thumbnail: `data:image/png;base64,${toBase64(thumbnail)}`,
				request: { kind: 'image', path: safeName(path), dataBase64: toBase64(bytes) },
			},
		};
	} finally {
		bitmap.close();
	}
}

/** The chip's `path` must be a plain relative name (the schema checks it like a workspace path). */
function safeName(name: string): string {
	const cleaned = name.replace(/[\\/\u0000-\u001f\u007f]+/g, '_').replace(/^\.+/, '');
	return (cleaned || 'image').slice(0, 200);
}

function fitScale(bitmap: ImageBitmap, size: number): number {
	return Math.min(1, size / Math.max(bitmap.width, bitmap.height));
}

async function downscale(
	bitmap: ImageBitmap,
	type: string,
	room: number,
): Promise<{ bytes: Uint8Array; width: number; height: number; type: string } | undefined> {
	// First guess from the area; each further step shrinks by a quarter.
	let scale = Math.min(1, Math.sqrt(room / (bitmap.width * bitmap.height * 0.5)));
	for (let step = 0; step < maxDownscaleSteps; step++, scale *= 0.75) {
		const width = Math.max(1, Math.round(bitmap.width * scale));
		const height = Math.max(1, Math.round(bitmap.height * scale));
		for (const target of type === 'image/png' ? ['image/png', 'image/jpeg'] : ['image/jpeg']) {
			const bytes = await encode(bitmap, scale, target);
			if (bytes.byteLength <= room) return { bytes, width, height, type: target };
		}
	}
	return undefined;
}

async function encode(bitmap: ImageBitmap, scale: number, type: string): Promise<Uint8Array> {
	const canvas = new OffscreenCanvas(
		Math.max(1, Math.round(bitmap.width * scale)),
		Math.max(1, Math.round(bitmap.height * scale)),
	);
	const context = canvas.getContext('2d');
	if (!context) throw new Error(t('no2dCanvas'));
	if (type === 'image/jpeg') {
		// JPEG has no alpha: transparent pixels become white, not black.
		context.fillStyle = '#fff';
		context.fillRect(0, 0, canvas.width, canvas.height);
	}
	context.imageSmoothingQuality = 'high';
	context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
	const blob = await canvas.convertToBlob({ type, quality: 0.85 });
	return new Uint8Array(await blob.arrayBuffer());
}

function toBase64(bytes: Uint8Array): string {
	let binary = '';
	const chunk = 0x8000;
	for (let i = 0; i < bytes.length; i += chunk) {
		binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
	}
	return btoa(binary);
}
