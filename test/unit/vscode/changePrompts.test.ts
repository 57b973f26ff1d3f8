/**
 * The accept modal's per-file reasons: a file whose base was not kept says so (the team saw it
 * only through a command), never that the user's edits overlap the team's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as vscode from 'vscode';
import { windowPrompts } from '../../../src/vscode/changes/changePrompts.js';

const shown: { message: string; detail: string }[] = [];
const window = vscode.window as unknown as Record<string, unknown>;
window.showWarningMessage = async (message: string, options: { detail: string }) => {
	shown.push({ message, detail: options.detail });
	return undefined;
};
afterEach(() => void (shown.length = 0));

describe('windowPrompts.conflicts: why each file needs the user', () => {
	it('"unseen": the team saw it only through a command and its view was not kept', async () => {
		await windowPrompts.conflicts([{ path: 'notes.txt', reason: 'unseen' }], 0);
		expect(shown[0]!.detail).toContain(
			'notes.txt: the team saw it only through a command and its view was not kept; you changed it since: compare and accept by hand',
		);
		expect(shown[0]!.detail).not.toContain('overlap');
	});

	it('control: an overlap still says the edits overlap', async () => {
		await windowPrompts.conflicts([{ path: 'notes.txt', reason: 'overlap' }], 0);
		expect(shown[0]!.detail).toContain('notes.txt: your edits overlap the team’s');
	});
});
