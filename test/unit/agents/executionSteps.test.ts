import { describe, expect, it } from 'vitest';
import { AgentExecution, type ExecutionContext } from '../../../src/core/agents/agentExecution.js';
import type { TurnStep } from '../../../src/core/agents/turn.js';
import { defaultOrchestratorSettings } from '../../../src/core/orchestrator/types.js';
import { Board } from '../../../src/core/orchestrator/board.js';
import type { RunEventBody } from '../../../src/contract/runEvents.js';
import { ScriptedModel, type ScriptedHandler } from '../../../src/core/providers/vendors/scriptedModel.js';
import { createToolbox } from '../../../src/core/tools/createToolbox.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { noSteering } from '../../../src/core/agents/steering.js';
import { answer, makeWorkspaceDir, vote } from '../../fakes/team.js';
import { ManualClock } from '../../support/manualClock.js';

/** One execution of `alice` (agent1) against a board it only reads; nothing applies its decisions. */
async function execution(handler: ScriptedHandler, board: Board) {
	const workspace = await createWorkspace(makeWorkspaceDir());
	const overlay = workspace.createOverlay();
	const events: RunEventBody[] = [];
	const model = new ScriptedModel(handler);
	const context: ExecutionContext = {
		runId: 'run',
		question: 'What is 2 + 2?',
		history: [],
		attachments: [],
		restartFeedback: '',
		settings: defaultOrchestratorSettings,
		steering: noSteering,
		clock: new ManualClock(),
		emit: (body) => events.push(body),
		anonIds: board.anonIds,
		peers: board,
		toolbox: (answers) => createToolbox({ overlay, writable: true, answers }),
	};
	const turn = new AgentExecution(
		{ id: 'alice', model },
		'agent1',
		overlay,
		context,
		new AbortController().signal,
	);
	return { turn, events, model, workspace };
}

async function untilDone<T>(next: () => Promise<TurnStep<T>>): Promise<TurnStep<T>[]> {
	const steps: TurnStep<T>[] = [];
	for (let step = await next(); ; step = await next()) {
		steps.push(step);
		if (step.kind === 'done' || step.kind === 'stopped') return steps;
	}
}

describe('an execution returns its decisions as values', () => {
	it('an answer comes back with its usage and leaves the board as it was', async () => {
		const board = new Board(['alice', 'bob']);
		const { turn } = await execution(() => answer('4'), board);
		const steps = await untilDone(() => turn.next());
		expect(steps.map((step) => step.kind)).toEqual(['called', 'done']);
		expect(steps[0]).toMatchObject({ report: { completed: true, usage: { inputTokens: 100 } } });
		expect(steps[1]).toMatchObject({ value: { kind: 'answer', content: '4' } });
		expect(board.answerCount('alice')).toBe(0);
		expect(board.snapshot().version).toBe(0);
	});

	it('a vote names the snapshot it saw; told it was stale, it sees the new answer and votes again', async () => {
		const board = new Board(['alice', 'bob']);
		const { workspace } = await execution(() => answer('x'), board);
		board.acceptAnswer('bob', 'B1', workspace.createOverlay().snapshot(), 0);
		const { turn, events, model } = await execution(() => vote('agent2'), board);
		const first = (await untilDone(() => turn.next())).at(-1)!;
		expect(first).toMatchObject({
			kind: 'done',
			value: { kind: 'vote', snapshotVersion: 1, reason: 'best' },
		});
		board.acceptAnswer('bob', 'B2', workspace.createOverlay().snapshot(), 0);
		if (first.kind !== 'done' || first.value.kind !== 'vote') throw new Error('expected a vote');
		turn.voteWasStale(first.value);
		expect(events.filter((event) => event.type === 'update-injected')).toEqual([
			{ type: 'update-injected', agentId: 'alice', labels: ['agent2.2'] },
		]);
		const second = (await untilDone(() => turn.next())).at(-1)!;
		expect(second).toMatchObject({ kind: 'done', value: { kind: 'vote', snapshotVersion: 2 } });
		expect(model.requests[1]!.messages.at(-1)).toMatchObject({
			role: 'tool',
			toolName: 'vote',
			isError: true,
		});
	});

	it('a failed call comes back as a failure, and the next step issues the same request again', async () => {
		const board = new Board(['alice']);
		let calls = 0;
		const { turn, model } = await execution(
			() => (++calls === 1 ? { fail: { kind: 'server', status: 500 } } : answer('4')),
			board,
		);
		const steps = await untilDone(() => turn.next());
		expect(steps.map((step) => step.kind)).toEqual(['called', 'called', 'done']);
		expect(steps[0]).toMatchObject({ failure: { kind: 'server' }, report: { completed: false } });
		expect(model.requests[1]!.messages).toEqual(model.requests[0]!.messages);
	});
});
