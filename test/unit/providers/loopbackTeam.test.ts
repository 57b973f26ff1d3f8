import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModel } from '../../../src/core/providers/createModel.js';
import { startLoopbackTeam, type LoopbackAgent, type LoopbackTeam } from '../../servers/loopbackTeam.js';
import { attempt, request } from './contract.js';

describe('loopback team', () => {
	let team: LoopbackTeam;
	beforeAll(async () => {
		team = await startLoopbackTeam();
	});
	afterAll(() => team.close());

	it('describes one agent per protocol in a MassGen config', () => {
		const config = parse(team.configYaml({ orchestrator: { max_new_answers_per_agent: 2 } })) as {
			agents: LoopbackAgent[];
			orchestrator: unknown;
		};
		expect(config.agents.map((a) => a.backend.type)).toEqual([
			'openai',
			'claude',
			'gemini',
			'chatcompletion',
		]);
		expect(config.orchestrator).toEqual({ max_new_answers_per_agent: 2 });
	});

	it('every agent answers a coordination call through its own SDK', async () => {
		const newAnswer = {
			name: 'new_answer',
			description: 'answer',
			parameters: { type: 'object', properties: { content: { type: 'string' } } },
		};
		for (const agent of team.agents) {
			const { type, model, base_url: baseUrl, api_key: apiKey } = agent.backend;
			const chat = createModel({ type, model, baseUrl, apiKey, options: {} });
			const question = '<ORIGINAL MESSAGE> What does a.ts export? </ORIGINAL MESSAGE>';
			const { result } = await attempt(
				chat,
				request({ messages: [{ role: 'user', content: question }], tools: [newAnswer] }),
			);
			expect(result!.toolCalls[0]).toMatchObject({
				name: 'new_answer',
				arguments: { content: expect.stringContaining(`${type} agent`) },
			});
			expect(result!.toolCalls[0]!.arguments['content']).toContain('What does a.ts export?');
		}
		expect(Object.values(team.servers).every((s) => s.requests.length === 1)).toBe(true);
	});
});
