import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { type LoopbackTeam, startLoopbackTeam } from '../../servers/loopbackTeam.js';
import { runCli } from './cliProcess.js';
import { startOnPty } from './ptyProcess.js';

/** `massgen init` through the built CLI: flags (no terminal) and the numbered prompts on a real pty. */
describe('massgen init (dist/cli.js)', () => {
	let team: LoopbackTeam;
	beforeAll(async () => {
		team = await startLoopbackTeam();
	});
	afterAll(() => team.close());

	it('--voting checklist_gated writes the checklist keys Build Team writes; the config validates', async () => {
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const init = await runCli(
			[
				'init',
				'--agent',
				'openai:gpt-5-mini',
				'--agent',
				'claude:claude-haiku-4-5',
				'--voting',
				'checklist_gated',
			],
			{ cwd: root, env: { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' } },
		);
		expect(init.code).toBe(0);
		const file = join(root, '.massgen', 'config.yaml');
		const { config, issues } = loadConfigText(readFileSync(file, 'utf8'), file);
		expect(issues.filter((issue) => issue.severity === 'error')).toEqual([]);
		expect(config!.orchestrator.voting_sensitivity).toBe('checklist_gated');
		expect(config!.orchestrator.voting_threshold).toBe(7);
		expect(config!.orchestrator.coordination?.evaluation_criteria_generator?.enabled).toBe(true);
		const wrong = await runCli(['init', '--agent', 'openai:gpt-5-mini', '--voting', 'checklist'], {
			cwd: root,
		});
		expect(wrong.code).toBe(1);
		expect(wrong.stderr).toContain('--voting is one of lenient, balanced, strict, checklist_gated');
	});

	it('--agent flags write a commented config that validates and runs against the loopback servers', async () => {
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const agentFlags = team.agents.flatMap((agent) => [
			'--agent',
			`${agent.backend.type}:${agent.backend.model}`,
			'--base-url',
			agent.backend.base_url,
		]);
		const keys = {
			OPENAI_API_KEY: 'loopback-openai-key',
			ANTHROPIC_API_KEY: 'loopback-claude-key',
			GEMINI_API_KEY: 'loopback-gemini-key',
		};
		const init = await runCli(
			[
				'init',
				...agentFlags,
				'--role',
				'You keep answers short.',
				'--voting',
				'balanced',
				'--timeout',
				'300',
			],
			{ cwd: root, env: keys },
		);
		expect(init.stderr).toBe('');
		expect(init.code).toBe(0);
		const file = join(root, '.massgen', 'config.yaml');
		expect(init.stdout).toContain(`wrote ${file}`);
		expect(init.stdout).toContain(
			'ok gpt-5-mini  openai/gpt-5-mini  key in the environment (OPENAI_API_KEY)',
		);
		expect(init.stdout).toContain('next: massgen run "QUESTION"');
		const text = readFileSync(file, 'utf8');
		expect(text).toContain('# gpt-5-mini: needs OPENAI_API_KEY.');
		expect(text).not.toContain('loopback-openai-key');
		const config = loadConfigText(text, file).config!;
		expect(config.agents.map((a) => a.id)).toEqual([
			'gpt-5-mini',
			'claude-haiku-4-5',
			'gemini-2.5-flash',
			'loopback-chat',
		]);
		// --role belongs to the --agent before it: the last one.
		expect(config.agents.map((a) => a.system_message)).toEqual([
			undefined,
			undefined,
			undefined,
			'You keep answers short.',
		]);
		expect(config.orchestrator.voting_sensitivity).toBe('balanced');

		const validate = await runCli(['validate', file], { cwd: root, env: keys });
		expect(validate.code).toBe(0);
		// The run takes the workspace's .massgen/config.yaml by default, with the keys from the environment.
		const run = await runCli(['run', '--trust-workspace', 'What does a.ts export?'], {
			cwd: root,
			env: keys,
		});
		expect(run.code).toBe(0);
		const runs = join(root, '.massgen', 'runs');
		const result = JSON.parse(readFileSync(join(runs, readdirSync(runs)[0]!, 'result.json'), 'utf8'));
		expect(result.status).toBe('completed');
		expect(result.votes.map((v: { voter: string }) => v.voter).sort()).toEqual([
			'claude-haiku-4-5',
			'gemini-2.5-flash',
			'gpt-5-mini',
			'loopback-chat',
		]);
	});

	it('an existing file is kept unless --yes; bad flags exit 1 with the reason and write nothing', async () => {
		const root = makeWorkspaceDir();
		const out = join(root, 'team.yaml');
		writeFileSync(out, 'mine\n');
		const kept = await runCli(['init', '--agent', 'claude:claude-haiku-4-5', '--out', 'team.yaml'], {
			cwd: root,
		});
		expect(kept.code).toBe(1);
		expect(kept.stderr).toBe(`massgen: ${out} exists; left unchanged (--yes overwrites it)\n`);
		expect(readFileSync(out, 'utf8')).toBe('mine\n');
		const replaced = await runCli(
			['init', '--agent', 'claude:claude-haiku-4-5', '--out', 'team.yaml', '--yes'],
			{
				cwd: root,
			},
		);
		expect(replaced.code).toBe(0);
		expect(replaced.stdout).toContain(
			'!! claude-haiku-4-5  claude/claude-haiku-4-5  no API key (set ANTHROPIC_API_KEY)',
		);
		expect(replaced.stdout).toContain('next: massgen run --config team.yaml "QUESTION"');
		expect(loadConfigText(readFileSync(out, 'utf8'), out).config?.agents[0]?.backend.type).toBe('claude');

		for (const [flags, message] of [
			[['--agent', 'nope:x'], /unknown provider 'nope'/],
			[['--agent', 'gpt-5-mini'], /--agent is PROVIDER:MODEL/],
			[['--role', 'r', '--agent', 'openai:m'], /--role comes after the --agent/],
			[['--agent', 'zai:glm-4.6', '--out', 'z.yaml'], /type zai needs 'base_url'/],
			[
				['--agent', 'openai:m', '--quorum', '0'],
				/--quorum is a whole number of agents or 'majority', not '0'/,
			],
			[[], /init needs --agent PROVIDER:MODEL when not run on a terminal/],
		] as const) {
			const bad = await runCli(['init', ...flags], { cwd: root });
			expect(bad.code).toBe(1);
			expect(bad.stderr).toMatch(message);
		}
		expect(readdirSync(root).sort()).toEqual(['team.yaml']);
	});

	it('on a terminal: numbered prompts, a role per member, the options, and a yes before overwriting', async () => {
		const root = makeWorkspaceDir();
		const pty = startOnPty(['init'], { cwd: root });
		let at = await pty.waitFor('Members (');
		pty.type('openai:gpt-5-mini ollama:qwen3:8b\r');
		at = await pty.waitFor('Role of gpt-5-mini', at);
		pty.type('You are the reviewer.\r');
		at = await pty.waitFor('Role of qwen3-8b', at);
		pty.type('\r');
		at = await pty.waitFor('Voting sensitivity', at);
		pty.type('sometimes\r');
		at = await pty.waitFor("'sometimes' is not one of the answers", at);
		pty.type('strict\r');
		at = await pty.waitFor('Answers per agent', at);
		pty.type('3\r');
		at = await pty.waitFor('Coordination timeout', at);
		pty.type('\r');
		at = await pty.waitFor('Quorum: end coordination once this many agents vote for one answer', at);
		pty.type('most\r');
		await pty.waitFor("'most' is not one of the answers", at);
		pty.type('Majority\r');
		expect(await pty.exited).toBe(0);
		const file = join(root, '.massgen', 'config.yaml');
		const text = readFileSync(file, 'utf8');
		const config = loadConfigText(text, file).config!;
		expect(config.agents.map((a) => [a.id, a.backend.type, a.backend.model, a.system_message])).toEqual([
			['gpt-5-mini', 'openai', 'gpt-5-mini', 'You are the reviewer.'],
			['qwen3-8b', 'ollama', 'qwen3:8b', undefined],
		]);
		expect(config.agents[1]!.backend.base_url).toBe('http://localhost:11434/v1');
		expect(config.orchestrator.voting_sensitivity).toBe('strict');
		expect(config.orchestrator.max_new_answers_per_agent).toBe(3);
		expect(config.orchestrator.coordination?.quorum).toBe('majority');
		expect(text).toContain('# How readily agents vote');
		expect(text).toContain(
			'# quorum: coordination ends as soon as this many live agents vote for one answer',
		);

		// Again: the file exists, and "no" leaves it as it was.
		const again = startOnPty(['init', '--agent', 'claude:claude-haiku-4-5'], { cwd: root });
		await again.waitFor('Overwrite it? [y/N]');
		again.type('n\r');
		expect(await again.exited).toBe(1);
		expect(again.output()).toContain('exists; left unchanged');
		expect(readFileSync(file, 'utf8')).toBe(text);
	});
});
