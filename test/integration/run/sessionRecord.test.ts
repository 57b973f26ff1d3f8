import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';
import type { RunEvent } from '../../../src/contract/runEvents.js';
import { runSession, type RunSessionOptions } from '../../../src/core/run/runSession.js';
import { readSessions } from '../../../src/core/sessions/readSessions.js';
import { makeWorkspaceDir } from '../../fakes/team.js';

const repo = join(__dirname, '..', '..', '..');
const configFile = join(repo, 'test', 'fixtures', 'config', 'valid', 'scripted.yaml');

async function ask(root: string, question: string, session?: RunSessionOptions['session']) {
	const loaded = loadConfigText(readFileSync(configFile, 'utf8'), configFile);
	const events: RunEvent[] = [];
	const { result, runDir } = await runSession({
		team: { config: loaded.config!, file: configFile },
		keys: { env: {} },
		workspaceRoot: root,
		question,
		signal: new AbortController().signal,
		shippedConfigsDir: join(repo, 'configs'),
		onEvent: (event) => events.push(event),
		...(session ? { session } : {}),
	});
	const onDisk = JSON.parse(readFileSync(join(runDir, 'result.json'), 'utf8')) as typeof result;
	const start = events.find((event) => event.type === 'run-start');
	return { runId: result.runId, result: onDisk, start: start?.type === 'run-start' ? start : undefined };
}

describe('runSession records the session of every run', () => {
	it('a new run starts its own session; a follow-up joins it; a fork without an id starts a line', async () => {
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const first = await ask(root, 'first');
		expect(first.result.session).toEqual({ id: first.runId, parentRunId: null });
		expect(first.start?.session).toEqual({ id: first.runId, parentRunId: null });

		const second = await ask(root, 'second', { id: first.runId, parentRunId: first.runId });
		expect(second.result.session).toEqual({ id: first.runId, parentRunId: first.runId });
		expect(second.start?.session).toEqual(second.result.session);

		const fork = await ask(root, 'fork', { parentRunId: first.runId });
		expect(fork.result.session).toEqual({ id: fork.runId, parentRunId: first.runId });

		const { sessions } = await readSessions(root);
		const lines = Object.fromEntries(sessions.map((s) => [s.id, s.turns.map((t) => t.question)]));
		expect(lines).toEqual({ [first.runId]: ['first', 'second'], [fork.runId]: ['fork'] });
	});
});
