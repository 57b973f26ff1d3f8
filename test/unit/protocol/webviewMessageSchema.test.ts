import { describe, expect, it } from 'vitest';
import { assertNever } from '../../../src/protocol/assertNever.js';
import type { WebviewMessage, WebviewMessageType } from '../../../src/protocol/messages.js';
import {
	MAX_ACCEPT_PATHS,
	MAX_CONTEXT_QUERY_CHARS,
	MAX_DROPPED_URIS,
	MAX_HUNK_IDS,
	MAX_LINK_CHARS,
	MAX_NOTE_CHARS,
	MAX_AGENT_ID_CHARS,
	MAX_PATH_CHARS,
	MAX_QUESTION_CHARS,
	parseWebviewMessage,
} from '../../../src/protocol/webviewMessageSchema.js';
import { MAX_STEER_CHARS } from '../../../src/protocol/steerMessage.js';

/** One or more valid messages per type; the mapped type fails to compile when a type is missing. */
const valid: { [K in WebviewMessageType]: Extract<WebviewMessage, { type: K }>[] } = {
	ready: [{ type: 'ready' }],
	ask: [
		{ type: 'ask', question: 'Why is the build slow?' },
		{ type: 'ask', question: 'x'.repeat(MAX_QUESTION_CHARS) },
		{ type: 'ask', question: 'Add a --verbose flag', mode: 'plan' },
	],
	cancel: [{ type: 'cancel', runId: '20261130-010000-aaaa' }],
	'stop-agent': [
		{ type: 'stop-agent', runId: '20261130-010000-aaaa', agentId: 'claude_agent' },
		{ type: 'stop-agent', runId: '20261130-010000-aaaa', agentId: 'x'.repeat(MAX_AGENT_ID_CHARS) },
	],
	steer: [
		{ type: 'steer', runId: '20261130-010000-aaaa', text: 'Use SQLite, not Postgres.', noteOnly: false },
		{ type: 'steer', runId: '20261130-010000-aaaa', text: 'x'.repeat(MAX_STEER_CHARS), noteOnly: true },
		{ type: 'steer', runId: '20261130-010000-aaaa', text: 'Keep it short', agentId: 'gpt', noteOnly: false },
	],
	'finish-now': [{ type: 'finish-now', runId: '20261130-010000-aaaa' }],
	'open-diff': [
		{ type: 'open-diff', runId: '20250102-030405-ab12', path: 'src/a.ts' },
		{ type: 'open-diff', runId: '20250102-030405-ab12', path: 'docs/read me.md' },
		{ type: 'open-diff', runId: '20250102-030405-ab12', path: '.github/workflows/ci.yml' },
		{ type: 'open-diff', runId: '20250102-030405-ab12', path: 'a..b/c' },
		{ type: 'open-diff', runId: '20250102-030405-ab12', path: 'src/a.ts', version: 'final' },
		{ type: 'open-diff', runId: '20250102-030405-ab12', path: 'src/a.ts', version: 'proposed' },
		{ type: 'open-diff', runId: '20250102-030405-ab12', path: 'src/a.ts', version: 'agent2.13' },
	],
	accept: [
		{ type: 'accept', runId: '20250102-030405-ab12' },
		{ type: 'accept', runId: '20250102-030405-ab12', paths: ['src/a.ts', 'src/b.ts'] },
		{
			type: 'accept',
			runId: '20250102-030405-ab12',
			hunks: [
				{ path: 'src/a.ts', ids: ['final#0', 'alt#2'] },
				{ path: 'b.md', ids: [] },
			],
		},
		{
			type: 'accept',
			paths: ['src/a.ts'],
			hunks: [{ path: 'src/a.ts', ids: ['final#1'] }],
			runId: '20250102-030405-ab12',
		},
	],
	'select-hunks': [
		{
			type: 'select-hunks',
			runId: '20250102-030405-ab12',
			path: 'src/a.ts',
			ids: ['final#0'],
			selected: false,
		},
		{
			type: 'select-hunks',
			runId: '20250102-030405-ab12',
			path: 'src/a.ts',
			ids: ['alt#3', 'final#12'],
			selected: true,
		},
	],
	reject: [{ type: 'reject', runId: '20250102-030405-ab12' }],
	'comment-hunk': [
		{ type: 'comment-hunk', runId: '20250102-030405-ab12', path: 'src/a.ts', hunkId: 'final#2' },
		{ type: 'comment-hunk', runId: '20250102-030405-ab12', path: 'src/a.ts', hunkId: 'you#0' },
	],
	'send-to-team': [{ type: 'send-to-team', runId: '20250102-030405-ab12' }],
	'open-run': [{ type: 'open-run', runId: '20250102-030405-ab12' }],
	'revert-run': [{ type: 'revert-run', runId: '20250102-030405-ab12' }],
	approval: [
		{ type: 'approval', requestId: 'req-1', decision: 'allow-once' },
		{ type: 'approval', requestId: 'call_abc:2', decision: 'allow-run' },
		{ type: 'approval', requestId: 'r', decision: 'always' },
		{ type: 'approval', requestId: 'r', decision: 'deny', note: 'not on main' },
	],
	'search-context': [
		{ type: 'search-context', query: '', requestId: 'q1' },
		{ type: 'search-context', query: 'src/a', requestId: 'q-2' },
	],
	'pick-context': [{ type: 'pick-context' }],
	'drop-uris': [{ type: 'drop-uris', uris: ['file:///home/dev/app/src/a.ts', 'vscode-remote://x/y'] }],
	'open-link': [
		{
			type: 'open-link',
			url: 'https://www.typescriptlang.org/docs/handbook/release-notes/typescript-5-9.html',
		},
		{ type: 'open-link', url: 'http://example.com/a%20b?q=1#x' },
	],
	focus: [
		{ type: 'focus', focused: true },
		{ type: 'focus', focused: false },
	],
};

