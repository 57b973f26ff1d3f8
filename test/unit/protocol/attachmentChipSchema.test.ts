import { describe, expect, it } from 'vitest';
import { defaultContextLimits } from '../../../src/core/context/resolveAttachments.js';
import {
	MAX_CHIP_BASE64_CHARS,
	MAX_CHIP_IMAGE_BYTES,
	MAX_CHIP_LABEL_CHARS,
	MAX_CHIPS,
	type AttachmentChip,
	type ChipRequest,
} from '../../../src/protocol/attachmentChip.js';
import { parseWebviewMessage } from '../../../src/protocol/webviewMessageSchema.js';

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64');

function chip(request: ChipRequest, extra: Partial<AttachmentChip> = {}): AttachmentChip {
	return { id: 'c1', label: 'a chip', request, ...extra };
}

const ask = (attachments: unknown) => parseWebviewMessage({ type: 'ask', question: 'Why?', attachments });

describe('ask attachments (webview message schema)', () => {
	it("caps images at the core's cap for one image", () => {
		expect(MAX_CHIP_IMAGE_BYTES).toBe(defaultContextLimits.imageBytes);
	});

	it('accepts a chip of every kind, in order', () => {
		const chips: AttachmentChip[] = [
			chip({ kind: 'path', path: 'src' }),
			chip({ kind: 'file', path: 'src/a.ts', range: { start: 3, end: 9 } }, { detail: 'lines 3–9' }),
			chip({ kind: 'diff', source: 'working-tree' }),
			chip({
				kind: 'diagnostics',
				path: 'src/a.ts',
				items: [
					{ range: { start: 2, end: 2, column: 5 }, severity: 'error', message: 'x is unused', source: 'ts' },
				],
			}),
			chip({ kind: 'terminal', source: 'bash', text: '$ npm test\nfail' }),
			chip({ kind: 'text', source: 'note', text: 'hello' }),
			chip(
				{ kind: 'image', path: 'pasted-image.png', dataBase64: png },
				{ thumbnail: `data:image/png;base64,${png}` },
			),
		];
		const parsed = ask(chips);
		expect(parsed).toEqual({ ok: true, message: { type: 'ask', question: 'Why?', attachments: chips } });
	});

	it.each([
		['an unknown kind', [chip({ kind: 'secret', path: 'a' } as unknown as ChipRequest)]],
		['a path outside the workspace', [chip({ kind: 'file', path: '../etc/passwd' })]],
		['an absolute path', [chip({ kind: 'path', path: '/etc/passwd' })]],
		['a range that ends before it starts', [chip({ kind: 'file', path: 'a', range: { start: 5, end: 2 } })]],
		['a bad diff source', [chip({ kind: 'diff', source: 'HEAD~1' } as unknown as ChipRequest)]],
		['image data that is not base64', [chip({ kind: 'image', path: 'a.png', dataBase64: '<script>' })]],
		[
			'a thumbnail that is not an image data URL',
			[chip({ kind: 'text', source: 's', text: 't' }, { thumbnail: 'https://x' })],
		],
		[
			'a label too long',
			[chip({ kind: 'diff', source: 'staged' }, { label: 'x'.repeat(MAX_CHIP_LABEL_CHARS + 1) })],
		],
		['an extra field', [{ ...chip({ kind: 'diff', source: 'staged' }), html: '<b>' }]],
		[
			'an extra request field',
			[chip({ kind: 'diff', source: 'staged', text: 'x' } as unknown as ChipRequest)],
		],
		['a bad chip id', [chip({ kind: 'diff', source: 'staged' }, { id: 'a b' })]],
		['too many chips', Array.from({ length: MAX_CHIPS + 1 }, () => chip({ kind: 'diff', source: 'staged' }))],
		[
			'one image over the cap',
			[chip({ kind: 'image', path: 'big.png', dataBase64: 'A'.repeat(MAX_CHIP_BASE64_CHARS + 4) })],
		],
		[
			'images that together are over the cap',
			[
				chip({ kind: 'image', path: 'a.png', dataBase64: 'A'.repeat(MAX_CHIP_BASE64_CHARS / 2 + 4) }),
				chip(
					{ kind: 'image', path: 'b.png', dataBase64: 'A'.repeat(MAX_CHIP_BASE64_CHARS / 2 + 4) },
					{ id: 'c2' },
				),
			],
		],
		['not a list', { kind: 'diff' }],
	])('refuses %s, with a short error', (_what, attachments) => {
		const parsed = ask(attachments);
		expect(parsed.ok).toBe(false);
		if (!parsed.ok) {
			expect(parsed.error).toMatch(/^invalid webview message \(attachments/);
			expect(parsed.error.length).toBeLessThanOrEqual(500);
		}
	});

	it('accepts images up to the cap together', () => {
		const half = 'A'.repeat(MAX_CHIP_BASE64_CHARS / 2);
		const parsed = ask([
			chip({ kind: 'image', path: 'a.png', dataBase64: half }),
			chip({ kind: 'image', path: 'b.png', dataBase64: half }, { id: 'c2' }),
		]);
		expect(parsed.ok).toBe(true);
	});
});
