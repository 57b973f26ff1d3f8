/**
 * SIGUSR1 means "finish now" while a run of `massgen run` or `massgen chat` coordinates
 * (docs/cli.md#steering-a-run). Node's own answer to SIGUSR1 when nothing listens is to open its
 * inspector on ws://127.0.0.1:9229 (code execution as this process, its keys included, for any
 * local user who connects) — so a script's SIGUSR1 that came a moment early (the CLI still reading
 * the question, asking for trust) or late (the run just ended; chat back at its prompt) opened it.
 * The CLI catches SIGUSR1 for its whole life: outside a run it is answered with a line, and the
 * command goes on. Here the built CLI's chat, on a pty, gets SIGUSR1 at its prompt before and after
 * a run on a loopback server.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';
import { makeWorkspaceDir } from '../../support/tempTree.js';
import { startOnPty } from './ptyProcess.js';

const idle = 'massgen: SIGUSR1: no run is coordinating: nothing to finish';

describe.runIf(process.platform === 'linux')(
	'SIGUSR1 outside a run (dist/cli.js chat, loopback server)',
	() => {
		let server: LoopbackProvider;
		let configFile: string;
		beforeAll(async () => {
			server = await startLoopbackProvider('chat', { auto: true });
			const agents = ['a', 'b'].map((id) => ({
				id,
				backend: {
					type: 'chatcompletion',
					model: `sig-${id}`,
					base_url: server.baseUrl,
					api_key: 'loopback',
				},
			}));
			configFile = join(makeWorkspaceDir({ 'team.yaml': stringify({ agents }) }), 'team.yaml');
		});
		afterAll(() => server.close());

		it('at the prompt, before and after a run, is answered and ignored: no inspector, the chat goes on', async () => {
			const root = makeWorkspaceDir({ 'notes.md': '# notes\n' });
			const chat = startOnPty(['chat', '--config', configFile], {
				cwd: root,
				env: { XDG_STATE_HOME: makeWorkspaceDir() },
			});
			let at = await chat.waitFor('massgen> ');
			chat.signal('SIGUSR1');
			at = await chat.waitFor(idle, at);
			chat.type('How should notes.md be organised?\r');
			at = await chat.waitFor('massgen> ', at);
			chat.signal('SIGUSR1');
			await chat.waitFor(idle, at);
			chat.type('/quit\r');
			expect(await chat.exited).toBe(0);
			expect(chat.output()).not.toContain('Debugger listening');
			const runs = join(root, '.massgen', 'runs');
			const [runId] = readdirSync(runs);
			const result = JSON.parse(readFileSync(join(runs, runId!, 'result.json'), 'utf8')) as {
				coordination?: { ended: string };
				finalAnswer: string | null;
			};
			// Neither signal finished anything: the team agreed on its own.
			expect(result.coordination?.ended ?? 'consensus').toBe('consensus');
			expect(result.finalAnswer).not.toBeNull();
		}, 60_000);
	},
);
