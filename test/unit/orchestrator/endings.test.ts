import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/providers/spec/model.js';
import type { ScriptedReply } from '../../../src/core/providers/vendors/scriptedModel.js';
import {
	answer,
	answerThenVote,
	lookFirst,
	makeWorkspaceDir,
	read,
	runTeam,
	vote,
} from '../../fakes/team.js';
import { ManualClock } from '../../support/manualClock.js';

function treeHash(root: string): string {
	const hash = createHash('sha256');
	const walk = (dir: string) => {
		for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
			a.name.localeCompare(b.name),
		)) {
			const full = join(dir, entry.name);
			hash.update(full);
			if (entry.isDirectory()) walk(full);
			else hash.update(readFileSync(full));
		}
	};
	walk(root);
	return hash.digest('hex');
}

describe('timeouts', () => {
	it('coordination timeout picks the winner from valid votes only', async () => {
		// bob's answer gets two votes, then carol's late answer invalidates them; only alice votes
		// again (for carol) before everyone else stalls. Invalidated votes must not decide.
		let aliceCalls = 0;
		const alice = (request: ChatRequest): ScriptedReply => {
			if (read.isPresentation(request)) return { text: 'final' };
			aliceCalls++;
			if (aliceCalls === 1) return answer('A answer');
			const ids = read.voteOptions(request);
			return ids.includes('agent3') ? vote('agent3') : vote('agent2');
		};
		let bobCalls = 0;
		const bob = (request: ChatRequest): ScriptedReply => {
			if (read.isPresentation(request)) return { text: 'bob final' };
			bobCalls++;
			if (bobCalls === 1) return answer('B answer');
			if (bobCalls === 2) return vote('agent2');
			return { ...vote('agent2'), latencyMs: 10_000 };
		};
		let carolCalls = 0;
		const carol = (request: ChatRequest): ScriptedReply => {
			if (read.isPresentation(request)) return { text: 'carol final', latencyMs: 0 };
			carolCalls++;
			return carolCalls === 1
				? { ...answer('C answer'), latencyMs: 600 }
				: { ...vote('agent3'), latencyMs: 10_000 };
		};
		const run = await runTeam(
			[
				{ id: 'alice', handler: alice },
				{ id: 'bob', handler: bob },
				{ id: 'carol', handler: lookFirst(carol) },
			],
			// alice and bob vote at once, carol answers at 600 ms, the timeout fires at 1.5 s.
			{ clock: new ManualClock(), settings: { coordinationTimeoutMs: 1_500, staleCallRestartFraction: 0 } },
		);
		expect(run.of('votes-invalidated')[0]!.voters.sort()).toEqual(['alice', 'bob']);
		expect(run.of('winner-selected')[0]).toMatchObject({ agentId: 'carol', tally: { carol: 1 } });
		expect(run.result.status).toBe('timeout');
		expect(run.result.finalAnswer).toBe('carol final');
		expect(run.result.votes).toEqual([
			{ voter: 'alice', votedFor: 'carol', votedForLabel: 'agent3.1', reason: 'best' },
		]);
	});

	it('a presentation that times out leaves the stored answer standing', async () => {
		const slowPresenter = (request: ChatRequest): ScriptedReply =>
			read.isPresentation(request)
				? { text: 'never', latencyMs: 5_000 }
				: read.voteOptions(request).length
					? vote('agent1')
					: answer('Stored A');
		const run = await runTeam(
			[
				{ id: 'alice', handler: slowPresenter },
				{ id: 'bob', handler: answerThenVote('B', () => 'agent1'), options: { latencyMs: 20 } },
			],
			{ clock: new ManualClock(), settings: { presentationTimeoutMs: 100, staleCallRestartFraction: 0 } },
		);
		expect(run.result.status).toBe('completed');
		expect(run.result.finalAnswer).toBe('Stored A');
		expect(run.of('agent-error').at(-1)!.message).toContain('presentation timed out');
		expect(run.of('final-answer')[0]).toMatchObject({
			agentId: 'alice',
			label: 'agent1.final',
			content: 'Stored A',
		});
	});

	it('an empty presentation falls back to the stored answer', async () => {
		const run = await runTeam(
			[
				{ id: 'alice', handler: answerThenVote('Stored A', () => 'agent1', '') },
				{ id: 'bob', handler: answerThenVote('B', () => 'agent1') },
			],
			{ clock: new ManualClock() },
		);
		expect(run.result.winner?.agentId).toBe('alice');
		expect(run.result.finalAnswer).toBe('Stored A');
	});
});

describe('cancellation', () => {
	it('cancel mid-stream aborts every request, writes nothing and ends as cancelled', async () => {
		const root = makeWorkspaceDir({ 'a.txt': 'original\n' });
		const before = treeHash(root);
		const controller = new AbortController();
		const clock = new ManualClock();
		// Cancel while both agents are mid-call, after alice's write (timed from it, not from the start).
		const writer = (request: ChatRequest): ScriptedReply => {
			if (request.messages.at(-1)?.role !== 'tool') {
				return { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'changed' } }] };
			}
			clock.setTimer(20, () => controller.abort());
			return { ...answer('A'), latencyMs: 1_000 };
		};
		const run = await runTeam(
			[
				{ id: 'alice', handler: writer },
				{ id: 'bob', handler: answerThenVote('B'), options: { latencyMs: 1_000 } },
			],
			{ clock, root, signal: controller.signal },
		);
		// Ended 20 ms in, when the signal fired: no call ran out its 1 s.
		expect(run.result.durationMs).toBe(20);
		expect(run.result.status).toBe('cancelled');
		expect(run.result.finalAnswer).toBeNull();
		expect(run.result.changes).toEqual([]);
		expect(run.of('file-edit')).toHaveLength(1);
		expect(run.events.at(-1)).toMatchObject({ type: 'run-end', status: 'cancelled' });
		expect(run.of('final-answer')).toEqual([]);
		expect(treeHash(root)).toBe(before);
	});

	it('a signal aborted before the run starts ends at once', async () => {
		const controller = new AbortController();
		controller.abort();
		const run = await runTeam(
			[
				{ id: 'alice', handler: answerThenVote('A') },
				{ id: 'bob', handler: answerThenVote('B') },
			],
			{ clock: new ManualClock(), signal: controller.signal },
		);
		expect(run.result.status).toBe('cancelled');
		expect(run.models.get('alice')!.requests).toHaveLength(0);
	});
});

