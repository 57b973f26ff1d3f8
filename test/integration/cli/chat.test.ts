import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { fixture, repo, runCli } from './cliProcess.js';
import { startOnPty } from './ptyProcess.js';

const demo = join(repo, 'configs', 'demo.yaml');
const prompt = 'massgen> ';

function result(root: string, runId: string) {
	return JSON.parse(readFileSync(join(root, '.massgen', 'runs', runId, 'result.json'), 'utf8'));
}

describe('massgen chat on a pseudo-terminal (dist/cli.js under script)', () => {
	it('asks, shows the diff, rejects, follows up in the same session, accepts, quits', async () => {
		const root = makeWorkspaceDir({ 'README.md': '# demo\n' });
		const chat = startOnPty(['chat', '--config', demo, '--deny-all'], { cwd: root });
		let at = await chat.waitFor(prompt);
		chat.type('How should we document this project?\r');
		at = await chat.waitFor('1 proposed change(s): /diff to see them, /accept to write them, /reject', at);
		// The live table drew the agents while the run went on.
		expect(chat.output()).toMatch(/skeptic/);
		const first = /run log: \S+\/runs\/(\S+)/.exec(chat.output())![1]!;
		at = await chat.waitFor(prompt, at);
		chat.type('/diff\r');
		at = await chat.waitFor('+++ b/CONTRIBUTING.md', at);
		at = await chat.waitFor(prompt, at);
		chat.type('/reject\r');
		at = await chat.waitFor('rejected 1 change(s); nothing was written', at);
		at = await chat.waitFor(prompt, at);
		chat.type('/accept\r');
		at = await chat.waitFor('these changes were rejected already', at);
		at = await chat.waitFor(prompt, at);
		expect(existsSync(join(root, 'CONTRIBUTING.md'))).toBe(false);

		// The follow-up carries the first turn (and that its changes were rejected): the team proposes them again.
		chat.type('Then write the guide after all\r');
		at = await chat.waitFor(`continuing session ${first} after run ${first} (1 earlier turn(s))`, at);
		at = await chat.waitFor('1 proposed change(s)', at);
		at = await chat.waitFor(prompt, at);
		chat.type('/accept\r');
		at = await chat.waitFor('applied 1 change(s): CONTRIBUTING.md', at);
		expect(readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8')).toContain('# Contributing');
		at = await chat.waitFor(prompt, at);
		chat.type('/bogus\r');
		at = await chat.waitFor('unknown command /bogus', at);
		await chat.waitFor(prompt, at);
		chat.type('/quit\r');
		expect(await chat.exited).toBe(0);

		const second = readdirSync(join(root, '.massgen', 'runs')).find((id) => id !== first)!;
		expect(result(root, second).session).toEqual({ id: first, parentRunId: first });
		expect(result(root, second).question).toBe('Then write the guide after all');
		const changes = (id: string) =>
			readFileSync(join(root, '.massgen', 'runs', id, 'changes-log.jsonl'), 'utf8');
		expect(changes(first)).toContain('"kind":"reject"');
		expect(changes(second)).toContain('"kind":"accept"');
	});

	it('Ctrl-C stops the running question and returns to the prompt; Ctrl-C at the prompt quits', async () => {
		const root = makeWorkspaceDir();
		const chat = startOnPty(['chat', '--config', fixture('slow.yaml')], { cwd: root });
		let at = await chat.waitFor(prompt);
		chat.type('Slow question?\r');
		at = await chat.waitFor('slow2', at);
		chat.type('\x03');
		at = await chat.waitFor('massgen: stopping the run', at);
		await chat.waitFor(prompt, at);
		const [runId] = readdirSync(join(root, '.massgen', 'runs'));
		expect(result(root, runId!).status).toBe('cancelled');
		chat.type('\x03');
		expect(await chat.exited).toBe(0);
	});

	it('a question asked over undecided changes records them as superseded: no longer listed as pending', async () => {
		const root = makeWorkspaceDir({ 'README.md': '# demo\n' });
		const chat = startOnPty(['chat', '--config', demo, '--deny-all'], { cwd: root });
		let at = await chat.waitFor(prompt);
		chat.type('How should we document this project?\r');
		at = await chat.waitFor('1 proposed change(s)', at);
		const first = /run log: \S+\/runs\/(\S+)/.exec(chat.output())![1]!;
		at = await chat.waitFor(prompt, at);
		chat.type('And how do we test it?\r');
		at = await chat.waitFor('1 proposed change(s)', at);
		await chat.waitFor(prompt, at);
		chat.type('/quit\r');
		expect(await chat.exited).toBe(0);

		const second = readdirSync(join(root, '.massgen', 'runs')).find((id) => id !== first)!;
		const [entry] = readFileSync(join(root, '.massgen', 'runs', first, 'changes-log.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as Record<string, unknown>);
		expect(entry).toMatchObject({ kind: 'supersede', by: 'cli', byRun: second });
		const listed = await runCli(['runs', '--json'], { cwd: root });
		const { runs } = JSON.parse(listed.stdout) as { runs: { runId: string; changes: string }[] };
		expect(Object.fromEntries(runs.map((r) => [r.runId, r.changes]))).toEqual({
			[first]: 'superseded',
			[second]: 'pending',
		});
	});
});
