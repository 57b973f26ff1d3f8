// In-host (docs/protocol.md): provider-side web search in the editor's run, a team in the style of MassGen's
// three_agents_default (Gemini, GPT-5 nano, Grok) each through its official SDK against its loopback
// server. massgen.providerTools: allow, deny, and ask (one notification, answered in the workbench);
// a citation clicked in the panel opens only once the user confirms.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { stringify } from 'yaml';
import type { RunEvent } from '../../src/contract/runEvents';
import type { ShownQuestions } from '../../src/vscode/common/shownQuestions';
import type { RunController } from '../../src/vscode/run/runController';
import type { FinishedRun } from '../../src/vscode/run/runTypes';
import type { SurfaceHost } from '../../src/vscode/panel/surfaceHost';
import { startLoopbackProvider, type LoopbackProvider } from '../servers/loopbackProvider';
import {
	geminiServerTools,
	responsesServerTools,
	type ServerToolScript,
} from '../servers/wire/providerToolStreams';
import { xaiServerTools } from '../servers/wire/xaiToolStreams';
import { until, useConfig } from './hostWaits';
import { openOwnPanel } from './ownPanel';

const script: ServerToolScript = {
	query: 'typescript 5.9 release notes',
	sources: [
		{
			title: 'TypeScript 5.9',
			url: 'https://www.typescriptlang.org/docs/handbook/release-notes/typescript-5-9.html',
		},
		{
			title: 'Announcing TypeScript 5.9',
			url: 'https://devblogs.microsoft.com/typescript/announcing-typescript-5-9/',
		},
	],
	code: 'print(5 + 4)',
	output: '9',
	text: 'TypeScript 5.9 adds import defer.',
};
const members = [
	{
		id: 'gemini2.5flash',
		type: 'gemini',
		model: 'gemini-2.5-flash',
		protocol: 'gemini',
		events: geminiServerTools,
	},
	{
		id: 'gpt5nano',
		type: 'openai',
		model: 'gpt-5-nano',
		protocol: 'responses',
		events: responsesServerTools,
	},
	{
		id: 'grok3mini',
		type: 'grok',
		model: 'grok-4-fast-reasoning',
		protocol: 'responses',
		events: xaiServerTools,
	},
] as const;
/** What each API calls its search tool in a request. */
const searchTools = ['"googleSearch"', '"type":"web_search"', '"type":"x_search"'];

interface LedgerLine {
	agentId: string;
	tool: string;
	target: string;
	decision: string;
	via: string;
	by: string;
	reason: string;
}

async function mode(value: 'allow' | 'deny' | undefined): Promise<void> {
	await vscode.workspace
		.getConfiguration()
		.update('massgen.providerTools', value, vscode.ConfigurationTarget.Global);
}

