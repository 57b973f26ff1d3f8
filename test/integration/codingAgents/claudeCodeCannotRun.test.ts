import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { startLoopbackProvider } from '../../servers/loopbackProvider.js';
import { repo, runCli } from '../cli/cliProcess.js';
import { readEvents, readResult, runDir } from '../../support/runDir.js';

const massgenFixture = (name: string) => join(repo, 'test', 'fixtures', 'configs', 'massgen', name);
const notLoggedIn = 'Claude Code: Not logged in';
const noCli = 'Claude Code CLI not found';

/** MassGen's claude_code configs load; an agent whose CLI cannot run sits the run out, with one clear message. */
describe('claude_code agents that cannot run (dist/cli.js)', () => {
	// No key and a home without a login: nothing of the host's own Claude Code is read.
	const env = () => ({ HOME: makeWorkspaceDir() });

	it('validate accepts a MassGen claude_code config and names the ignored keys at file:line:col', async () => {
		const file = massgenFixture('claude_code_discord_mcp.yaml');
		const run = await runCli(['validate', file], { cwd: repo });
		expect(run.code).toBe(0);
		// It runs now: no 'cannot take part' warning for its type.
		expect(run.stderr + run.stdout).not.toContain(`${file}:4:11: warning`);
		expect(run.stderr + run.stdout).toContain(`${file}:6:5: warning: MassGen key 'permission_mode'`);
	});

	it.each([
		['the config (cli_path)', ['      cli_path: /nonexistent/claude'], {}],
		[
			'MASSGEN_CLAUDE_CODE_PATH (the editor setting)',
			[],
			{ MASSGEN_CLAUDE_CODE_PATH: '/nonexistent/claude' },
		],
	])(
		'a missing CLI named by %s leaves the agent out with one clear message; the others go on',
		async (_, keys, extraEnv) => {
			const root = makeWorkspaceDir({ 'a.txt': 'x\n' });
			const config = join(root, 'team.yaml');
			writeFileSync(
				config,
				[
					'agents:',
					'  - id: planner',
					'    backend:',
					'      type: scripted',
					'      script:',
					'        coordination:',
					'          - answer: Write a CONTRIBUTING guide.',
					'          - vote: first',
					'            reason: it covers setup',
					'  - id: coder',
					'    backend:',
					'      type: claude_code',
					'      cwd: workspace2',
					...keys,
					'',
				].join('\n'),
			);
			const run = await runCli(
				['run', '--trust-workspace', '--config', config, 'How should we document this?'],
				{
					cwd: root,
					env: { ...env(), ...extraEnv },
				},
			);
			expect(run.code).toBe(0);
			const result = readResult(runDir(root));
			expect(result.status).toBe('completed');
			expect(result.winner).toMatchObject({ agentId: 'planner' });
			const events = readEvents(runDir(root));
			const errors = events.filter((e) => e.type === 'agent-error' && e.agentId === 'coder');
			expect(errors).toHaveLength(1);
			const killed = events.find((e) => e.type === 'agent-killed' && e.agentId === 'coder');
			expect(killed?.reason).toContain(noCli);
			expect(killed?.reason).toContain('/nonexistent/claude');
			expect(killed?.reason).toContain('cli_path, MASSGEN_CLAUDE_CODE_PATH or the setting');
			expect(run.stderr).toContain(`coder: killed: ${noCli}`);
		},
	);

	it('a team of only claude_code agents with no key and no login fails cleanly (exit 2), naming why', async () => {
		const root = makeWorkspaceDir({ 'a.txt': 'x\n' });
		const run = await runCli(['run', '--config', massgenFixture('claude_code_single.yaml'), 'hi'], {
			cwd: root,
			env: env(),
		});
		expect(run.code).toBe(2);
		expect(readResult(runDir(root))).toMatchObject({ status: 'failed' });
		expect(String(readResult(runDir(root)).error)).toContain(notLoggedIn);
		expect(run.stderr).not.toMatch(/\bat .+\.js:\d+/);
	});

	it('a refused key ends the agent at the first refusal (auth), not after the CLI retried it ten times', async () => {
		const server = await startLoopbackProvider('anthropic');
		try {
			// Every request refused: without our stop the CLI would make eleven.
			for (let i = 0; i < 11; i++) server.enqueue({ status: 401, message: 'invalid x-api-key' });
			const root = makeWorkspaceDir({ 'a.txt': 'x\n' });
			const config = join(root, 'team.yaml');
			writeFileSync(
				config,
				[
					'agents:',
					'  - id: planner',
					'    backend:',
					'      type: scripted',
					'      script:',
					'        coordination:',
					'          - answer: Keep it short.',
					'  - id: coder',
					'    backend:',
					'      type: claude_code',
					`      base_url: ${server.baseUrl}`,
					'',
				].join('\n'),
			);
			const run = await runCli(['run', '--trust-workspace', '--config', config, 'Summarise.'], {
				cwd: root,
				env: { ...env(), ANTHROPIC_API_KEY: 'refused-key' },
			});
			expect(run.code).toBe(0);
			expect(readResult(runDir(root))).toMatchObject({ status: 'completed', winner: { agentId: 'planner' } });
			const killed = readEvents(runDir(root)).find((e) => e.type === 'agent-killed' && e.agentId === 'coder');
			expect(killed?.reason).toContain('Claude Code: the API refused the key or login (HTTP 401)');
			expect(server.requests.length).toBeLessThanOrEqual(2);
			expect(run.stderr).not.toContain('refused-key');
		} finally {
			await server.close();
		}
	});
});