describe('single agent and file changes', () => {
	it('a single agent skips coordination and presents with write tools', async () => {
		const root = makeWorkspaceDir({ 'src/app.ts': 'export const x = 1;\n' });
		const before = treeHash(root);
		const solo = (request: ChatRequest): ScriptedReply =>
			request.messages.at(-1)?.role === 'tool'
				? { text: 'Changed x to 2.' }
				: {
						toolCalls: [
							{ name: 'edit_file', arguments: { path: 'src/app.ts', old_text: 'x = 1', new_text: 'x = 2' } },
						],
					};
		const run = await runTeam([{ id: 'solo', handler: solo }], { clock: new ManualClock(), root });
		const requests = run.models.get('solo')!.requests;
		expect(requests[0]!.tools.map((t) => t.name)).toEqual([
			'read_file',
			'list_directory',
			'search_files',
			'write_file',
			'edit_file',
			'delete_file',
		]);
		expect(run.of('round-start')).toEqual([]);
		expect(run.result).toMatchObject({
			status: 'completed',
			finalAnswer: 'Changed x to 2.',
			winner: { agentId: 'solo' },
		});
		expect(run.result.changes).toEqual([
			expect.objectContaining({ path: 'src/app.ts', kind: 'modify', content: 'export const x = 2;\n' }),
		]);
		expect(treeHash(root)).toBe(before);
	});

	it("answers carry their overlay; the winner's presentation starts from it and its edits form the change set", async () => {
		const root = makeWorkspaceDir({ 'README.md': '# Demo\n', 'old.txt': 'bye\n' });
		const before = treeHash(root);
		let aliceStep = 0;
		const alice = (request: ChatRequest): ScriptedReply => {
			if (read.isPresentation(request)) {
				return request.messages.at(-1)?.role === 'tool'
					? { text: 'Added docs and removed old.txt.' }
					: { toolCalls: [{ name: 'delete_file', arguments: { path: 'old.txt' } }] };
			}
			aliceStep++;
			if (aliceStep === 1) {
				return {
					toolCalls: [{ name: 'write_file', arguments: { path: 'docs/guide.md', content: 'Guide\n' } }],
				};
			}
			if (aliceStep === 2) return answer('I added docs/guide.md');
			return vote('agent1');
		};
		let viewed = '';
		const bob = (request: ChatRequest): ScriptedReply => {
			if (read.isPresentation(request)) return { text: 'unused' };
			const last = request.messages.at(-1);
			if (last?.role === 'tool') viewed = last.content;
			if (read.voteOptions(request).includes('agent1') && !viewed) {
				return { toolCalls: [{ name: 'view_answer_changes', arguments: { agent_id: 'agent1' } }] };
			}
			return read.voteOptions(request).includes('agent1') ? vote('agent1') : answer('B');
		};
		const run = await runTeam(
			[
				{ id: 'alice', handler: alice },
				// bob's first look comes 500 ms in: alice's edit and answer (at once) are in by then.
				{ id: 'bob', handler: bob, options: { latencyMs: 500 } },
			],
			{ clock: new ManualClock(), root, settings: { staleCallRestartFraction: 0 } },
		);
		expect(viewed).toContain('+++ b/docs/guide.md');
		expect(run.of('file-edit').map((e) => [e.agentId, e.phase, e.path, e.kind])).toEqual([
			['alice', 'coordination', 'docs/guide.md', 'add'],
			['alice', 'presentation', 'old.txt', 'delete'],
		]);
		expect(run.result.changes.map((c) => [c.path, c.kind])).toEqual([
			['docs/guide.md', 'add'],
			['old.txt', 'delete'],
		]);
		expect(run.result.changes.find((c) => c.kind === 'delete')!.baseHash).toMatch(/^[0-9a-f]{64}$/);
		expect(treeHash(root)).toBe(before);
	});

	it('a refused path is a tool error naming the path and reason, and nothing changes', async () => {
		const root = makeWorkspaceDir({ '.env': 'SECRET=1\n' });
		const solo = (request: ChatRequest): ScriptedReply =>
			request.messages.at(-1)?.role === 'tool'
				? { text: 'done' }
				: {
						toolCalls: [
							{ name: 'write_file', arguments: { path: '../escape.txt', content: 'x' } },
							{ name: 'read_file', arguments: { path: '.env' } },
						],
					};
		const run = await runTeam([{ id: 'solo', handler: solo }], { clock: new ManualClock(), root });
		const results = run.of('tool-result');
		expect(results.map((r) => r.isError)).toEqual([true, true]);
		expect(results[0]!.text).toContain('../escape.txt');
		expect(results[0]!.text).toContain('outside the workspace');
		expect(results[1]!.text).toContain('is a secret path');
		expect(results[1]!.text).not.toContain('SECRET=1');
		expect(run.result.changes).toEqual([]);
	});
});