describe('Provider tools (in VS Code, three_agents_default-style team on loopback servers)', function () {
	this.timeout(90_000);
	const servers = new Map<string, LoopbackProvider>();
	const seen = new Map<string, number>();
	let configDir: string;
	let runs: RunController;
	let panel: SurfaceHost;
	let questions: ShownQuestions;
	const disposables: vscode.Disposable[] = [];

	before(async () => {
		const extension = vscode.extensions.getExtension('massgen.massgen-vscode');
		assert.ok(extension);
		await extension.activate();
		for (const member of members) {
			const server = await startLoopbackProvider(member.protocol, {
				auto: { name: member.id, plainReply: (model) => member.events(script, model) },
			});
			servers.set(member.id, server);
		}
		configDir = mkdtempSync(join(tmpdir(), 'massgen-provider-tools-'));
		const agents = members.map((member) => ({
			id: member.id,
			backend: {
				type: member.type,
				model: member.model,
				base_url: servers.get(member.id)!.baseUrl,
				api_key: 'loopback-key',
				enable_web_search: true,
			},
		}));
		const file = join(configDir, 'three_agents_default.yaml');
		writeFileSync(file, stringify({ agents }));
		await useConfig(file);
		const own = await openOwnPanel(extension, 'MassGen provider tools test');
		disposables.push(own);
		({ runs, panel, questions } = own);
	});

	beforeEach(async () => {
		for (const [id, server] of servers) seen.set(id, server.requests.length);
		await vscode.commands.executeCommand('notifications.clearAll');
	});

	after(async () => {
		for (const d of disposables.reverse()) d.dispose();
		await mode(undefined);
		await useConfig(undefined);
		await Promise.all([...servers.values()].map((server) => server.close()));
		rmSync(configDir, { recursive: true, force: true });
	});

	/** The tools JSON of every request each server got in this test. */
	const sentTools = () =>
		[...servers].flatMap(([id, server]) =>
			server.requests
				.slice(seen.get(id))
				.map((r) => JSON.stringify((r.body as { tools?: unknown }).tools ?? [])),
		);
	const requestsInTest = () => [...servers].reduce((n, [id, s]) => n + s.requests.length - seen.get(id)!, 0);
	const ask = () => {
		const finished = new Promise<FinishedRun>((resolve) => {
			const listener = runs.onDidFinishRun((run) => {
				listener.dispose();
				resolve(run);
			});
		});
		void panel.receive({ type: 'ask', question: 'What is new in TypeScript 5.9?' });
		return finished;
	};
	const ledger = (run: FinishedRun): LedgerLine[] =>
		readFileSync(join(run.runDir, 'permissions.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as LedgerLine)
			.filter((line) => line.tool === 'provider_tools');
	const events = (run: FinishedRun): RunEvent[] =>
		readFileSync(join(run.runDir, 'events.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as RunEvent);
	const agentIds = members.map((m) => m.id);

	it('allow: every agent sends its search tool, the presenter searches, the panel’s final answer lists the sources', async () => {
		await mode('allow');
		const asked = questions.of('providerTools').length;
		const run = await ask();
		assert.equal(run.result.status, 'completed', run.result.error ?? undefined);
		assert.equal(questions.of('providerTools').length, asked, 'allow asks nothing');
		for (const [id, tool] of [
			['gemini2.5flash', '"googleSearch"'],
			['gpt5nano', '"type":"web_search"'],
			['grok3mini', '"type":"x_search"'],
		] as const) {
			const first = servers.get(id)!.firstModelRequest(seen.get(id)!)!;
			assert.ok(
				JSON.stringify((first.body as { tools?: unknown }).tools).includes(tool),
				`${id} sends ${tool}`,
			);
		}
		const winner = run.result.winner!.agentId;
		const searches = events(run).flatMap((e) =>
			e.type === 'provider-tool' && e.kind === 'search' ? [e] : [],
		);
		assert.ok(
			searches.length > 0 && searches.every((e) => e.agentId === winner && e.phase === 'presentation'),
		);
		// What the panel shows: the final answer with its numbered, linked sources.
		const shown = run.state.finalAnswer;
		assert.equal(shown?.agentId, winner);
		assert.ok(shown.content.startsWith(script.text), shown.content);
		assert.match(
			shown.content,
			/\n\nSources:\n1\. \[[^\]]+\]\(https:\/\/[^)]+\)\n2\. \[[^\]]+\]\(https:\/\/[^)]+\)\n?$/,
		);
		for (const source of script.sources) assert.ok(shown.content.includes(`(${source.url})`), source.url);
		assert.deepEqual(
			ledger(run).map((l) => [l.agentId, l.target, l.decision, l.by, l.reason]),
			agentIds.map((id) => [id, 'web search', 'allow', 'policy', 'massgen.providerTools: allow']),
		);
	});

	// The loopback servers play their search streams whatever was asked: what a denial changes is the requests.
	it('deny: no provider tool in any request the servers saw, said once per agent, the run answers without them', async () => {
		await mode('deny');
		const run = await ask();
		assert.equal(run.result.status, 'completed', run.result.error ?? undefined);
		const tools = sentTools();
		assert.ok(tools.length >= members.length, 'every agent called its server');
		for (const json of tools) {
			for (const tool of searchTools) assert.ok(!json.includes(tool), `${tool} in ${json}`);
		}
		const notices = events(run).flatMap((e) =>
			e.type === 'notice' && e.message.includes('provider tools left out') ? [e] : [],
		);
		assert.deepEqual(notices.map((e) => e.agentId).sort(), [...agentIds].sort());
		assert.deepEqual(
			ledger(run).map((l) => [l.agentId, l.decision, l.by, l.reason]),
			agentIds.map((id) => [id, 'deny', 'policy', 'massgen.providerTools: deny']),
		);
	});

	it('ask: one notification before any request; its Allow (the workbench’s accept-primary-action) is recorded as the user’s', async () => {
		await mode(undefined);
		const asked = questions.of('providerTools').length;
		const finished = ask();
		const question = await until('the question', () => questions.of('providerTools')[asked]);
		for (const id of agentIds) assert.ok(question.includes(`${id} (web search)`), question);
		assert.equal(requestsInTest(), 0, 'no request before the answer');
		await vscode.commands.executeCommand('notification.acceptPrimaryAction');
		const run = await finished;
		assert.equal(run.result.status, 'completed', run.result.error ?? undefined);
		assert.equal(questions.of('providerTools').length, asked + 1, 'asked once per run');
		assert.ok(sentTools().some((json) => json.includes('"type":"web_search"')));
		assert.ok(run.state.finalAnswer?.content.includes('\n\nSources:\n1. ['));
		assert.deepEqual(
			ledger(run).map((l) => [l.agentId, l.decision, l.via, l.by, l.reason]),
			agentIds.map((id) => [id, 'allow', 'approval', 'user', 'allowed for this run']),
		);
	});

	it('a citation clicked in the panel opens only once the user confirms: dismissed, nothing opens; Open Link, the page is requested', async () => {
		const hits: string[] = [];
		const site = createServer((req, res) => {
			hits.push(req.url ?? '');
			res.end('cited');
		});
		await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
		try {
			const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/cited?from=answer`;
			const asked = questions.of('answerLink').length;
			// The panel's message path validates first: a javascript: link is never asked about.
			await panel.receive({ type: 'open-link', url: 'javascript:alert(1)' });
			assert.equal(questions.of('answerLink').length, asked);
			const dismissed = panel.receive({ type: 'open-link', url });
			const question = await until('the question', () => questions.of('answerLink')[asked]);
			assert.ok(question.includes(url), question);
			await vscode.commands.executeCommand('notifications.clearAll');
			await dismissed;
			assert.equal(hits.length, 0, 'dismissed: nothing opened');
			const opened = panel.receive({ type: 'open-link', url });
			await until('the second question', () => questions.of('answerLink')[asked + 1]);
			assert.equal(hits.length, 0, 'nothing opens before the answer');
			await vscode.commands.executeCommand('notification.acceptPrimaryAction');
			await opened;
			// code-server opens a localhost address through its port forwarding, which asked for '/' here.
			await until('the page requested', () => hits.length > 0);
		} finally {
			site.closeAllConnections();
			await new Promise((resolve) => site.close(resolve));
		}
	});

	it('ask: dismissing the notification denies, recorded as the user’s; no request carries the tools', async () => {
		await mode(undefined);
		const asked = questions.of('providerTools').length;
		const finished = ask();
		await until('the question', () => questions.of('providerTools')[asked]);
		assert.equal(requestsInTest(), 0, 'no request before the answer');
		await vscode.commands.executeCommand('notifications.clearAll');
		const run = await finished;
		assert.equal(run.result.status, 'completed', run.result.error ?? undefined);
		for (const json of sentTools()) for (const tool of searchTools) assert.ok(!json.includes(tool), json);
		assert.deepEqual(
			ledger(run).map((l) => [l.agentId, l.decision, l.via, l.by, l.reason]),
			agentIds.map((id) => [id, 'deny', 'approval', 'user', 'denied for this run']),
		);
	});
});
