import { afterEach, describe, expect, it } from 'vitest';
import * as vscode from 'vscode';
import type { SteerMessage, SteerOutcome } from '../../../src/core/run/runControl';
import { initialRunState, type RunState } from '../../../src/protocol/runState';
import { finishNow, sendMessageToTeam } from '../../../src/vscode/commands/steerTeam';
import type { ActiveRunInfo } from '../../../src/vscode/run/runTypes';

type Window = Record<string, unknown>;
const window = vscode.window as unknown as Window;
const saved = { ...window };

/** Answers the palette's questions in order (quick picks by label, input boxes by value). */
function answer(...replies: (string | undefined)[]): string[] {
	const asked: string[] = [];
	const next = () => replies.shift();
	window['showQuickPick'] = async (items: { label: string }[], options: { placeHolder?: string }) => {
		asked.push(options.placeHolder ?? '');
		const label = next();
		return items.find((item) => (typeof item === 'string' ? item : item.label) === label);
	};
	window['showInputBox'] = async (options: { title?: string; validateInput?: (v: string) => unknown }) => {
		asked.push(options.title ?? '');
		const value = next();
		expect(options.validateInput?.('  ')).toBe('Type a message.');
		return value;
	};
	window['setStatusBarMessage'] = (text: string) => void asked.push(`status: ${text}`);
	window['showWarningMessage'] = async (text: string) => void asked.push(`warning: ${text}`);
	window['showInformationMessage'] = async (text: string) => void asked.push(`info: ${text}`);
	return asked;
}

function running(
	runId: string,
	question: string,
	agents: Record<string, RunState['agents'][string]['state']>,
) {
	const state = initialRunState();
	return {
		ticket: `t-${runId}`,
		runId,
		request: { question, kind: 'ask' },
		folder: { name: 'ws' },
		phase: 'running',
		state: {
			...state,
			agentOrder: Object.keys(agents),
			agents: Object.fromEntries(Object.entries(agents).map(([id, s]) => [id, { state: s }])),
		},
		askedAt: 0,
		startedAt: 0,
	} as unknown as ActiveRunInfo;
}

function runsWith(active: ActiveRunInfo[], outcome: SteerOutcome = { ok: true, id: 1, agents: ['b'] }) {
	const calls: unknown[][] = [];
	return {
		calls,
		runs: {
			active: () => active,
			steer: (runId: string, message: SteerMessage) => (calls.push(['steer', runId, message]), outcome),
			finishNow: (runId: string) => (
				calls.push(['finishNow', runId]),
				{ ok: false as const, reason: 'The run is not going.' }
			),
		},
	};
}

afterEach(() => Object.assign(window, saved));

describe('Send Message to Team and Finish Now (palette)', () => {
	it('the only run: to one agent (a stopped one is not offered), the text, votes again', async () => {
		const asked = answer('b', 'Use SQLite', 'Send: they vote again');
		let offered: string[] = [];
		const pick = window['showQuickPick'] as (items: { label: string }[], o: object) => Promise<unknown>;
		window['showQuickPick'] = (items: { label: string }[], o: object) => {
			if (offered.length === 0) offered = items.map((item) => item.label);
			return pick(items, o);
		};
		const { runs, calls } = runsWith([running('r1', 'Plan it', { a: 'streaming', b: 'voted', c: 'killed' })]);
		expect(await sendMessageToTeam(runs, undefined)).toBe(true);
		expect(offered).toEqual(['All agents', 'a', 'b']);
		expect(calls).toEqual([['steer', 'r1', { text: 'Use SQLite', noteOnly: false, agentId: 'b' }]]);
		expect(asked.at(-1)).toBe('status: MassGen: message sent to b');
	});

	it('several runs: asks which; a note to all; the run’s refusal is shown with its reason', async () => {
		const asked = answer('“Second”', 'All agents', 'FYI', 'Send as a note: votes stand');
		const { runs, calls } = runsWith(
			[running('r1', 'First', { a: 'idle', b: 'idle' }), running('r2', 'Second', { a: 'idle', b: 'idle' })],
			{ ok: false, reason: 'The run is not going.' },
		);
		expect(await sendMessageToTeam(runs, undefined)).toBe(false);
		expect(calls).toEqual([['steer', 'r2', { text: 'FYI', noteOnly: true }]]);
		expect(asked.at(-1)).toBe('warning: MassGen: message not sent: The run is not going.');
	});

	it('nothing is sent when the user escapes, or when no run goes (a queued one has no team yet)', async () => {
		answer('All agents', undefined);
		const { runs, calls } = runsWith([running('r1', 'Plan it', { a: 'idle', b: 'idle' })]);
		expect(await sendMessageToTeam(runs, undefined)).toBe(false);
		const queued = { ...running('r1', 'Plan it', {}), runId: undefined, phase: 'queued' } as ActiveRunInfo;
		const asked = answer();
		expect(await sendMessageToTeam(runsWith([queued]).runs, undefined)).toBe(false);
		expect(asked).toEqual(['info: MassGen: no run is going.']);
		expect(calls).toEqual([]);
	});

	it('Finish Now: the run its argument names; a refusal is shown with its reason', async () => {
		const asked = answer();
		const { runs, calls } = runsWith([running('r1', 'First', {}), running('r2', 'Second', {})]);
		expect(await finishNow(runs, 'r2')).toBe(false);
		expect(calls).toEqual([['finishNow', 'r2']]);
		expect(asked).toEqual(['warning: MassGen: cannot finish now: The run is not going.']);
	});
});
