import { afterEach, describe, expect, it } from 'vitest';
import * as vscode from 'vscode';
import { AttachmentError } from '../../../src/core/context/attachment';
import { reportAttachmentProblem } from '../../../src/vscode/run/runMessages';

const fakeWindow = vscode.window as unknown as {
	showErrorMessage: (...args: unknown[]) => Promise<undefined>;
};
const original = fakeWindow.showErrorMessage;

afterEach(() => {
	fakeWindow.showErrorMessage = original;
});

describe('an attachment the core refuses', () => {
	it('is told by its mark (the engine bundle has its own class), not by instanceof', () => {
		expect(AttachmentError.is(new AttachmentError("cannot attach '.env': a secrets file"))).toBe(true);
		const fromOtherBundle = Object.assign(new Error('x'), { [Symbol.for('massgen.AttachmentError')]: true });
		expect(fromOtherBundle instanceof AttachmentError).toBe(false);
		expect(AttachmentError.is(fromOtherBundle)).toBe(true);
		expect(AttachmentError.is(new Error('cannot attach'))).toBe(false);
		expect(AttachmentError.is('AttachmentError')).toBe(false);
	});

	it('is shown with the reason (redacted) and logged', () => {
		const shown: unknown[][] = [];
		fakeWindow.showErrorMessage = async (...args: unknown[]) => void shown.push(args);
		const logged: string[] = [];
		const log = { error: (line: string) => logged.push(line) } as unknown as vscode.LogOutputChannel;
		const error = new AttachmentError("cannot attach '.env': refused: '.env' is a secrets file (key sk-1)");
		reportAttachmentProblem(log, error, (text) => text.replace('sk-1', '[redacted]'));
		expect(shown).toEqual([
			[
				"MassGen: the run did not start: cannot attach '.env': refused: '.env' is a secrets file (key [redacted])",
			],
		]);
		expect(logged).toEqual([`attachment refused: ${error.message}`]);
	});
});
