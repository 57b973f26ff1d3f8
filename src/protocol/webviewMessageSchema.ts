/**
 * Host-side validation of everything the webview posts (the webview is untrusted: docs/editor.md).
 * Kept apart from `messages.ts` so the webview bundle never includes zod.
 */
import { z } from 'zod';
import { runIdPattern } from '../contract/runId.js';
// The chip caps live with the chip type: the webview and the extension bundle apply them without zod.
import {
	MAX_CHIP_BASE64_CHARS,
	MAX_CHIP_LABEL_CHARS,
	MAX_CHIP_MESSAGE_CHARS,
	MAX_CHIPS,
	MAX_THUMBNAIL_CHARS,
} from './attachmentChip.js';
import type { WebviewMessage } from './messages.js';
import { MAX_STEER_CHARS } from './steerMessage.js';

export const MAX_QUESTION_CHARS = 100_000;
export const MAX_PATH_CHARS = 1_024;
export const MAX_ACCEPT_PATHS = 10_000;
export const MAX_NOTE_CHARS = 2_000;
export const MAX_HUNK_IDS = 10_000;
/** Text a chip carries itself (a terminal's output, a note): the core cuts it to its caps anyway. */
export const MAX_CHIP_TEXT_CHARS = 1024 * 1024;
export const MAX_CHIP_DIAGNOSTICS = 1_000;
export const MAX_CONTEXT_QUERY_CHARS = 256;
export const MAX_DROPPED_URIS = 100;
export const MAX_AGENT_ID_CHARS = 256;
/** A link the panel asks to open (URLs longer than this are not citations anyone clicks). */
export const MAX_LINK_CHARS = 8_192;

/**
 * Workspace-relative, `/`-separated, no `..` segment, no leading `/` or drive letter, no control
 * characters or backslashes. The host still checks the path against the pending change set.
 */
const relativePath = z
	.string()
	.min(1)
	.max(MAX_PATH_CHARS)
	.regex(
		/^(?![/]|[A-Za-z]:)(?!.*(?:^|\/)\.\.(?:\/|$))[^\\\u0000-\u001f\u007f]+$/,
		'must be a workspace-relative path',
	);

