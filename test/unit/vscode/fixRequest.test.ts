import { describe, expect, it } from 'vitest';
import {
	contextLines,
	fixActionTitle,
	fixRequest,
	toDiagnostic,
} from '../../../src/vscode/context/fixRequest';

const typeError = {
	startLine: 30,
	startCharacter: 6,
	endLine: 30,
	severity: 0,
	message: "Type 'string' is not assignable to type 'number'.",
	source: 'ts',
	code: 2322,
};

describe('fixRequest', () => {
	it('asks to fix the message with the diagnostic and the lines around it attached', () => {
		const request = fixRequest('src/a.ts', [typeError], 200);
		expect(request.question).toBe("Fix: Type 'string' is not assignable to type 'number'.");
		expect(request.kind).toBe('ask');
		expect(request.attachments).toEqual([
			{
				kind: 'diagnostics',
				path: 'src/a.ts',
				items: [
					{
						range: { start: 31, end: 31, column: 7 },
						severity: 'error',
						message: typeError.message,
						source: 'ts(2322)',
					},
				],
			},
			{ kind: 'file', path: 'src/a.ts', range: { start: 31 - contextLines, end: 31 + contextLines } },
		]);
	});

	it('keeps the context lines inside the file and spans every diagnostic', () => {
		const warning = { startLine: 2, startCharacter: 0, endLine: 3, severity: 1, message: 'unused' };
		const request = fixRequest('b.ts', [typeError, warning], 40);
		expect(request.question).toContain('(and 1 more)');
		expect(request.attachments?.[1]).toEqual({ kind: 'file', path: 'b.ts', range: { start: 1, end: 40 } });
	});

	it('maps severities and leaves out a missing source', () => {
		expect(toDiagnostic({ ...typeError, severity: 3, source: undefined, code: undefined })).toEqual({
			range: { start: 31, end: 31, column: 7 },
			severity: 'hint',
			message: typeError.message,
		});
		expect(toDiagnostic({ ...typeError, severity: 2, code: undefined }).source).toBe('ts');
		expect(toDiagnostic({ ...typeError, severity: 2 }).severity).toBe('info');
	});

	it('titles the quick fix plainly for one diagnostic, with its message when several are at the cursor', () => {
		expect(fixActionTitle('x is unused', 1)).toBe('Ask MassGen team to fix');
		expect(fixActionTitle('x is unused\nmore detail', 2)).toBe('Ask MassGen team to fix: x is unused');
		const long = fixActionTitle('y'.repeat(100), 3);
		expect(long).toBe(`Ask MassGen team to fix: ${'y'.repeat(59)}…`);
	});
});
