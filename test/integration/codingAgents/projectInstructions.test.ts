/**
 * Coding agents get the project's instruction files through our prompt, like the API agents: the
 * real Claude Code and Codex CLIs (pinned SDKs) against loopback servers, through `dist/cli.js`.
 * Their own loading stays off (`settingSources: []`, `project_doc_max_bytes: 0`): each file's text
 * reaches the model exactly once, in the `<PROJECT INSTRUCTIONS>` section.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorkspaceDir } from '../../support/tempTree.js';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';
import { runCli } from '../cli/cliProcess.js';

const agentsRule = 'AGENTS-RULE-5e1f: run the linter before answering.';
const claudeRule = 'CLAUDE-RULE-90ab: keep functions under forty lines.';

/** Occurrences of `text` in a request body. */
const count = (body: string, text: string) => body.split(text).length - 1;

describe('coding agents get the project instructions through our prompt (dist/cli.js)', () => {
	let server: LoopbackProvider | undefined;
	afterEach(async () => {
		await server?.close();
		server = undefined;
	});

	const cases = [
		{ type: 'claude_code', protocol: 'anthropic', model: 'claude-sonnet-4-5', env: 'ANTHROPIC_API_KEY' },
		{ type: 'codex', protocol: 'responses', model: 'gpt-5.5', env: 'OPENAI_API_KEY' },
	] as const;

	for (const { type, protocol, model, env } of cases) {
		it(`${type}: AGENTS.md and CLAUDE.md each once, in the section that opens its prompt`, async () => {
			server = await startLoopbackProvider(protocol, { auto: { name: type } });
			const root = makeWorkspaceDir({
				'AGENTS.md': `${agentsRule}\n`,
				'CLAUDE.md': `${claudeRule}\n`,
				'a.txt': 'old\n',
			});
			// The team file lives outside the workspace: the folder's own config is not in play.
			const team = join(makeWorkspaceDir(), 'team.yaml');
			writeFileSync(
				team,
				[
					'agent:',
					'  backend:',
					`    type: ${type}`,
					`    model: ${model}`,
					`    base_url: ${server.baseUrl}`,
					'',
				].join('\n'),
			);
			const run = await runCli(['run', '--config', team, 'Say hi.'], {
				cwd: root,
				env: { [env]: `loopback-${type}-key` },
				deadlineMs: 100_000,
			});
			expect(run.code, run.stderr).toBe(0);
			expect(run.stderr).toContain('; instructions: AGENTS.md, CLAUDE.md');
			const carrying = server.requests.filter((request) => request.rawBody.includes(agentsRule));
			expect(carrying.length).toBeGreaterThan(0);
			for (const request of carrying) {
				const body = JSON.parse(request.rawBody) as unknown;
				const text = JSON.stringify(body);
				expect(count(text, agentsRule)).toBe(1);
				expect(count(text, claudeRule)).toBe(1);
				expect(text).toContain('<PROJECT INSTRUCTIONS>');
				expect(text.indexOf('<PROJECT INSTRUCTIONS>')).toBeLessThan(text.indexOf(agentsRule));
			}

			// Off: the CLI's own loading does not bring them back.
			const before = server.requests.length;
			const off = await runCli(['run', '--config', team, '--no-instructions', 'Say hi.'], {
				cwd: root,
				env: { [env]: `loopback-${type}-key` },
				deadlineMs: 100_000,
			});
			expect(off.code, off.stderr).toBe(0);
			const later = server.requests.slice(before);
			expect(later.length).toBeGreaterThan(0);
			for (const request of later) {
				expect(request.rawBody).not.toContain(agentsRule);
				expect(request.rawBody).not.toContain(claudeRule);
			}
		}, 220_000);
	}
});
