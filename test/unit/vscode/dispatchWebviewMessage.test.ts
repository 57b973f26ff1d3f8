import { describe, expect, it } from 'vitest';
import { parseWebviewMessage } from '../../../src/protocol/webviewMessageSchema';
import { dispatchWebviewMessage, type PanelActions } from '../../../src/vscode/panel/dispatchWebviewMessage';

const R = '20261130-040000-ab12';

function recorder() {
	const calls: unknown[][] = [];
	const warnings: string[] = [];
	const record =
		(name: string) =>
		(...args: unknown[]) => {
			calls.push([name, ...args]);
		};
	const actions: PanelActions = {
		ready: record('ready'),
		ask: record('ask'),
		cancel: record('cancel'),
		steer: record('steer'),
		finishNow: record('finishNow'),
		openDiff: record('openDiff'),
		accept: record('accept'),
		selectHunks: record('selectHunks'),
		commentHunk: record('commentHunk'),
		sendToTeam: record('sendToTeam'),
		reject: record('reject'),
		openRun: record('openRun'),
		approval: record('approval'),
		searchContext: record('searchContext'),
		pickContext: record('pickContext'),
		dropUris: record('dropUris'),
		openLink: record('openLink'),
		focus: record('focus'),
	};
	const send = (raw: unknown) =>
		dispatchWebviewMessage(raw, parseWebviewMessage, actions, { warn: (m) => warnings.push(m) });
	return { calls, warnings, send };
}

describe('dispatchWebviewMessage', () => {
	it('dispatches every valid message type to its action', async () => {
		const { calls, send } = recorder();
		const valid = [
			{ type: 'ready' },
			{ type: 'ask', question: '  Why?  ' },
			{ type: 'ask', question: 'Add a flag', mode: 'plan' },
			{ type: 'cancel', runId: R },
			{ type: 'steer', runId: R, text: '  Use SQLite  ', noteOnly: false },
			{ type: 'steer', runId: R, text: 'Be brief', agentId: 'b', noteOnly: true },
			{ type: 'finish-now', runId: R },
			{ type: 'open-diff', runId: R, path: 'src/a.ts' },
			{ type: 'accept', runId: R },
			{ type: 'accept', runId: R, paths: ['src/a.ts'] },
			{ type: 'reject', runId: R },
			{ type: 'open-run', runId: '20261130-040000-ab12' },
			{ type: 'approval', requestId: 'r1', decision: 'deny' },
			{ type: 'open-diff', runId: R, path: 'src/a.ts', version: 'final' },
			{ type: 'accept', hunks: [{ path: 'src/a.ts', ids: ['final#1'] }], runId: '20261130-040000-ab12' },
			{ type: 'select-hunks', runId: R, path: 'src/a.ts', ids: ['alt#2'], selected: true },
			{ type: 'comment-hunk', runId: R, path: 'src/a.ts', hunkId: 'final#0' },
			{ type: 'send-to-team', runId: R },
			{ type: 'search-context', query: 'src', requestId: 'q1' },
			{ type: 'pick-context' },
			{ type: 'drop-uris', uris: ['file:///w/a.ts'] },
			{ type: 'open-link', url: 'https://nodejs.org/en/blog' },
			{ type: 'focus', focused: true },
		];
		for (const message of valid) expect(await send(message)).toBe(true);
		expect(calls).toEqual([
			['ready'],
			['ask', 'Why?', [], 'ask'],
			['ask', 'Add a flag', [], 'plan'],
			['cancel', R],
			['steer', R, { text: 'Use SQLite', noteOnly: false }],
			['steer', R, { text: 'Be brief', noteOnly: true, agentId: 'b' }],
			['finishNow', R],
			['openDiff', R, 'src/a.ts'],
			['accept', { runId: R }],
			['accept', { runId: R, paths: ['src/a.ts'] }],
			['reject', R],
			['openRun', '20261130-040000-ab12'],
			['approval', 'r1', 'deny', undefined],
			['openDiff', R, 'src/a.ts', 'final'],
			['accept', { hunks: [{ path: 'src/a.ts', ids: ['final#1'] }], runId: '20261130-040000-ab12' }],
			['selectHunks', R, 'src/a.ts', ['alt#2'], true],
			['commentHunk', R, 'src/a.ts', 'final#0'],
			['sendToTeam', R],
			['searchContext', 'src', 'q1'],
			['pickContext'],
			['dropUris', ['file:///w/a.ts']],
			['openLink', 'https://nodejs.org/en/blog'],
			['focus', true],
		]);
	});

	it('logs and ignores invalid messages without calling anything', async () => {
		const { calls, warnings, send } = recorder();
		const invalid = [
			null,
			'ready',
			{ type: 'nope' },
			{ type: 'ask', question: '   ' },
			{ type: 'ask', question: 'x', extra: 1 },
			{ type: 'open-diff', runId: R, path: '../etc/passwd' },
			{ type: 'open-diff', runId: R, path: '/abs/path' },
			{ type: 'open-run', runId: '../../x' },
			{ type: 'approval', requestId: 'r1', decision: 'sure' },
			{ type: 'open-link', url: 'javascript:alert(1)' },
			{ type: 'open-link', url: 'command:massgen.acceptChanges' },
			{ type: 'focus', focused: 1 },
			{ type: 'steer', runId: R, text: 'x'.repeat(8_001), noteOnly: false },
			{ type: 'finish-now', runId: 'not-a-run' },
		];
		for (const message of invalid) expect(await send(message)).toBe(false);
		expect(calls).toEqual([]);
		expect(warnings).toHaveLength(invalid.length);
		expect(warnings.every((w) => w.startsWith('panel: ignored a message: invalid webview message'))).toBe(
			true,
		);
	});
});
