/**
 * An attachment as the panel's ask box holds it (docs/context.md): a removable chip the webview shows and
 * sends back with the question. `request` mirrors the core's `AttachmentRequest` in JSON-safe form
 * (an image's bytes as base64), so it crosses `postMessage` and survives the webview's saved state;
 * the host validates it (`webviewMessageSchema`) and converts it (`chipToRequest`). Types and the
 * caps both sides apply (the webview fits images to them; the schema refuses what exceeds them).
 */

/**
 * The core's cap for one image (`defaultContextLimits.imageBytes`; a test keeps them equal), not
 * imported: the resolver's module would bring the tools into the extension and webview bundles.
 */
export const MAX_CHIP_IMAGE_BYTES = 5 * 1024 * 1024;
/** All images of one question together, base64: what one image at the core's cap takes. */
export const MAX_CHIP_BASE64_CHARS = Math.ceil(MAX_CHIP_IMAGE_BYTES / 3) * 4;
export const MAX_CHIPS = 32;
export const MAX_CHIP_LABEL_CHARS = 256;
/** One diagnostic's message in a `diagnostics` chip. */
export const MAX_CHIP_MESSAGE_CHARS = 2_000;
/** A chip's thumbnail is a small preview the webview draws; the host never reads it. */
export const MAX_THUMBNAIL_CHARS = 256 * 1024;

/** 1-based, inclusive (as the core's `LineRange`). */
export interface ChipLineRange {
	readonly start: number;
	readonly end: number;
}

export interface ChipDiagnostic {
	readonly range: ChipLineRange & { readonly column?: number };
	readonly severity: 'error' | 'warning' | 'info' | 'hint';
	readonly message: string;
	readonly source?: string;
}

export type ChipRequest =
	| { readonly kind: 'path'; readonly path: string }
	| { readonly kind: 'file'; readonly path: string; readonly range?: ChipLineRange }
	| { readonly kind: 'diff'; readonly source: 'working-tree' | 'staged' }
	| { readonly kind: 'diagnostics'; readonly path: string; readonly items: readonly ChipDiagnostic[] }
	| { readonly kind: 'terminal'; readonly source: string; readonly text: string }
	| { readonly kind: 'text'; readonly source: string; readonly text: string }
	/** `path` names where the image came from (a pasted image has a made-up name). */
	| { readonly kind: 'image'; readonly path: string; readonly dataBase64: string };

export type ChipKind = ChipRequest['kind'];

export interface AttachmentChip {
	/** Unique within the ask box (removal and keyboard focus go by it). */
	readonly id: string;
	/** What the chip shows: `src/a.ts`, `selection`, `pasted image`. */
	readonly label: string;
	/** Its tooltip and the rest of its accessible name: `lines 3–9`, `120 KB`. */
	readonly detail?: string;
	/** A `data:` URL, images only. */
	readonly thumbnail?: string;
	readonly request: ChipRequest;
}