/** `final#<n>` (the winner's hunks) or `alt#<n>` (runner-up hunks). */
const hunkId = z.string().regex(/^(?:final|alt)#\d{1,6}$/, 'must be a hunk id');
/** A hunk of the proposal a comment can be on: the winner's, or one the user wrote (`you#n`). */
const proposalHunkId = z.string().regex(/^(?:final|you)#\d{1,6}$/, 'must be a hunk of the proposal');

/** Which version an `open-diff` shows: proposed, the winner's final text, or an answer label. */
const diffVersion = z
	.string()
	.regex(/^(?:proposed|final|agent\d{1,4}\.\d{1,6})$/, 'must be a change version');

const lineRange = z
	.strictObject({ start: z.number().int().min(1), end: z.number().int().min(1) })
	.refine((range) => range.end >= range.start, 'end must not be before start');

const chipRequest = z.discriminatedUnion('kind', [
	z.strictObject({ kind: z.literal('path'), path: relativePath }),
	z.strictObject({ kind: z.literal('file'), path: relativePath, range: lineRange.optional() }),
	z.strictObject({ kind: z.literal('diff'), source: z.enum(['working-tree', 'staged']) }),
	z.strictObject({
		kind: z.literal('diagnostics'),
		path: relativePath,
		items: z
			.array(
				z.strictObject({
					range: z.strictObject({
						start: z.number().int().min(1),
						end: z.number().int().min(1),
						column: z.number().int().min(1).optional(),
					}),
					severity: z.enum(['error', 'warning', 'info', 'hint']),
					message: z.string().max(MAX_CHIP_MESSAGE_CHARS),
					source: z.string().max(MAX_CHIP_LABEL_CHARS).optional(),
				}),
			)
			.max(MAX_CHIP_DIAGNOSTICS),
	}),
	z.strictObject({
		kind: z.literal('terminal'),
		source: z.string().min(1).max(MAX_CHIP_LABEL_CHARS),
		text: z.string().max(MAX_CHIP_TEXT_CHARS),
	}),
	z.strictObject({
		kind: z.literal('text'),
		source: z.string().min(1).max(MAX_CHIP_LABEL_CHARS),
		text: z.string().max(MAX_CHIP_TEXT_CHARS),
	}),
	z.strictObject({
		kind: z.literal('image'),
		path: relativePath,
		dataBase64: z
			.string()
			.min(1)
			.max(MAX_CHIP_BASE64_CHARS)
			.regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64'),
	}),
]);

const attachmentChip = z.strictObject({
	id: z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, 'must be a chip id'),
	label: z.string().min(1).max(MAX_CHIP_LABEL_CHARS),
	detail: z.string().max(MAX_CHIP_LABEL_CHARS).optional(),
	thumbnail: z
		.string()
		.max(MAX_THUMBNAIL_CHARS)
		.regex(/^data:image\/(?:png|jpeg|gif|webp);base64,/, 'must be an image data URL')
		.optional(),
	request: chipRequest,
});

const chips = z
	.array(attachmentChip)
	.max(MAX_CHIPS)
	.refine(
		(list) =>
			list.reduce(
				(sum, chip) => sum + (chip.request.kind === 'image' ? chip.request.dataBase64.length : 0),
				0,
			) <= MAX_CHIP_BASE64_CHARS,
		`images must not total more than ${MAX_CHIP_BASE64_CHARS} base64 characters`,
	);

/** An absolute http(s) URL (a citation's): never javascript:, data:, file: or a command URI. */
const httpUrl = z
	.string()
	.max(MAX_LINK_CHARS)
	.refine((value) => {
		try {
			const url = new URL(value);
			return url.protocol === 'http:' || url.protocol === 'https:';
		} catch {
			return false;
		}
	}, 'must be an http(s) URL');

const runIdString = z.string().regex(runIdPattern, 'must be a run id');

const agentId = z
	.string()
	.min(1)
	.max(MAX_AGENT_ID_CHARS)
	.regex(/^[^\u0000-\u001f\u007f]+$/, 'must be an agent id');

export const webviewMessageSchema = z.discriminatedUnion('type', [
	z.strictObject({ type: z.literal('ready') }),
	z.strictObject({
		type: z.literal('ask'),
		question: z.string().trim().min(1).max(MAX_QUESTION_CHARS),
		attachments: chips.optional(),
		mode: z.literal('plan').optional(),
	}),
	z.strictObject({ type: z.literal('cancel'), runId: runIdString }),
	z.strictObject({ type: z.literal('stop-agent'), runId: runIdString, agentId }),
	z.strictObject({
		type: z.literal('steer'),
		runId: runIdString,
		text: z.string().trim().min(1).max(MAX_STEER_CHARS),
		agentId: agentId.optional(),
		noteOnly: z.boolean(),
	}),
	z.strictObject({ type: z.literal('finish-now'), runId: runIdString }),
	z.strictObject({
		type: z.literal('open-diff'),
		runId: runIdString,
		path: relativePath,
		version: diffVersion.optional(),
	}),
	z.strictObject({
		type: z.literal('accept'),
		paths: z.array(relativePath).min(1).max(MAX_ACCEPT_PATHS).optional(),
		hunks: z
			.array(z.strictObject({ path: relativePath, ids: z.array(hunkId).max(MAX_HUNK_IDS) }))
			.min(1)
			.max(MAX_ACCEPT_PATHS)
			.optional(),
		runId: runIdString,
	}),
	z.strictObject({
		type: z.literal('select-hunks'),
		runId: runIdString,
		path: relativePath,
		ids: z.array(hunkId).min(1).max(MAX_HUNK_IDS),
		selected: z.boolean(),
	}),
	z.strictObject({ type: z.literal('reject'), runId: runIdString }),
	z.strictObject({
		type: z.literal('comment-hunk'),
		runId: runIdString,
		path: relativePath,
		hunkId: proposalHunkId,
	}),
	z.strictObject({ type: z.literal('send-to-team'), runId: runIdString }),
	z.strictObject({ type: z.literal('open-run'), runId: runIdString }),
	z.strictObject({ type: z.literal('revert-run'), runId: runIdString }),
	z.strictObject({
		type: z.literal('approval'),
		requestId: z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, 'must be a request id'),
		decision: z.enum(['allow-once', 'allow-run', 'always', 'deny']),
		note: z.string().max(MAX_NOTE_CHARS).optional(),
	}),
	z.strictObject({
		type: z.literal('search-context'),
		query: z.string().max(MAX_CONTEXT_QUERY_CHARS),
		requestId: z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, 'must be a request id'),
	}),
	z.strictObject({ type: z.literal('pick-context') }),
	z.strictObject({
		type: z.literal('drop-uris'),
		uris: z
			.array(
				z
					.string()
					.min(1)
					.max(MAX_PATH_CHARS * 4),
			)
			.min(1)
			.max(MAX_DROPPED_URIS),
	}),
	z.strictObject({ type: z.literal('open-link'), url: httpUrl }),
	z.strictObject({ type: z.literal('focus'), focused: z.boolean() }),
]);

// Fails to compile when the schema and the hand-written WebviewMessage union drift apart:
// every parsed value is a WebviewMessage, and both cover the same message types.
type Parsed = z.infer<typeof webviewMessageSchema>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Matches = [Parsed] extends [WebviewMessage] ? Same<Parsed['type'], WebviewMessage['type']> : false;
const schemaMatchesType: Matches = true;
void schemaMatchesType;

export type ParseResult =
	{ readonly ok: true; readonly message: WebviewMessage } | { readonly ok: false; readonly error: string };

/** Validates one inbound message; the error is a short, user-safe description (never throws). */
export function parseWebviewMessage(input: unknown): ParseResult {
	const parsed = webviewMessageSchema.safeParse(input);
	if (parsed.success) return { ok: true, message: parsed.data };
	const issues = parsed.error.issues.slice(0, 3).map((issue) => {
		const path = issue.path.length > 0 ? issue.path.join('.') : 'message';
		return `${path}: ${issue.message}`;
	});
	return { ok: false, error: `invalid webview message (${issues.join('; ')})`.slice(0, 500) };
}
