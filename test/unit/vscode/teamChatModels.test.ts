import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as vscode from 'vscode';
import type { RunResult } from '../../../src/contract/runResult';
import { conversationRequest } from '../../../src/core/sessions/conversationTurns';
import { massgenVendor } from '../../../src/vscode/lm/memberChatModels';
import { estimateTokens, teamConversation } from '../../../src/vscode/lm/teamChatMessages';
import { teamLabel, teamModelInfo } from '../../../src/vscode/lm/teamModelInfo';
import { answerText, progressText } from '../../../src/vscode/lm/teamResponse';
import type { TeamAgentRow, TeamSnapshot } from '../../../src/vscode/team/teamSnapshot';

const { User, Assistant } = vscode.LanguageModelChatMessageRole;
const text = (value: string) => new vscode.LanguageModelTextPart(value);
const message = (role: vscode.LanguageModelChatMessageRole, ...content: unknown[]) =>
	({ role, content, name: undefined }) as vscode.LanguageModelChatRequestMessage;

function agent(id: string, willRun: boolean): TeamAgentRow {
	return {
		id,
		provider: 'openai',
		model: 'gpt-4o',
		available: willRun,
		kind: 'key-env',
		reason: '',
		willRun,
		added: false,
	};
}

function snapshot(over: Partial<TeamSnapshot>): TeamSnapshot {
	return {
		file: '/w/.massgen/config.yaml',
		kind: 'workspace',
		editable: true,
		agents: [],
		notes: [],
		...over,
	};
}

describe('the model picker: a chat’s messages as the team’s question and history', () => {
	it('takes text parts by role, leaves tool calls and results out, and a text data part becomes an attachment', () => {
		const chat = teamConversation([
			message(User, text('How do I build '), text('this?')),
			message(Assistant, text('Run npm ci.'), new vscode.LanguageModelToolCallPart('c1', 'read_file', {})),
			message(User, new vscode.LanguageModelToolResultPart('c1', [text('file body')])),
			message(
				User,
				text('And test it?'),
				vscode.LanguageModelDataPart.text('{"scripts":{"test":"vitest"}}', 'application/json'),
				new vscode.LanguageModelDataPart(new Uint8Array([0x89, 0x50]), 'image/png'),
			),
		]);
		expect(chat.messages).toEqual([
			{ role: 'user', text: 'How do I build this?' },
			{ role: 'assistant', text: 'Run npm ci.' },
			{ role: 'user', text: '' },
			{ role: 'user', text: 'And test it?' },
		]);
		expect(chat.attachments).toEqual([
			{ kind: 'text', source: 'application/json', text: '{"scripts":{"test":"vitest"}}' },
		]);
		// The shared core step: the last user message is the question, the earlier pair the history.
		const asked = conversationRequest(chat.messages);
		expect(asked).toEqual({
			ok: true,
			question: 'And test it?',
			history: [{ question: 'How do I build this?', answer: 'Run npm ci.' }],
		});
	});

	it("Copilot Chat's <prompt> wrapper around the user's words is taken off; other text stays as it is", () => {
		const chat = teamConversation([
			message(User, text('<prompt>\nHow should we\ndocument this?\n</prompt>')),
			message(Assistant, text('<prompt>\nkept\n</prompt>')),
			message(User, text('<prompt>\na\n</prompt> and <prompt>\nb\n</prompt>')),
			message(User, text('Use <prompt> tags.')),
		]);
		expect(chat.messages.map((m) => m.text)).toEqual([
			'How should we\ndocument this?',
			'<prompt>\nkept\n</prompt>',
			'<prompt>\na\n</prompt> and <prompt>\nb\n</prompt>',
			'Use <prompt> tags.',
		]);
	});

	it('a role other than user or assistant (a system prompt) is left out of the question and history', () => {
		const chat = teamConversation([
			message(3 as vscode.LanguageModelChatMessageRole, text('You are Copilot.')),
		]);
		expect(chat.messages).toEqual([{ role: 'system', text: 'You are Copilot.' }]);
		expect(conversationRequest(chat.messages).ok).toBe(false);
	});

	it('counts tokens as the cost estimate does (four characters a token), attachments included', () => {
		expect(estimateTokens('a'.repeat(401))).toBe(101);
		expect(
			estimateTokens(message(User, text('a'.repeat(40)), vscode.LanguageModelDataPart.text('b'.repeat(40)))),
		).toBe(20);
	});
});

