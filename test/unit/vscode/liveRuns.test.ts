import { describe, expect, it } from 'vitest';
import * as vscode from 'vscode';
import { ApprovalBroker } from '../../../src/core/permissions/approvalBroker';
import { LiveRuns } from '../../../src/vscode/pastRuns/liveRuns';
import type { ActiveRunInfo, FinishedRun, StartedRun } from '../../../src/vscode/run/runTypes';

/** The controller's side the live rows read, driven by the test. */
function controller() {
	let active: ActiveRunInfo[] = [];
	const changed = new vscode.EventEmitter<void>();
	const started = new vscode.EventEmitter<StartedRun>();
	const finished = new vscode.EventEmitter<FinishedRun>();
	const run = (ticket: string, phase: ActiveRunInfo['phase'], runId?: string) =>
		({
			ticket,
			runId,
			request: { question: `Q ${ticket}`, kind: 'ask' },
			folder: { name: 'app' },
			phase,
		}) as ActiveRunInfo;
	return {
		source: {
			active: () => active,
			onDidChangeActive: changed.event,
			onDidStartRun: started.event,
			onDidFinishRun: finished.event,
		},
		set(runs: ActiveRunInfo[]) {
			active = runs;
			changed.fire();
		},
		run,
		start: (ticket: string, runId: string) =>
			started.fire({ ticket, runId, request: { question: '', kind: 'ask' } }),
		finish(ticket: string, runId: string, status: 'completed' | 'failed', files: number) {
			active = active.filter((r) => r.ticket !== ticket);
			finished.fire({
				request: { question: `Q ${ticket}`, kind: 'ask' },
				folder: { name: 'app' },
				result: { runId, status, changes: Array.from({ length: files }, () => ({})) },
			} as unknown as FinishedRun);
			changed.fire();
		},
	};
}

function ask(broker: ApprovalBroker, runId: string) {
	return broker.request(
		{
			runId,
			agentId: 'alpha',
			tool: 'run_command',
			action: 'command',
			target: 'npm publish',
			args: {},
			reason: 'high risk',
			risk: { level: 'high', reasons: [] },
			key: 'k',
			grantRule: 'command(npm publish)',
			timeoutMs: 60_000,
			emit: () => undefined,
		},
		new AbortController().signal,
	);
}

describe('LiveRuns (the Runs view’s top rows and badge)', () => {
	it('follows the controller, the broker and the change sets; fires only when the rows or the badge read differently', async () => {
		const runs = controller();
		const broker = new ApprovalBroker();
		const changeSets = new vscode.EventEmitter<unknown>();
		let pending: string[] = [];
		const live = new LiveRuns(runs.source, broker, {
			pendingRunIds: () => pending,
			onDidChange: changeSets.event,
		});
		let fired = 0;
		live.onDidChange(() => fired++);
		const states = () => live.rows().map((row) => `${row.id} ${row.state}`);

		runs.set([runs.run('run-1', 'starting')]);
		runs.start('run-1', 'r1');
		runs.set([runs.run('run-1', 'running', 'r1'), runs.run('run-2', 'queued')]);
		expect(states()).toEqual(['live:run-1 working', 'live:run-2 queued']);
		expect(fired).toBe(2);
		// The same list again (a batch, a selection change elsewhere): nothing to redraw.
		runs.set([runs.run('run-1', 'running', 'r1'), runs.run('run-2', 'queued')]);
		changeSets.fire(null);
		expect(fired).toBe(2);

		const answer = ask(broker, 'r1');
		expect(states()[0]).toBe('live:run-1 approval');
		expect(live.needsUser()).toBe(1);
		expect(live.find('r1')).toEqual({ question: 'Q run-1', folderName: 'app' });
		expect(fired).toBe(3);
		broker.resolve(broker.pending()[0]!.requestId, 'deny');
		await answer;
		expect(states()[0]).toBe('live:run-1 working');
		expect(fired).toBe(4);

		// run-1 ends with changes: its row keeps its id and reads "changes to review" once the set is pending.
		runs.finish('run-1', 'r1', 'completed', 2);
		expect(states()).toEqual(['live:run-2 queued']);
		pending = ['r1'];
		changeSets.fire(null);
		expect(states()).toEqual(['live:run-2 queued', 'live:run-1 changes']);
		expect(live.needsUser()).toBe(1);
		pending = [];
		changeSets.fire(null);
		expect(states()).toEqual(['live:run-2 queued']);
		expect(live.needsUser()).toBe(0);

		// A failed run stays until the history lists it.
		runs.set([runs.run('run-2', 'running', 'r2')]);
		runs.start('run-2', 'r2');
		runs.finish('run-2', 'r2', 'failed', 0);
		expect(live.rows().map((row) => `${row.id} ${row.state}`)).toEqual(['live:run-2 failed']);
		expect(live.rows(new Set(['r2']))).toEqual([]);
		live.dispose();
	});
});
