/**
 * Post-evaluation (MassGen's `max_orchestration_restarts`, docs/protocol.md): the winner checks its
 * presented answer, reading the files as the answer proposes them, and may send coordination back
 * once per allowed restart; the next attempt's agents all read its reasons; nothing of a discarded
 * attempt is written or kept in the result.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/providers/spec/model.js';
import type { ScriptedHandler, ScriptedReply } from '../../../src/core/providers/vendors/scriptedModel.js';
import { answer, makeWorkspaceDir, read, runTeam, vote } from '../../fakes/team.js';
import { hashFiles } from '../../support/tempTree.js';
import { ManualClock } from '../../support/manualClock.js';

const isEvaluation = (request: ChatRequest) => request.tools.some((tool) => tool.name === 'submit');
const restart = (reason: string, instructions: string): ScriptedReply => ({
	toolCalls: [{ name: 'restart_orchestration', arguments: { reason, instructions } }],
});
const submit: ScriptedReply = { toolCalls: [{ name: 'submit', arguments: { confirmed: true } }] };

/**
 * Answers (attempt N's text), votes for the first answer, presents; `evaluate` decides after each
 * presentation. The attempt number is the team's (`shared`): any member's restart starts the next.
 */
function member(
	name: string,
	evaluate: (request: ChatRequest, attempt: number) => ScriptedReply,
	seen: ChatRequest[],
	shared: { attempt: number } = { attempt: 1 },
): ScriptedHandler {
	let answeredIn = 0;
	return (request) => {
		seen.push(request);
		if (isEvaluation(request)) {
			const reply = evaluate(request, shared.attempt);
			if (reply.toolCalls?.[0]?.name === 'restart_orchestration') shared.attempt++;
			return reply;
		}
		const { attempt } = shared;
		if (read.isPresentation(request)) {
			// The winner proposes a file in its presentation: the evaluator reads it through its overlay.
			if (request.messages.at(-1)?.role !== 'tool') {
				return {
					toolCalls: [
						{ name: 'write_file', arguments: { path: 'out.txt', content: `attempt ${attempt}\n` } },
					],
				};
			}
			return { text: `final of attempt ${attempt} by ${name}` };
		}
		const options = read.voteOptions(request);
		if (answeredIn < attempt || options.length === 0) {
			answeredIn = attempt;
			return answer(`${name}'s answer in attempt ${attempt}`);
		}
		return vote(options[0]!);
	};
}

