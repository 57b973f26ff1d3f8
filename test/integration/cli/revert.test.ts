/**
 * Issue 13, end to end through `dist/cli.js`: `run --apply` records what it wrote, the user edits a
 * file afterwards, and `massgen revert RUN` takes exactly the team's hunks out again, keeping the
 * user's edit; a conflicting edit stops the revert with nothing written (or, with --markers, marks it).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { runCli } from './cliProcess.js';

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
// A value the run's redactor masks in every other file of the run directory (a secret-looking env name).
const key = 'sk-revert-test-0123456789abcdef';
const env = { MASSGEN_TEST_API_KEY: key };
const app = `const apiKey = '${key}';\n${lines(12)}`;
const teamApp = app.replace('line 2\n', 'line 2 (the team)\n');
const original = { 'app.ts': app, 'old.txt': 'old\n', 'other.txt': 'untouched\n' };

/** Two scripted agents; the winner's presentation modifies app.ts, adds new/added.txt and deletes old.txt. */
function teamConfig(): string {
	const agent = (id: string) => ({
		id,
		backend: {
			type: 'scripted',
			script: {
				coordination: [{ answer: `${id}'s plan` }, { vote: 'first', reason: 'fine' }],
				presentation: {
					edits: [
						{ path: 'app.ts', content: teamApp },
						{ path: 'new/added.txt', content: 'added\n' },
						{ path: 'old.txt', delete: true },
					],
					text: 'done',
				},
			},
		},
	});
	const file = join(mkdtempSync(join(tmpdir(), 'massgen-cfg-')), 'team.yaml');
	writeFileSync(file, stringify({ agents: [agent('alpha'), agent('beta')] }));
	return file;
}

/** sha256 of every workspace file outside .massgen/, by path. */
function hashes(root: string): Record<string, string> {
	const found: Record<string, string> = {};
	const walk = (dir: string) => {
		for (const name of readdirSync(dir).sort()) {
			const full = join(dir, name);
			const rel = relative(root, full);
			if (rel === '.massgen') continue;
			if (statSync(full).isDirectory()) walk(full);
			else found[rel] = sha(readFileSync(full, 'utf8'));
		}
	};
	walk(root);
	return found;
}

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hashed = (files: Record<string, string>) =>
	Object.fromEntries(Object.entries(files).map(([path, text]) => [path, sha(text)]));

async function applied(): Promise<{ root: string; runId: string; runDir: string }> {
	const root = makeWorkspaceDir(original);
	const run = await runCli(['run', '--apply', '--config', teamConfig(), 'Tidy up'], { cwd: root, env });
	expect(run.code, run.stderr).toBe(0);
	const runDir = /run log: (.+)/.exec(run.stderr)![1]!.trim();
	expect(hashes(root)).toEqual(
		hashed({ 'app.ts': teamApp, 'new/added.txt': 'added\n', 'other.txt': 'untouched\n' }),
	);
	return { root, runId: runDir.split('/').pop()!, runDir };
}

describe('massgen revert (CLI, scripted team)', () => {
	it("takes out exactly the team's changes and keeps the user's later edit; again, re-applies them", async () => {
		const { root, runId, runDir } = await applied();
		const log = readFileSync(join(runDir, 'changes-log.jsonl'), 'utf8');
		// Byte-exact (the key included) where every other run file is redacted; only the owner may read it.
		expect(log).toContain(key);
		expect(readFileSync(join(runDir, 'changes.patch'), 'utf8')).not.toContain(key);
		expect(statSync(join(runDir, 'changes-log.jsonl')).mode & 0o777).toBe(0o600);

		const mine = teamApp.replace('line 10\n', 'line 10 (mine)\n');
		writeFileSync(join(root, 'app.ts'), mine);
		const revert = await runCli(['revert', runId], { cwd: root, env });
		expect(revert.code, revert.stderr).toBe(0);
		expect(revert.stderr).toContain('kept your later edits in app.ts');
		expect(hashes(root)).toEqual(
			hashed({ ...original, 'app.ts': app.replace('line 10\n', 'line 10 (mine)\n') }),
		);

		const again = await runCli(['revert', runId, '--workspace', root], { cwd: tmpdir(), env });
		expect(again.code, again.stderr).toBe(0);
		expect(again.stderr).toContain('re-applied 3 file(s)');
		expect(hashes(root)).toEqual(
			hashed({ 'app.ts': mine, 'new/added.txt': 'added\n', 'other.txt': 'untouched\n' }),
		);
	}, 60_000);

	it("an edit overlapping the team's hunk: exit 2, the conflict listed, nothing written; --markers marks it", async () => {
		const { root, runId } = await applied();
		const clash = teamApp.replace('line 2 (the team)\n', 'line 2 (mine)\n');
		writeFileSync(join(root, 'app.ts'), clash);
		const before = hashes(root);
		const revert = await runCli(['revert', runId], { cwd: root, env });
		expect(revert.code).toBe(2);
		expect(revert.stderr).toContain('not reverted: app.ts:');
		expect(revert.stderr).toContain('nothing was written');
		expect(hashes(root)).toEqual(before);

		const marked = await runCli(['revert', runId, '--markers'], { cwd: root, env });
		expect(marked.code, marked.stderr).toBe(0);
		const text = readFileSync(join(root, 'app.ts'), 'utf8');
		expect(text).toContain(
			`<<<<<<< Current (your edits)\nline 2 (mine)\n=======\nline 2\n>>>>>>> Revert of MassGen run ${runId}\n`,
		);
		expect(text.startsWith(`const apiKey = '${key}';\n`)).toBe(true);
		expect(hashes(root)).toEqual(hashed({ ...original, 'app.ts': text }));
	}, 60_000);

	it('a run without an accept, or no such run: exit 1, nothing written', async () => {
		const root = makeWorkspaceDir(original);
		const run = await runCli(['run', '--config', teamConfig(), 'Tidy up'], { cwd: root, env });
		expect(run.code, run.stderr).toBe(0);
		const runId = /run log: (.+)/.exec(run.stderr)![1]!.trim().split('/').pop()!;
		const none = await runCli(['revert', runId], { cwd: root, env });
		expect(none.code).toBe(1);
		expect(none.stderr).toContain('has no accepted changes to revert');
		const missing = await runCli(['revert', '20260101-000000-zzzz'], { cwd: root, env });
		expect(missing.code).toBe(1);
		expect(hashes(root)).toEqual(hashed(original));
	}, 60_000);
});
