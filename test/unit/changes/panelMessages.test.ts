import { describe, expect, it } from 'vitest';
import { parseWebviewMessage } from '../../../src/protocol/webviewMessageSchema';
import { dispatchWebviewMessage, type PanelActions } from '../../../src/vscode/panel/dispatchWebviewMessage';

describe('change review messages from the panel', () => {
	it('reach the change actions with the hunk selection, run id and diff version', async () => {
		const calls: unknown[][] = [];
		const record =
			(name: string) =>
			(...args: unknown[]) =>
				void calls.push([name, ...args]);
		const actions: PanelActions = {
			ready: record('ready'),
			ask: record('ask'),
			cancel: record('cancel'),
			openDiff: record('openDiff'),
			accept: record('accept'),
			reject: record('reject'),
			openRun: record('openRun'),
			approval: record('approval'),
			selectHunks: record('selectHunks'),
		};
		const send = (raw: unknown) =>
			dispatchWebviewMessage(raw, parseWebviewMessage, actions, { warn: () => undefined });
		const hunks = [{ path: 'src/a.ts', ids: ['final#0', 'alt#1'] }];
		expect(await send({ type: 'accept', hunks, runId: '20250102-030405-ab12' })).toBe(true);
		const runId = '20250102-030405-ab12';
		expect(
			await send({ type: 'select-hunks', runId, path: 'src/a.ts', ids: ['final#1'], selected: false }),
		).toBe(true);
		expect(await send({ type: 'open-diff', runId, path: 'src/a.ts', version: 'agent2.1' })).toBe(true);
		expect(await send({ type: 'select-hunks', runId, path: 'src/a.ts', ids: ['../x'], selected: true })).toBe(
			false,
		);
		// A message from a panel that names no run reaches nothing.
		expect(await send({ type: 'select-hunks', path: 'src/a.ts', ids: ['final#1'], selected: true })).toBe(
			false,
		);
		expect(calls).toEqual([
			['accept', { hunks, runId }],
			['selectHunks', runId, 'src/a.ts', ['final#1'], false],
			['openDiff', runId, 'src/a.ts', 'agent2.1'],
		]);
	});

	it('a panel without hunk selection support ignores select-hunks', async () => {
		const actions = {
			ready() {},
			ask() {},
			cancel() {},
			openDiff() {},
			accept() {},
			reject() {},
			openRun() {},
			approval() {},
		} satisfies PanelActions;
		expect(
			await dispatchWebviewMessage(
				{ type: 'select-hunks', runId: '20250102-030405-ab12', path: 'a', ids: ['final#0'], selected: true },
				parseWebviewMessage,
				actions,
				{ warn: () => undefined },
			),
		).toBe(true);
	});
});