describe('post-evaluation', () => {
	it('restarts once with the reasons every agent reads, then the second attempt stands; nothing is written', async () => {
		const root = makeWorkspaceDir({ 'README.md': 'readme\n' });
		const before = hashFiles(root);
		const seenA: ChatRequest[] = [];
		const seenB: ChatRequest[] = [];
		let evaluatorRead = '';
		const evaluate = (request: ChatRequest, attempt: number): ScriptedReply => {
			if (attempt === 1) {
				if (request.messages.at(-1)?.role !== 'tool') {
					return { toolCalls: [{ name: 'read_file', arguments: { path: 'out.txt' } }] };
				}
				evaluatorRead = String(request.messages.at(-1)?.content);
				return restart('out.txt says attempt 1', 'Write the file again for the second attempt.');
			}
			return submit;
		};
		const team = { attempt: 1 };
		const run = await runTeam(
			[
				{ id: 'a', handler: member('a', evaluate, seenA, team) },
				{ id: 'b', handler: member('b', evaluate, seenB, team) },
			],
			{ clock: new ManualClock(), root, settings: { maxOrchestrationRestarts: 2 } },
		);
		expect(run.result.status).toBe('completed');
		// The evaluator read the file as the presentation proposed it (not yet on disk).
		expect(evaluatorRead).toContain('attempt 1');
		expect(run.of('evaluation-end').map((e) => e.verdict)).toEqual(['restart', 'submitted']);
		expect(run.of('attempt-start')).toMatchObject([
			{
				attempt: 2,
				reason: 'out.txt says attempt 1',
				instructions: 'Write the file again for the second attempt.',
			},
		]);
		// Every agent's first coordination message of attempt 2 carries the feedback; attempt 1's did not.
		for (const seen of [seenA, seenB]) {
			const firsts = seen.filter(
				(r) => !isEvaluation(r) && !read.isPresentation(r) && r.messages.length === 1,
			);
			expect(firsts[0]!.messages[0]!.content).not.toContain('PREVIOUS ATTEMPT FEEDBACK');
			const second = firsts.find((r) => r.messages[0]!.content.includes('PREVIOUS ATTEMPT FEEDBACK'));
			expect(second?.messages[0]!.content).toContain('Why: out.txt says attempt 1');
			expect(second?.messages[0]!.content).toContain('final of attempt 1 by a');
		}
		// Only the accepted attempt counts: its answer, its change, its answers and votes.
		expect(run.result.finalAnswer).toBe('final of attempt 2 by a');
		expect(run.result.changes.map((c) => [c.path, c.content])).toEqual([['out.txt', 'attempt 2\n']]);
		expect(run.result.answers.map((a) => a.content).sort()).toEqual([
			"a's answer in attempt 2",
			"b's answer in attempt 2",
		]);
		expect(run.result.restarts).toMatchObject([
			{
				attempt: 1,
				winner: { agentId: 'a' },
				finalAnswer: 'final of attempt 1 by a',
				reason: 'out.txt says attempt 1',
			},
		]);
		expect(run.of('final-answer')).toHaveLength(1);
		expect(hashFiles(root)).toEqual(before);
	});

	it('stops restarting when the restarts are used up: the last attempt stands without an evaluation', async () => {
		const seen: ChatRequest[] = [];
		const always = () => restart('never good enough', 'Try again.');
		const team = { attempt: 1 };
		const run = await runTeam(
			[
				{ id: 'a', handler: member('a', always, seen, team) },
				{ id: 'b', handler: member('b', always, seen, team) },
			],
			{ clock: new ManualClock(), settings: { maxOrchestrationRestarts: 1 } },
		);
		expect(run.result.status).toBe('completed');
		expect(run.of('evaluation-start')).toHaveLength(1);
		expect(run.of('attempt-start')).toHaveLength(1);
		expect(run.result.finalAnswer).toBe('final of attempt 2 by a');
		expect(run.result.restarts).toHaveLength(1);
	});

	it('no verdict call leaves the answer standing (auto), and without restarts configured there is no evaluation', async () => {
		const seen: ChatRequest[] = [];
		const silent = (): ScriptedReply => ({ text: 'It looks complete.' });
		const run = await runTeam(
			[
				{ id: 'a', handler: member('a', silent, seen) },
				{ id: 'b', handler: member('b', silent, seen) },
			],
			{ clock: new ManualClock(), settings: { maxOrchestrationRestarts: 1 } },
		);
		expect(run.of('evaluation-end')).toMatchObject([{ verdict: 'auto', reason: 'no verdict call' }]);
		expect(run.result.finalAnswer).toBe('final of attempt 1 by a');
		expect(run.result.restarts).toBeUndefined();

		const plain = await runTeam(
			[
				{ id: 'a', handler: member('a', silent, []) },
				{ id: 'b', handler: member('b', silent, []) },
			],
			{ clock: new ManualClock() },
		);
		expect(plain.of('evaluation-start')).toHaveLength(0);
		expect(plain.result.finalAnswer).toBe('final of attempt 1 by a');
	});

	it('a single agent is evaluated too and presents again with the feedback', async () => {
		const seen: ChatRequest[] = [];
		let evaluations = 0;
		const evaluate = () => (evaluations++ === 0 ? restart('too short', 'Say more.') : submit);
		const run = await runTeam([{ id: 'solo', handler: member('solo', evaluate, seen) }], {
			clock: new ManualClock(),
			settings: { maxOrchestrationRestarts: 1 },
		});
		expect(run.result.finalAnswer).toBe('final of attempt 2 by solo');
		const presentations = seen.filter(
			(r) => read.isPresentation(r) && !isEvaluation(r) && r.messages.length === 1,
		);
		expect(presentations).toHaveLength(2);
		expect(presentations[1]!.messages[0]!.content).toContain('Why: too short');
	});

	it('cancelling during the evaluation ends the run cancelled, with nothing final', async () => {
		const controller = new AbortController();
		const seen: ChatRequest[] = [];
		const evaluate = (): ScriptedReply => {
			controller.abort();
			return { text: 'thinking', latencyMs: 200 };
		};
		const run = await runTeam(
			[
				{ id: 'a', handler: member('a', evaluate, seen) },
				{ id: 'b', handler: member('b', evaluate, seen) },
			],
			{ clock: new ManualClock(), settings: { maxOrchestrationRestarts: 1 }, signal: controller.signal },
		);
		expect(run.result.status).toBe('cancelled');
		expect(run.result.finalAnswer).toBeNull();
		expect(run.result.changes).toEqual([]);
	});
});
