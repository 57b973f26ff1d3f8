import { describe, expect, it } from 'vitest';
import * as vscode from 'vscode';
import type { TrustItem, TrustListing } from '../../../src/core/trust/workspaceTrust';
import {
	consentStateKey,
	type ConsentQuestion,
	WorkspaceConsent,
} from '../../../src/vscode/trust/workspaceConsent';

const stdio: TrustItem = {
	kind: 'stdio-server',
	file: '.vscode/mcp.json',
	subject: "MCP server 'helper'",
	detail: "runs sh -c 'id > /tmp/x'",
	parts: { server: 'helper', command: 'sh' },
};
const listing = (hash: string, items: readonly TrustItem[] = [stdio]): TrustListing => ({ items, hash });
const folder = { uri: vscode.Uri.file('/work/repo'), name: 'repo' };

function state(initial: Record<string, unknown> = {}) {
	const values = new Map<string, unknown>(Object.entries(initial));
	return {
		values,
		get: <T>(key: string) => values.get(key) as T | undefined,
		update: async (key: string, value: unknown) => void values.set(key, value),
	};
}

function consent(answers: boolean[], store = state()) {
	const asked: ConsentQuestion[] = [];
	const subject = new WorkspaceConsent(store, async (question) => {
		asked.push(question);
		return answers.shift() ?? false;
	});
	return { subject, asked, store };
}

describe('WorkspaceConsent: per folder and listing hash, in the user’s globalState', () => {
	it('nothing to decide: no question, no decision', async () => {
		const { subject, asked } = consent([true]);
		expect(await subject.decide(folder, listing('h', []), true)).toBeUndefined();
		expect(asked).toEqual([]);
	});

	it('Restricted Mode: refused without a question, and nothing stored', async () => {
		const { subject, asked, store } = consent([true]);
		const decision = await subject.decide(folder, listing('h1'), false);
		expect(decision).toMatchObject({ kind: 'untrusted' });
		expect(asked).toEqual([]);
		expect(store.values.size).toBe(0);
	});

	it('declined: refused, nothing stored, asked again next run; allowed: stored, not asked for the same hash', async () => {
		const { subject, asked, store } = consent([false, true]);
		expect(await subject.decide(folder, listing('h1'), true)).toMatchObject({ kind: 'untrusted' });
		expect(store.values.size).toBe(0);
		expect(await subject.decide(folder, listing('h1'), true)).toEqual({ kind: 'trusted', hash: 'h1' });
		expect(await subject.decide(folder, listing('h1'), true)).toEqual({ kind: 'trusted', hash: 'h1' });
		expect(asked).toHaveLength(2);
		expect(store.values.get(consentStateKey)).toEqual({ [folder.uri.toString()]: 'h1' });
	});

	it('a changed listing is asked again; another folder is asked on its own', async () => {
		const { subject, asked } = consent([true, false, true]);
		await subject.decide(folder, listing('h1'), true);
		expect(await subject.decide(folder, listing('h2'), true)).toMatchObject({ kind: 'untrusted' });
		const other = { uri: vscode.Uri.file('/work/other'), name: 'other' };
		expect(await subject.decide(other, listing('h1'), true)).toEqual({ kind: 'trusted', hash: 'h1' });
		expect(asked).toHaveLength(3);
	});

	it('junk in the store counts as nothing allowed', async () => {
		for (const junk of ['h1', ['h1'], { [folder.uri.toString()]: 42 }, null]) {
			const { subject, asked } = consent([false], state({ [consentStateKey]: junk }));
			expect(await subject.decide(folder, listing('h1'), true)).toMatchObject({ kind: 'untrusted' });
			expect(asked).toHaveLength(1);
		}
	});

	it('the question lists every item with its file and line, control characters visible', async () => {
		const hidden: TrustItem = {
			kind: 'cli-path',
			file: '.massgen/config.yaml',
			line: 7,
			subject: "agent 'a1'",
			detail: 'runs /bin/true\u001b[2K\r/usr/bin/claude\u202e as its claude_code CLI',
			parts: {},
		};
		const { subject, asked } = consent([false]);
		await subject.decide(folder, listing('h', [stdio, hidden]), true);
		const { detail, message } = asked[0]!;
		expect(message).toContain('“repo”');
		expect(detail).toContain(".vscode/mcp.json): runs sh -c 'id > /tmp/x'");
		expect(detail).toContain(
			"• agent 'a1' (.massgen/config.yaml:7): runs /bin/true\\x1b[2K\\r/usr/bin/claude\\u{202e} as its claude_code CLI",
		);
		expect(detail).not.toMatch(/[\u001b\r\u202e]/);
	});
});
