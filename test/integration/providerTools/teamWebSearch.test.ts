import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';
import {
	geminiServerTools,
	responsesServerTools,
	type ServerToolScript,
} from '../../servers/wire/providerToolStreams.js';
import { xaiServerTools } from '../../servers/wire/xaiToolStreams.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { runCli } from '../cli/cliProcess.js';

/**
 * MassGen's three_agents_default (Gemini, GPT-5 nano, Grok), web search on every agent, each through
 * its official SDK against its loopback server (grok's: xAI's Responses API): coordination as usual,
 * and the winner's presentation searches, so the final answer carries its citations.
 */
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

describe('a web-searching team (dist/cli.js)', () => {
	const servers: LoopbackProvider[] = [];
	afterEach(async () => {
		await Promise.all(servers.splice(0).map((server) => server.close()));
	});

	it('every agent sends its search tool, the presenter’s search is in its lane and its citations in the answer', async () => {
		const team = [
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
				// three_agents_default's 'grok-4-fast' has no entry in prices.yaml; this one is priced.
				model: 'grok-4-fast-reasoning',
				protocol: 'responses',
				events: xaiServerTools,
			},
		] as const;
		const agents = [];
		const byAgent = new Map<string, LoopbackProvider>();
		for (const member of team) {
			const server = await startLoopbackProvider(member.protocol, {
				auto: { name: member.id, plainReply: (model) => member.events(script, model) },
			});
			servers.push(server);
			byAgent.set(member.id, server);
			agents.push({
				id: member.id,
				backend: {
					type: member.type,
					model: member.model,
					base_url: server.baseUrl,
					api_key: 'loopback-key',
					enable_web_search: true,
				},
			});
		}
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const config = join(root, 'team.yaml');
		writeFileSync(config, stringify({ agents }));
		const run = await runCli(
			['run', '--config', config, '--provider-tools=allow', 'What is new in TypeScript 5.9?'],
			{
				cwd: root,
			},
		);
		expect(run.code, run.stderr).toBe(0);
		const sent = (server: LoopbackProvider) =>
			JSON.stringify((server.requests[0]!.body as { tools?: unknown }).tools);
		expect(sent(byAgent.get('gemini2.5flash')!)).toContain('"googleSearch"');
		expect(sent(byAgent.get('gpt5nano')!)).toContain('"type":"web_search"');
		expect(sent(byAgent.get('grok3mini')!)).toContain('{"type":"web_search"},{"type":"x_search"}');
		expect(byAgent.get('grok3mini')!.requests[0]!.path).toBe('/v1/responses');
		const runs = join(root, '.massgen', 'runs');
		const dir = join(runs, readdirSync(runs)[0]!);
		const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8'));
		const winner: string = result.winner.agentId;
		expect(result.finalAnswer).toContain(script.text);
		expect(result.finalAnswer).toMatch(/Sources:\n1\. \[.+\]\(https:\/\/.+\)\n2\. \[.+\]\(https:\/\/.+\)/);
		expect(run.stdout).toContain('Sources:');
		const events = readFileSync(join(dir, 'events.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line));
		const searches = events.filter((e) => e.type === 'provider-tool' && e.kind === 'search');
		// Grok also searches X (a second search); the others search the web once.
		expect(searches.map((e) => [e.agentId, e.phase, e.query])).toEqual([
			[winner, 'presentation', script.query],
			...(winner === 'grok3mini' ? [[winner, 'presentation', `X: ${script.query}`]] : []),
		]);
		expect(searches[0].sources.map((s: { url: string }) => s.url)).toEqual(script.sources.map((s) => s.url));
		// Priced per search: the presenter's cost includes one web search at its vendor's rate.
		const usage = result.usage.find((u: { agentId: string }) => u.agentId === winner);
		expect(usage.costUsd).toBeGreaterThan(0.01);
	});
});
