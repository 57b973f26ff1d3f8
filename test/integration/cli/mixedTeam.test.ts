import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackTeam, type LoopbackTeam } from '../../servers/loopbackTeam.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { runCli } from './cliProcess.js';

/**
 * Issue 3's acceptance run: a mixed team (OpenAI Responses, Anthropic Messages, Gemini,
 * Chat Completions), each agent through its official SDK, against loopback servers that
 * speak each wire protocol — driven by the built CLI exactly as a user would.
 */
describe('mixed team over the real SDKs (dist/cli.js)', () => {
	let team: LoopbackTeam;
	beforeAll(async () => {
		team = await startLoopbackTeam();
	});
	afterAll(() => team.close());

	it('completes with votes, a winner, and tokens and cost per agent', async () => {
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const config = join(root, 'team.yaml');
		writeFileSync(config, team.configYaml());
		const run = await runCli(['run', '--config', config, 'What does a.ts export?'], { cwd: root });
		expect(run.stderr).not.toContain('loopback-openai-key');
		expect(run.code).toBe(0);
		const runs = join(root, '.massgen', 'runs');
		const result = JSON.parse(readFileSync(join(runs, readdirSync(runs)[0]!, 'result.json'), 'utf8'));
		expect(result.status).toBe('completed');
		// Answers that arrive before the others have streamed anything reach them at once, so
		// not every agent needs to answer; every agent must vote through its own SDK.
		expect(result.answers.length).toBeGreaterThanOrEqual(1);
		expect(result.votes.map((v: { voter: string }) => v.voter).sort()).toEqual([
			'chat_agent',
			'claude_agent',
			'gemini_agent',
			'openai_agent',
		]);
		expect(result.winner.agentId).toMatch(/_agent$/);
		expect(result.finalAnswer).toBeTruthy();
		const usage = Object.fromEntries(result.usage.map((u: { agentId: string }) => [u.agentId, u]));
		for (const id of ['openai_agent', 'claude_agent', 'gemini_agent', 'chat_agent']) {
			expect(usage[id].inputTokens).toBeGreaterThan(0);
			expect(usage[id].outputTokens).toBeGreaterThan(0);
		}
		expect(usage['openai_agent'].costUsd).toBeGreaterThan(0);
		expect(usage['claude_agent'].costUsd).toBeGreaterThan(0);
		expect(usage['gemini_agent'].costUsd).toBeGreaterThan(0);
		expect(usage['chat_agent'].costUsd).toBeNull();
		for (const server of Object.values(team.servers)) {
			expect(server.requests.length).toBeGreaterThanOrEqual(2);
		}
	});
});
