import { describe, expect, it } from 'vitest';
import {
	conversationRequest,
	type ConversationMessage,
} from '../../../src/core/sessions/conversationTurns.js';

const user = (text: string): ConversationMessage => ({ role: 'user', text });
const assistant = (text: string): ConversationMessage => ({ role: 'assistant', text });
const system = (text: string): ConversationMessage => ({ role: 'system', text });

describe("a caller's conversation as a run's question and history", () => {
	it('the last user message is the question; earlier user/assistant pairs are turns, in order', () => {
		const asked = conversationRequest([
			system('You are a helpful assistant.'),
			user('What does a.ts export?'),
			assistant('A constant, a.'),
			user('Why?'),
			assistant('For b.ts.'),
			user('  Rename it.  '),
		]);
		expect(asked).toEqual({
			ok: true,
			question: 'Rename it.',
			history: [
				{ question: 'What does a.ts export?', answer: 'A constant, a.' },
				{ question: 'Why?', answer: 'For b.ts.' },
			],
		});
	});

	it("leaves the client's system prompt out (the team has its own) and joins a question split in two", () => {
		const asked = conversationRequest([system('Use tools X, Y.'), user('Fix the bug'), user('in a.ts')]);
		expect(asked).toEqual({ ok: true, question: 'Fix the bug\n\nin a.ts', history: [] });
	});

	it('keeps an unanswered question and an answer nobody asked for as turns of their own', () => {
		const asked = conversationRequest([
			assistant('Hello, how can I help?'),
			user('Hi'),
			assistant(''),
			user('Go'),
		]);
		// The empty answer is no message: "Hi" is the question before "Go" with nothing between.
		expect(asked).toEqual({
			ok: true,
			question: 'Hi\n\nGo',
			history: [{ question: '', answer: 'Hello, how can I help?' }],
		});
	});

	it('refuses a conversation that does not end with the user (nothing to answer)', () => {
		expect(conversationRequest([user('Hi'), assistant('Hello')])).toEqual({
			ok: false,
			message: 'the conversation must end with a user message',
		});
		expect(conversationRequest([system('only this')]).ok).toBe(false);
		expect(conversationRequest([]).ok).toBe(false);
	});

	it('cuts a long conversation to the history budget, newest turns kept whole', () => {
		const long = Array.from({ length: 6 }, (_, i) => [
			user(`q${i} ${'x'.repeat(100)}`),
			assistant(`a${i}`),
		]).flat();
		const asked = conversationRequest([...long, user('last')], 250);
		if (!asked.ok) throw new Error(asked.message);
		expect(asked.history.filter((turn) => turn.leftOut)).toHaveLength(4);
		expect(asked.history.at(-1)).toEqual({ question: `q5 ${'x'.repeat(100)}`, answer: 'a5' });
	});
});
