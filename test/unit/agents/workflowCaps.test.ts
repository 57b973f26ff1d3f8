/** The answer and vote-reason caps: told in the tool definitions, enforced with an error the model can act on. */
import { describe, expect, it } from 'vitest';
import {
	decideWorkflow,
	keptCall,
	maxAnswerBytes,
	maxVoteReasonBytes,
	workflowTools,
	type WorkflowRules,
} from '../../../src/core/agents/workflowTools.js';
import type { AnswerRecord } from '../../../src/core/agents/answers.js';
import type { ToolCall } from '../../../src/core/providers/spec/model.js';

const answer: AnswerRecord = {
	agentId: 'b',
	anonId: 'agent2',
	label: 'agent2.1',
	content: 'The answer.',
	overlay: { edits: new Map() } as unknown as AnswerRecord['overlay'],
	acceptedAt: 0,
};
const rules: WorkflowRules = {
	snapshot: { version: 1, answers: new Map([['agent2', answer]]) },
	ownAnonId: 'agent1',
	answersSoFar: 0,
	maxAnswers: null,
	novelty: 'lenient',
};
const call = (name: string, args: Record<string, unknown>): ToolCall => ({ id: 'c1', name, arguments: args });

describe('workflow caps', () => {
	it('the tool definitions tell the caps', () => {
		const [newAnswer, vote] = workflowTools(['agent1', 'agent2']);
		expect(newAnswer!.description).toContain('At most 256 KB');
		expect(JSON.stringify(vote!.parameters)).toContain('at most 8 KB');
	});

	it('an answer one byte over the cap is refused with its size; one at the cap is accepted', () => {
		// 'é' is two bytes: the cap counts UTF-8 bytes, not characters.
		const over = `${'é'.repeat(maxAnswerBytes / 2)}x`;
		expect(decideWorkflow([call('new_answer', { content: over })], rules)).toMatchObject({
			kind: 'errors',
			errors: [
				{
					message: `The answer is ${maxAnswerBytes + 1} bytes; the cap is ${maxAnswerBytes} (256 KB). Shorten it: summarise, and leave file contents to your file edits.`,
				},
			],
		});
		const at = 'é'.repeat(maxAnswerBytes / 2);
		expect(decideWorkflow([call('new_answer', { content: at })], rules)).toMatchObject({ kind: 'answer' });
	});

	it('a vote reason over 8 KB is refused; a short one is accepted', () => {
		const long = 'r'.repeat(maxVoteReasonBytes + 1);
		expect(decideWorkflow([call('vote', { agent_id: 'agent2', reason: long })], rules)).toMatchObject({
			kind: 'errors',
			errors: [
				{
					message: `The reason is ${maxVoteReasonBytes + 1} bytes; the cap is ${maxVoteReasonBytes} (8 KB). Shorten it to a few sentences and vote again.`,
				},
			],
		});
		expect(decideWorkflow([call('vote', { agent_id: 'agent2', reason: 'Best.' })], rules)).toMatchObject({
			kind: 'vote',
			reason: 'Best.',
		});
	});

	it('the history keeps an oversize argument as its size only; other calls unchanged', () => {
		const big = call('new_answer', { content: 'x'.repeat(maxAnswerBytes + 5) });
		expect(keptCall(big).arguments).toEqual({
			content: `[${maxAnswerBytes + 5} bytes, over the 256 KB cap: not kept]`,
		});
		const small = call('new_answer', { content: 'fine' });
		expect(keptCall(small)).toBe(small);
		const other = call('write_file', { path: 'a', content: 'x'.repeat(maxAnswerBytes + 5) });
		expect(keptCall(other)).toBe(other);
	});
});

describe('the checklist gate and the answer limit', () => {
	const checklist = {
		criteria: [{ id: 'C1', text: 'Has tests', category: 'standard' as const, round: 0 }],
		threshold: 7,
		proposalQuota: 0,
		proposals: false,
	};
	const low = call('vote', {
		agent_id: 'agent2',
		reason: 'The only answer.',
		scores: [{ agent_id: 'agent2', criteria: [{ id: 'C1', score: 3 }] }],
	});

	it('refuses a vote below the threshold while the voter can still answer', () => {
		const open = { ...rules, checklist, answersSoFar: 1, maxAnswers: 2 };
		expect(decideWorkflow([low], open)).toMatchObject({
			kind: 'errors',
			errors: [{ message: expect.stringContaining('improve it with new_answer') }],
		});
	});

	it('takes it, with its scores, once the voter has used its answers (it could only vote or fail)', () => {
		const spent = { ...rules, checklist, answersSoFar: 2, maxAnswers: 2 };
		expect(decideWorkflow([low], spent)).toMatchObject({
			kind: 'vote',
			scores: [{ label: 'agent2.1', criteria: [{ id: 'C1', score: 3 }] }],
		});
	});
});
