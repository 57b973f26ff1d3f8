import { describe, expect, it } from 'vitest';
import { AttachmentError } from '../../../src/core/context/attachment.js';
import type { AttachmentChip, ChipRequest } from '../../../src/protocol/attachmentChip.js';
import { chipsToRequests, chipToRequest } from '../../../src/vscode/context/chipRequest.js';

const chip = (request: ChipRequest): AttachmentChip => ({
	id: 'c',
	label: 'label the host ignores',
	request,
});

describe('chipToRequest', () => {
	it('passes the kinds without bytes through unchanged', () => {
		const requests: ChipRequest[] = [
			{ kind: 'path', path: 'src' },
			{ kind: 'file', path: 'src/a.ts', range: { start: 1, end: 4 } },
			{ kind: 'diff', source: 'staged' },
			{
				kind: 'diagnostics',
				path: 'a.ts',
				items: [{ range: { start: 1, end: 1 }, severity: 'warning', message: 'm' }],
			},
			{ kind: 'terminal', source: 'zsh', text: 'out' },
			{ kind: 'text', source: 'stdin', text: 'in' },
		];
		expect(chipsToRequests(requests.map(chip))).toEqual(requests);
	});

	it("decodes an image's base64 into its bytes", () => {
		const bytes = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 255, 7]);
		const request = chipToRequest(
			chip({ kind: 'image', path: 'pasted.png', dataBase64: Buffer.from(bytes).toString('base64') }),
		);
		expect(request.kind).toBe('image');
		if (request.kind === 'image') {
			expect(request.path).toBe('pasted.png');
			expect(request.data).toBeInstanceOf(Uint8Array);
			expect([...request.data]).toEqual([...bytes]);
		}
	});

	it('refuses image data that does not decode, with the reason', () => {
		for (const dataBase64 of ['', 'abc', 'ab=c', 'a$bc']) {
			expect(() => chipToRequest(chip({ kind: 'image', path: 'p.png', dataBase64 }))).toThrow(
				AttachmentError,
			);
		}
		expect(() => chipToRequest(chip({ kind: 'image', path: 'p.png', dataBase64: 'abc' }))).toThrow(
			"cannot attach 'p.png': the image data is not base64",
		);
	});
});