const invalid: [string, unknown][] = [
	['not an object', 'ready'],
	['null', null],
	['an array', [{ type: 'ready' }]],
	['no type', {}],
	['unknown type', { type: 'apply-everything' }],
	['extra key on ready', { type: 'ready', extra: 1 }],
	['extra key on accept', { type: 'accept', runId: '20250102-030405-ab12', paths: ['a'], force: true }],
	['question missing', { type: 'ask' }],
	['question not a string', { type: 'ask', question: 42 }],
	['question blank', { type: 'ask', question: '   ' }],
	['question oversized', { type: 'ask', question: 'x'.repeat(MAX_QUESTION_CHARS + 1) }],
	['ask mode not plan', { type: 'ask', question: 'Do it', mode: 'execute' }],
	['ask mode not a string', { type: 'ask', question: 'Do it', mode: true }],
	['absolute path', { type: 'open-diff', runId: '20250102-030405-ab12', path: '/etc/passwd' }],
	['drive path', { type: 'open-diff', runId: '20250102-030405-ab12', path: 'C:/Windows/win.ini' }],
	['parent escape', { type: 'open-diff', runId: '20250102-030405-ab12', path: '../secret' }],
	['inner parent escape', { type: 'open-diff', runId: '20250102-030405-ab12', path: 'src/../../secret' }],
	['trailing parent', { type: 'open-diff', runId: '20250102-030405-ab12', path: 'src/..' }],
	['backslash path', { type: 'open-diff', runId: '20250102-030405-ab12', path: 'src\\a.ts' }],
	['control char in path', { type: 'open-diff', runId: '20250102-030405-ab12', path: 'a\u0000b' }],
	['empty path', { type: 'open-diff', runId: '20250102-030405-ab12', path: '' }],
	[
		'oversized path',
		{ type: 'open-diff', runId: '20250102-030405-ab12', path: 'a'.repeat(MAX_PATH_CHARS + 1) },
	],
	['empty accept list', { type: 'accept', runId: '20250102-030405-ab12', paths: [] }],
	[
		'too many accept paths',
		{
			type: 'accept',
			runId: '20250102-030405-ab12',
			paths: Array.from({ length: MAX_ACCEPT_PATHS + 1 }, (_, i) => `f${i}`),
		},
	],
	['bad accept path', { type: 'accept', runId: '20250102-030405-ab12', paths: ['ok.ts', '../x'] }],
	['empty hunk selection list', { type: 'accept', runId: '20250102-030405-ab12', hunks: [] }],
	[
		'bad hunk id',
		{ type: 'accept', runId: '20250102-030405-ab12', hunks: [{ path: 'a.ts', ids: ['final#x'] }] },
	],
	[
		'hunk id with a path',
		{ type: 'accept', runId: '20250102-030405-ab12', hunks: [{ path: 'a.ts', ids: ['../final#0'] }] },
	],
	[
		'bad hunk path',
		{ type: 'accept', runId: '20250102-030405-ab12', hunks: [{ path: '/etc/passwd', ids: ['final#0'] }] },
	],
	[
		'extra key in a hunk selection',
		{ type: 'accept', runId: '20250102-030405-ab12', hunks: [{ path: 'a.ts', ids: [], all: true }] },
	],
	['bad accept runId', { type: 'accept', runId: '../x' }],
	// Every change message names the run it was rendered for: none without it.
	['accept without a run', { type: 'accept' }],
	['open-diff without a run', { type: 'open-diff', path: 'a.ts' }],
	['select-hunks without a run', { type: 'select-hunks', path: 'a.ts', ids: ['final#0'], selected: true }],
	['reject without a run', { type: 'reject' }],
	['comment-hunk without a run', { type: 'comment-hunk', path: 'a.ts', hunkId: 'final#0' }],
	[
		'comment-hunk escaping path',
		{ type: 'comment-hunk', runId: '20250102-030405-ab12', path: '../a.ts', hunkId: 'final#0' },
	],
	[
		'comment-hunk with a bad hunk id',
		{ type: 'comment-hunk', runId: '20250102-030405-ab12', path: 'a.ts', hunkId: 'final#0; rm' },
	],
	[
		'comment-hunk carrying words (the host asks them)',
		{ type: 'comment-hunk', runId: '20250102-030405-ab12', path: 'a.ts', hunkId: 'final#0', text: 'x' },
	],
	[
		'comment-hunk on a runner-up hunk (not in the proposal)',
		{ type: 'comment-hunk', runId: '20250102-030405-ab12', path: 'a.ts', hunkId: 'alt#0' },
	],
	['send-to-team with a bad run', { type: 'send-to-team', runId: '../x' }],
	['reject with a bad run', { type: 'reject', runId: '../../etc' }],
	[
		'unknown diff version',
		{ type: 'open-diff', runId: '20250102-030405-ab12', path: 'a.ts', version: 'base; rm' },
	],
	[
		'select-hunks without ids',
		{ type: 'select-hunks', runId: '20250102-030405-ab12', path: 'a.ts', ids: [], selected: true },
	],
	[
		'select-hunks without selected',
		{ type: 'select-hunks', runId: '20250102-030405-ab12', path: 'a.ts', ids: ['final#0'] },
	],
	[
		'select-hunks with a string flag',
		{ type: 'select-hunks', runId: '20250102-030405-ab12', path: 'a.ts', ids: ['final#0'], selected: 'yes' },
	],
	[
		'select-hunks escaping path',
		{
			type: 'select-hunks',
			runId: '20250102-030405-ab12',
			path: '../a.ts',
			ids: ['final#0'],
			selected: true,
		},
	],
	[
		'too many hunk ids',
		{
			type: 'select-hunks',
			runId: '20250102-030405-ab12',
			path: 'a.ts',
			ids: Array.from({ length: MAX_HUNK_IDS + 1 }, (_, i) => `final#${i}`),
			selected: true,
		},
	],
	['runId traversal', { type: 'open-run', runId: '../../etc' }],
	['runId wrong format', { type: 'open-run', runId: '2025-01-02' }],
	['unknown decision', { type: 'approval', requestId: 'r', decision: 'allow' }],
	['bad request id', { type: 'approval', requestId: 'r 1', decision: 'deny' }],
	[
		'oversized note',
		{ type: 'approval', requestId: 'r', decision: 'deny', note: 'x'.repeat(MAX_NOTE_CHARS + 1) },
	],
	['search-context without an id', { type: 'search-context', query: 'a' }],
	['search-context with a bad id', { type: 'search-context', query: 'a', requestId: '<x>' }],
	[
		'search-context oversized',
		{ type: 'search-context', query: 'x'.repeat(MAX_CONTEXT_QUERY_CHARS + 1), requestId: 'q' },
	],
	['pick-context with a payload', { type: 'pick-context', chips: [] }],
	['drop-uris empty', { type: 'drop-uris', uris: [] }],
	['drop-uris not strings', { type: 'drop-uris', uris: [1] }],
	[
		'drop-uris too many',
		{ type: 'drop-uris', uris: Array.from({ length: MAX_DROPPED_URIS + 1 }, () => 'file:///a') },
	],
	['stop-agent without an id', { type: 'stop-agent', runId: '20261130-010000-aaaa' }],
	['stop-agent with an empty id', { type: 'stop-agent', runId: '20261130-010000-aaaa', agentId: '' }],
	[
		'stop-agent with a control character',
		{ type: 'stop-agent', runId: '20261130-010000-aaaa', agentId: 'a\u0000b' },
	],
	[
		'stop-agent oversized',
		{ type: 'stop-agent', runId: '20261130-010000-aaaa', agentId: 'x'.repeat(MAX_AGENT_ID_CHARS + 1) },
	],
	[
		'stop-agent with more fields',
		{ type: 'stop-agent', runId: '20261130-010000-aaaa', agentId: 'a', reason: 'user' },
	],
	['steer without text', { type: 'steer', runId: '20261130-010000-aaaa', noteOnly: false }],
	['steer blank', { type: 'steer', runId: '20261130-010000-aaaa', text: ' \n ', noteOnly: false }],
	[
		'steer oversized',
		{ type: 'steer', runId: '20261130-010000-aaaa', text: 'x'.repeat(MAX_STEER_CHARS + 1), noteOnly: false },
	],
	['steer without noteOnly', { type: 'steer', runId: '20261130-010000-aaaa', text: 'hi' }],
	[
		'steer noteOnly not a boolean',
		{ type: 'steer', runId: '20261130-010000-aaaa', text: 'hi', noteOnly: 'yes' },
	],
	[
		'steer to an agent id with a control character',
		{ type: 'steer', runId: '20261130-010000-aaaa', text: 'hi', agentId: 'a\u001bb', noteOnly: false },
	],
	['steer without the run it was rendered for', { type: 'steer', text: 'hi', noteOnly: false }],
	[
		'steer with more fields',
		{ type: 'steer', runId: '20261130-010000-aaaa', text: 'hi', noteOnly: false, all: true },
	],
	['finish-now without a run', { type: 'finish-now' }],
	['finish-now for a run id that is not one', { type: 'finish-now', runId: '../x' }],
	['stop-agent without the run it was rendered for', { type: 'stop-agent', agentId: 'a' }],
	['stop-agent for a run id that is not one', { type: 'stop-agent', runId: '../x', agentId: 'a' }],
	['cancel without the run it was rendered for', { type: 'cancel' }],
	['cancel for a run id that is not one', { type: 'cancel', runId: '20261130-010000-AAAA' }],
	[
		'prototype pollution attempt',
		JSON.parse('{"type":"cancel","runId":"20261130-010000-aaaa","__proto__":{"polluted":true}}'),
	],
	['open-link to javascript:', { type: 'open-link', url: 'javascript:alert(1)' }],
	['open-link to data:', { type: 'open-link', url: 'data:text/html,<script>alert(1)</script>' }],
	['open-link to a file', { type: 'open-link', url: 'file:///etc/passwd' }],
	['open-link to a command', { type: 'open-link', url: 'command:workbench.action.terminal.new' }],
	['open-link to a relative path', { type: 'open-link', url: '/docs/a.html' }],
	['open-link too long', { type: 'open-link', url: `https://a.example/${'x'.repeat(MAX_LINK_CHARS)}` }],
	['open-link with more fields', { type: 'open-link', url: 'https://a.example/', target: '_top' }],
	['focus without a value', { type: 'focus' }],
	['focus as a string', { type: 'focus', focused: 'yes' }],
	['focus with more fields', { type: 'focus', focused: true, steal: true }],
];