describe('the model picker: a team as a model', () => {
	it('"MassGen: <team> (N agents)" counts the members a run would run, declares no tools and no images', () => {
		const info = teamModelInfo(
			'team',
			snapshot({ agents: [agent('planner', true), agent('critic', true), agent('absent', false)] }),
			'shop',
		);
		expect(info).toMatchObject({
			id: 'team',
			name: 'MassGen: shop team (2 agents)',
			family: 'massgen-team',
			detail: 'config.yaml',
			capabilities: { toolCalling: false, imageInput: false },
		});
		expect(info?.tooltip).toMatch(
			/^planner \(openai\/gpt-4o\), critic \(openai\/gpt-4o\) answer in parallel/,
		);
		expect(
			teamModelInfo(
				'demo',
				snapshot({ kind: 'preset', file: '/x/configs/demo.yaml', agents: [agent('a', true)] }),
				'shop',
			)?.name,
		).toBe('MassGen: demo team (1 agent)');
	});

	it('a team that would not run is not listed: a config problem, or no member available', () => {
		expect(teamModelInfo('team', snapshot({ agents: [agent('a', false)] }), 'shop')).toBeUndefined();
		const problem = { kind: 'config' as const, message: 'config.yaml:3:1: bad' };
		expect(teamModelInfo('team', snapshot({ agents: [agent('a', true)], problem }), 'shop')).toBeUndefined();
	});

	it('names a team by its file: the shipped default, a setting’s file, the folder’s own', () => {
		expect(teamLabel({ kind: 'default', file: '/x/configs/default.yaml' }, 'shop')).toBe('default team');
		expect(teamLabel({ kind: 'setting', file: '/home/u/teams/reviewers.yaml' }, 'shop')).toBe('reviewers');
		expect(teamLabel({ kind: 'workspace', file: '/w/.massgen/config.yaml' }, 'shop')).toBe('shop team');
	});

	it('package.json contributes the provider under the vendor the code registers and excludes', () => {
		const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
			contributes: { languageModelChatProviders: { vendor: string }[] };
		};
		expect(manifest.contributes.languageModelChatProviders.map((p) => p.vendor)).toEqual([massgenVendor]);
	});
});

const result: RunResult = {
	runId: 'r1',
	question: 'q',
	status: 'completed',
	winner: { agentId: 'planner', label: 'agent1' },
	answers: [],
	votes: [
		{ voter: 'planner', votedFor: 'planner', votedForLabel: 'agent1', reason: '' },
		{ voter: 'critic', votedFor: 'planner', votedForLabel: 'agent1', reason: '' },
	],
	finalAnswer: 'Write CONTRIBUTING.md.',
	changes: [
		{ path: 'CONTRIBUTING.md', kind: 'add', baseHash: null, base: null, content: '# C\n' },
	] as RunResult['changes'],
	usage: [],
	durationMs: 5,
};

describe('the model picker: what a team model streams', () => {
	it('a line per phase and per notice; nothing for other events', () => {
		expect(
			progressText({ type: 'vote', runId: 'r1', voter: 'critic', votedForAgent: 'planner' } as never),
		).toBe('critic voted for planner…\n\n');
		expect(progressText({ type: 'notice', runId: 'r1', message: 'critic has no key' } as never)).toBe(
			'Note: critic has no key.\n\n',
		);
		expect(progressText({ type: 'text-delta', runId: 'r1' } as never)).toBeUndefined();
	});

	it('the final answer, then the vote, then the proposed changes, which await review', () => {
		expect(answerText(result)).toBe(
			'---\n\nWrite CONTRIBUTING.md.\n\n---\n**Vote:** planner won with 2 of 2 votes (planner, critic).' +
				'\n\n**Proposed changes** (not applied; they wait for your review in the MassGen panel or MassGen: Review Proposed Changes):\n- `add CONTRIBUTING.md`',
		);
		const cancelled = answerText({
			...result,
			status: 'cancelled',
			finalAnswer: null,
			winner: null,
			votes: [],
			changes: [],
		});
		expect(cancelled).toBe('---\n\nThe MassGen run was cancelled.\n\n---\n**Vote:** No winner was selected.');
	});
});
