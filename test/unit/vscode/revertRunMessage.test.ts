import { describe, expect, it } from 'vitest';
import {
	dispatchWebviewMessage,
	type PanelActions,
} from '../../../src/vscode/panel/dispatchWebviewMessage.js';
import { parseWebviewMessage } from '../../../src/protocol/webviewMessageSchema.js';

describe("the panel's revert-run message", () => {
	const noop = () => undefined;
	const base: PanelActions = {
		ready: noop,
		ask: noop,
		cancel: noop,
		openDiff: noop,
		accept: noop,
		reject: noop,
		openRun: noop,
		approval: noop,
	};

	it('reaches revertRun with the run id', async () => {
		const calls: string[] = [];
		const actions = { ...base, revertRun: (runId: string) => void calls.push(runId) };
		const ok = await dispatchWebviewMessage(
			{ type: 'revert-run', runId: '20261201-120000-ab12' },
			parseWebviewMessage,
			actions,
			{ warn: noop },
		);
		expect(ok).toBe(true);
		expect(calls).toEqual(['20261201-120000-ab12']);
	});

	it('is refused unless the id is a run id (no path traversal), and ignored by hosts without the action', async () => {
		const warnings: string[] = [];
		for (const runId of ['../../etc', '2026-12-01', '']) {
			const sent = await dispatchWebviewMessage({ type: 'revert-run', runId }, parseWebviewMessage, base, {
				warn: (message) => warnings.push(message),
			});
			expect(sent).toBe(false);
		}
		expect(warnings).toHaveLength(3);
		const run = { type: 'revert-run', runId: '20261201-120000-ab12' };
		expect(await dispatchWebviewMessage(run, parseWebviewMessage, base, { warn: noop })).toBe(true);
	});
});