describe('parseWebviewMessage', () => {
	for (const [type, messages] of Object.entries(valid)) {
		it(`accepts valid ${type} messages`, () => {
			for (const message of messages) {
				expect(parseWebviewMessage(JSON.parse(JSON.stringify(message)))).toEqual({ ok: true, message });
			}
		});
	}

	for (const [name, input] of invalid) {
		it(`rejects ${name}`, () => {
			const result = parseWebviewMessage(input);
			expect(result.ok).toBe(false);
			if (!result.ok) {
				expect(result.error).toMatch(/^invalid webview message/);
				expect(result.error.length).toBeLessThanOrEqual(500);
			}
		});
	}

	it('trims the question', () => {
		expect(parseWebviewMessage({ type: 'ask', question: '  hi \n' })).toEqual({
			ok: true,
			message: { type: 'ask', question: 'hi' },
		});
	});
});

describe('assertNever', () => {
	function describeMessage(message: WebviewMessage): string {
		switch (message.type) {
			case 'ready':
			case 'cancel':
			case 'reject':
			case 'pick-context':
				return message.type;
			case 'search-context':
				return message.query;
			case 'drop-uris':
				return message.uris.join(',');
			case 'ask':
				return message.question;
			case 'open-diff':
				return message.path;
			case 'accept':
				return (message.paths ?? []).join(',');
			case 'select-hunks':
				return message.ids.join(',');
			case 'comment-hunk':
				return message.hunkId;
			case 'send-to-team':
				return message.runId;
			case 'open-run':
			case 'revert-run':
				return message.runId;
			case 'approval':
				return message.decision;
			case 'stop-agent':
				return message.agentId;
			case 'steer':
				return message.text;
			case 'finish-now':
				return message.runId;
			case 'open-link':
				return message.url;
			case 'focus':
				return String(message.focused);
			default:
				return assertNever(message, 'webview message');
		}
	}

	it('is unreachable for known messages and throws, naming the type, for others', () => {
		expect(describeMessage({ type: 'open-run', runId: 'x' })).toBe('x');
		expect(() => describeMessage({ type: 'bogus' } as never)).toThrow('Unexpected webview message: "bogus"');
	});
});
