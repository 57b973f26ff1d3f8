import { describe, expect, it } from 'vitest';
import { AgentExecution, type ExecutionContext } from '../../../src/core/agents/agentExecution.js';
import type { SteerFeed } from '../../../src/core/agents/steering.js';
import type { TurnStep } from '../../../src/core/agents/turn.js';
import type { RunEventBody, SteerRecord } from '../../../src/contract/runEvents.js';
import { Board } from '../../../src/core/orchestrator/board.js';
import { defaultOrchestratorSettings } from '../../../src/core/orchestrator/types.js';
import { ScriptedModel } from '../../../src/core/providers/vendors/scriptedModel.js';
import { createToolbox } from '../../../src/core/tools/createToolbox.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { ManualClock } from '../../support/manualClock.js';

/**
 * A coordination execution whose tool loop outgrows its context window: it compacts between
 * steps (a summary call reported with its usage), keeps the task, the UPDATE and the user's
 * steering message verbatim, and ends in its answer.
 */
describe('an execution compacts its conversation', () => {
	it('reads six 3 KB files in a 4,000-token window: summary, pinned messages verbatim, then its answer', async () => {
		const files = Object.fromEntries(
			Array.from({ length: 6 }, (_, i) => [`part${i + 1}.md`, `PART-${i + 1} ${'z'.repeat(3_000)}`]),
		);
		const workspace = await createWorkspace(makeWorkspaceDir(files));
		const overlay = workspace.createOverlay();
		const board = new Board(['alice', 'bob']);
		const steer: SteerRecord = { id: 1, text: 'Also count the parts.', noteOnly: true, t: 0 };
		let steered = false;
		const steering: SteerFeed = {
			since: (_agent, after) => (steered && after < 1 ? [steer] : []),
			lastInvalidating: () => 0,
		};
		let reads = 0;
		const model = new ScriptedModel((request) => {
			const usage = { inputTokens: 777, outputTokens: 9 };
			if (request.tools.length === 0) return { text: 'SUMMARY: parts read so far.', usage };
			if (reads < 6) return { toolCalls: [{ name: 'read_file', arguments: { path: `part${++reads}.md` } }] };
			return { toolCalls: [{ name: 'new_answer', arguments: { content: 'There are six parts.' } }] };
		});
		const events: RunEventBody[] = [];
		const context: ExecutionContext = {
			runId: 'run',
			question: 'What do the parts say?',
			history: [],
			attachments: [],
			restartFeedback: '',
			settings: defaultOrchestratorSettings,
			clock: new ManualClock(),
			emit: (body) => events.push(body),
			steering,
			anonIds: board.anonIds,
			peers: board,
			toolbox: (answers) => createToolbox({ overlay, writable: true, answers }),
		};
		const turn = new AgentExecution(
			{ id: 'alice', model, contextWindow: 4_000, maxOutputTokens: 200 },
			'agent1',
			overlay,
			context,
			new AbortController().signal,
		);
		const steps: TurnStep<unknown>[] = [];
		for (let step = await turn.next(); ; step = await turn.next()) {
			steps.push(step);
			if (step.kind === 'tools') await turn.runTools(step.calls);
			if (reads === 2 && !steered) {
				steered = true;
				board.acceptAnswer('bob', 'BOB-ANSWER', workspace.createOverlay().snapshot(), 0);
			}
			if (step.kind === 'done' || step.kind === 'stopped' || (step.kind === 'called' && step.failure)) break;
		}
		expect(steps.at(-1)).toMatchObject({
			kind: 'done',
			value: { kind: 'answer', content: 'There are six parts.' },
		});
		const summaries = model.requests.filter((request) => request.tools.length === 0);
		expect(summaries.length).toBeGreaterThan(0);
		expect(steps.filter((s) => s.kind === 'called' && s.report.usage?.inputTokens === 777)).toHaveLength(
			summaries.length,
		);
		expect(events.filter((e) => e.type === 'compacted')).toHaveLength(summaries.length);
		// The last request: the task first, then the summary; the UPDATE and the user's message verbatim.
		const last = model.requests.at(-1)!;
		const texts = last.messages.map((message) => message.content);
		expect(texts[0]).toContain('What do the parts say?');
		expect(texts[1]).toContain('SUMMARY: parts read so far.');
		expect(texts.some((text) => text.includes('BOB-ANSWER'))).toBe(true);
		expect(texts.some((text) => text.includes('Also count the parts.'))).toBe(true);
		expect(texts.join('\n')).not.toContain('PART-1 ');
		expect(texts.join('\n')).toContain('PART-6');
	});
});
