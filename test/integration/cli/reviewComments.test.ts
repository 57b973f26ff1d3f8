/**
 * The review loop on the command line (`dist/cli.js`): `massgen run --continue RUN_ID --comments
 * FILE` sends RUN_ID's proposal back to the team with the reviewer's comments. Every agent's first
 * request carries the comments with their anchors and the lines they are on; every agent starts
 * from the proposal (merged onto the user's edit made since); the winner's citation marks what it
 * addressed; RUN_ID's set is recorded as replaced; nothing is written to the workspace.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { startLoopbackTeam, type LoopbackTeam } from '../../servers/loopbackTeam.js';
import type { PromptView } from '../../servers/types.js';
import { hashTree } from '../../support/tempTree.js';
import { runCli } from './cliProcess.js';

const base = Array.from({ length: 10 }, (_, i) => `const v${i + 1} = ${i + 1};`).join('\n') + '\n';
const proposed = base
	.replace('const v3 = 3;', 'let v3 = 3; // team')
	.replace('const v8 = 8;', 'const v8 = 80;');
const revising = (prompt: PromptView) =>
	[prompt.system, ...prompt.texts].join('\n').includes('<REVIEW COMMENTS>');

interface StoredResult {
	runId: string;
	changes: { path: string; base: string | null; content: string | null }[];
	revision?: {
		fromRunId: string;
		comments: { id: string; path: string; line: number; endLine: number; addressed: boolean; now: unknown }[];
	};
}

const resultOf = (stderr: string): StoredResult => {
	const dir = /run log: (\S+)/.exec(stderr)![1]!;
	return JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as StoredResult;
};

describe('massgen run --continue RUN_ID --comments FILE', () => {
	let team: LoopbackTeam;
	beforeAll(async () => {
		team = await startLoopbackTeam({
			auto: {
				// The first run proposes calc.ts; the revision only adds a test file, so calc.ts in its
				// set can come from nothing but the proposal every agent started from.
				presentationWrites: (prompt) =>
					revising(prompt)
						? [{ path: 'calc.test.ts', content: 'test("v3", () => {});\n' }]
						: [{ path: 'calc.ts', content: proposed }],
				presentation: (prompt) => (revising(prompt) ? 'Revised.\n\nAddresses: c1' : 'Proposed.'),
			},
		});
	});
	afterAll(() => team.close());

	it('sends every comment with its anchor, starts every agent from the proposal and records the replacement', async () => {
		const root = makeWorkspaceDir({ 'calc.ts': base });
		const config = join(root, '..', `${root.split('/').pop()}-team.yaml`);
		writeFileSync(config, team.configYaml());
		const first = await runCli(['run', '--config', config, 'Tidy calc.ts'], { cwd: root });
		expect(first.code, first.stderr).toBe(0);
		const run1 = resultOf(first.stderr);
		expect(run1.changes.map((c) => c.path)).toEqual(['calc.ts']);

		// The user edits a line the proposal does not touch before sending it back.
		const edited = base.replace('const v10 = 10;', 'const v10 = 10; // mine');
		writeFileSync(join(root, 'calc.ts'), edited);
		const comments = join(root, '..', `${root.split('/').pop()}-comments.yaml`);
		writeFileSync(
			comments,
			[
				'- path: calc.ts',
				'  line: 3',
				'  text: Keep it const.',
				'- path: calc.ts',
				'  line: 8',
				'  endLine: 9',
				'  text: Why 80?',
			].join('\n'),
		);
		const seen = Object.fromEntries(Object.entries(team.servers).map(([n, s]) => [n, s.requests.length]));
		const before = hashTree(root, (rel) => rel.startsWith('.massgen'));

		const second = await runCli(
			['run', '--config', config, '--continue', run1.runId, '--comments', comments],
			{
				cwd: root,
			},
		);
		expect(second.code, second.stderr).toBe(0);
		expect(hashTree(root, (rel) => rel.startsWith('.massgen'))).toEqual(before);

		const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
		for (const [name, server] of Object.entries(team.servers)) {
			const body = server.requests[seen[name]!]!.rawBody;
			expect(body, name).toContain(escaped('<comment id="c1" path="calc.ts" lines="3">'));
			expect(body, name).toContain(escaped('let v3 = 3; // team\nThe user wrote:\nKeep it const.'));
			expect(body, name).toContain(escaped('<comment id="c2" path="calc.ts" lines="8-9">'));
			expect(body, name).toContain(escaped('const v8 = 80;\nconst v9 = 9;\nThe user wrote:\nWhy 80?'));
			expect(body, name).toContain('Revise the proposal: address the review comments.');
			expect(body, name).toContain(escaped('the user sent them back for revision'));
		}

		const run2 = resultOf(second.stderr);
		const calc = run2.changes.find((c) => c.path === 'calc.ts')!;
		// Against today's disk (the user's line), with the proposal merged onto it.
		expect(calc.base).toBe(edited);
		expect(calc.content).toBe(proposed.replace('const v10 = 10;', 'const v10 = 10; // mine'));
		expect(run2.changes.map((c) => c.path).sort()).toEqual(['calc.test.ts', 'calc.ts']);
		expect(run2.revision).toEqual({
			fromRunId: run1.runId,
			userEdited: [],
			comments: [
				expect.objectContaining({
					id: 'c1',
					line: 3,
					endLine: 3,
					addressed: true,
					now: { line: 3, endLine: 3 },
				}),
				expect.objectContaining({
					id: 'c2',
					line: 8,
					endLine: 9,
					addressed: false,
					now: { line: 8, endLine: 9 },
				}),
			],
		});
		const log = readFileSync(join(root, '.massgen', 'runs', run1.runId, 'changes-log.jsonl'), 'utf8');
		expect(JSON.parse(log.trim())).toMatchObject({ kind: 'supersede', by: 'cli', byRun: run2.runId });

		const shown = await runCli(['show', run2.runId], { cwd: root });
		expect(shown.stdout).toContain(`── review comments on run ${run1.runId}'s proposal ──`);
		expect(shown.stdout).toContain('c1 calc.ts:3: Keep it const. (addressed)');
		expect(shown.stdout).toContain('c2 calc.ts:8-9: Why 80? (not cited as addressed)');
		// The next turn's history carries the comments under the turn they were sent with.
		const counts = Object.fromEntries(Object.entries(team.servers).map(([n, s]) => [n, s.requests.length]));
		const third = await runCli(['run', '--config', config, '--continue', 'Anything else?'], { cwd: root });
		expect(third.code, third.stderr).toBe(0);
		for (const [name, server] of Object.entries(team.servers)) {
			const body = server.requests[counts[name]!]!.rawBody;
			expect(body, name).toContain(
				escaped(
					'User: Revise the proposal: address the review comments.\nUser (review comment) calc.ts:3: Keep it const.\nUser (review comment) calc.ts:8-9: Why 80?',
				),
			);
		}
	});

	it('refuses comments that point past the file, at a protected path, or in a malformed file, before any run starts', async () => {
		const root = makeWorkspaceDir({ 'calc.ts': base });
		const config = join(root, '..', `${root.split('/').pop()}-team.yaml`);
		writeFileSync(config, team.configYaml());
		const first = await runCli(['run', '--config', config, 'Tidy calc.ts'], { cwd: root });
		const run1 = resultOf(first.stderr);
		const comments = join(root, '..', `${root.split('/').pop()}-bad.yaml`);
		const send = (yaml: string) => {
			writeFileSync(comments, yaml);
			return runCli(['run', '--config', config, '--continue', run1.runId, '--comments', comments], {
				cwd: root,
			});
		};
		const past = await send('- {path: calc.ts, line: 11, text: here}\n');
		expect(past.code).toBe(2);
		expect(past.stderr).toContain("comment 1 is on lines 11–11 of 'calc.ts', which has 10 line(s)");

		const git = await send('- {path: .git/config, line: 1, text: here}\n');
		expect(git.code).toBe(2);
		expect(git.stderr).toMatch(/cannot send the review to the team: comment 1's file refused: .*\.git/);

		const malformed = await send('- path: calc.ts\n  line: three\n  text: here\n');
		expect(malformed.code).toBe(1);
		expect(malformed.stderr).toContain(`${comments}:2:9: `);

		const noRun = await runCli(['run', '--config', config, '--comments', comments, 'x'], { cwd: root });
		expect(noRun.code).toBe(1);
		expect(noRun.stderr).toContain('--comments needs --continue RUN_ID');
		// None of the refused revisions made a run.
		expect(readdirSync(join(root, '.massgen', 'runs'))).toEqual([run1.runId]);
	});
});
