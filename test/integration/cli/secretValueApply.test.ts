/**
 * A change set that would write a secret value the run knows (here `DEPLOY_TOKEN` from the CLI's
 * environment, copied into a file by the scripted winner): `changes.patch` shows `[redacted]`, and
 * `--apply` names the file (never the value) and writes nothing without a terminal unless `--yes`;
 * on a terminal it asks. Control: a change set without a secret applies as before, with no warning.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { runCli } from './cliProcess.js';
import { startOnPty } from './ptyProcess.js';

const token = 'tok-secret-value-apply-8841';
const env = { DEPLOY_TOKEN: token };

function team(content: string): string {
	const file = join(mkdtempSync(join(tmpdir(), 'massgen-secretapply-cfg-')), 'team.yaml');
	const member = (id: string) => ({
		id,
		backend: {
			type: 'scripted',
			script: {
				coordination: [
					{ answer: 'Wrote deploy.sh.', edits: [{ path: 'deploy.sh', content }] },
					{ vote: 'first' },
				],
			},
		},
	});
	writeFileSync(file, stringify({ agents: [member('a'), member('b')] }));
	return file;
}

const withSecret = `#!/bin/sh\ncurl -H "Authorization: Bearer ${token}" https://deploy.example\n`;

describe('--apply of a change set holding a known secret value', () => {
	it('without a terminal: names the file, writes nothing; the patch shows [redacted]', async () => {
		const root = makeWorkspaceDir({ 'README.md': '# x\n' });
		const run = await runCli(
			['run', '--deny-all', '--apply', '--config', team(withSecret), 'Deploy script'],
			{
				cwd: root,
				env,
			},
		);
		expect(run.code).toBe(2);
		expect(run.stderr).toMatch(/massgen: deploy\.sh would get a secret value this run knows/);
		expect(run.stderr).toContain('--yes writes them anyway');
		expect(run.stdout + run.stderr).not.toContain(token);
		expect(existsSync(join(root, 'deploy.sh'))).toBe(false);
		const [runId] = readdirSync(join(root, '.massgen', 'runs'));
		const dir = join(root, '.massgen', 'runs', runId!);
		expect(readFileSync(join(dir, 'changes.patch'), 'utf8')).toContain('Bearer [redacted]');
		expect(JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')).secretValueFiles).toEqual([
			'deploy.sh',
		]);
	}, 30_000);

	it('--yes writes it, still saying so', async () => {
		const root = makeWorkspaceDir({ 'README.md': '# x\n' });
		const run = await runCli(['run', '--yes', '--apply', '--config', team(withSecret), 'Deploy script'], {
			cwd: root,
			env,
		});
		expect(run.code, run.stderr).toBe(0);
		expect(run.stderr).toMatch(/deploy\.sh would get a secret value/);
		expect(readFileSync(join(root, 'deploy.sh'), 'utf8')).toBe(withSecret);
	}, 30_000);

	it('on a terminal it asks: n writes nothing, y writes', async () => {
		for (const answer of ['n', 'y']) {
			const root = makeWorkspaceDir({ 'README.md': '# x\n' });
			const session = startOnPty(
				['run', '--deny-all', '--apply', '--config', team(withSecret), 'Deploy script'],
				{
					cwd: root,
					env,
				},
			);
			await session.waitFor('Write them anyway? [y/N] ');
			session.type(`${answer}\r`);
			expect(await session.exited).toBe(answer === 'y' ? 0 : 2);
			expect(existsSync(join(root, 'deploy.sh'))).toBe(answer === 'y');
			expect(session.output()).not.toContain(token);
		}
	}, 30_000);

	it('chat: the first /accept names the file and writes nothing, a second /accept writes it', async () => {
		const root = makeWorkspaceDir({ 'README.md': '# x\n' });
		const chat = startOnPty(['chat', '--deny-all', '--config', team(withSecret)], { cwd: root, env });
		let at = await chat.waitFor('massgen> ');
		chat.type('Deploy script\r');
		at = await chat.waitFor('/accept to write them', at);
		at = await chat.waitFor('massgen> ', at);
		chat.type('/accept\r');
		at = await chat.waitFor('/accept again to write them anyway', at);
		at = await chat.waitFor('massgen> ', at);
		expect(existsSync(join(root, 'deploy.sh'))).toBe(false);
		chat.type('/accept\r');
		at = await chat.waitFor('applied 1 change(s): deploy.sh', at);
		await chat.waitFor('massgen> ', at);
		chat.type('/quit\r');
		expect(await chat.exited).toBe(0);
		expect(readFileSync(join(root, 'deploy.sh'), 'utf8')).toBe(withSecret);
		expect(chat.output()).toMatch(/deploy\.sh would get a secret value this run knows/);
		expect(chat.output()).not.toContain(token);
	}, 30_000);

	it('control: no secret in the change set applies with no warning; a file that already held it is not marked', async () => {
		const root = makeWorkspaceDir({ 'README.md': '# x\n' });
		const plain = await runCli(['run', '--deny-all', '--apply', '--config', team('echo hi\n'), 'Script'], {
			cwd: root,
			env,
		});
		expect(plain.code, plain.stderr).toBe(0);
		expect(plain.stderr).not.toContain('secret value');
		expect(readFileSync(join(root, 'deploy.sh'), 'utf8')).toBe('echo hi\n');

		const had = makeWorkspaceDir({ 'deploy.sh': withSecret });
		const edit = await runCli(
			['run', '--deny-all', '--apply', '--config', team(`${withSecret}echo done\n`), 'More'],
			{
				cwd: had,
				env,
			},
		);
		expect(edit.code, edit.stderr).toBe(0);
		expect(edit.stderr).not.toContain('secret value');
		expect(readFileSync(join(had, 'deploy.sh'), 'utf8')).toBe(`${withSecret}echo done\n`);
	}, 30_000);
});
