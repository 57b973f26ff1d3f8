/**
 * The project's instruction files through `dist/cli.js` and the four SDKs: what each loopback server
 * saw. Each agent's first message starts with the same `<PROJECT INSTRUCTIONS>` bytes (so they stay in
 * the cached prefix); which files are used depends on the files in play; a secret path, a FIFO or a
 * link out of the workspace is never read (the servers never see their bytes); `--no-instructions`
 * turns it off.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackTeam, type LoopbackTeam } from '../../servers/loopbackTeam.js';
import type { RecordedRequest } from '../../servers/loopbackProvider.js';
import { makeWorkspaceDir } from '../../support/tempTree.js';
import { runDirs } from '../../support/runDir.js';
import { runCli } from './cliProcess.js';

const rootRule = 'ROOT-RULE: indent with tabs, never spaces.';
const pkgRule = 'PKG-RULE: every export of pkg/ has a doc comment.';
const otherRule = 'OTHER-RULE: never shown unless other/ is in play.';
const tsRule = 'TS-RULE: prefer readonly fields.';
const pyRule = 'PY-RULE: type hints everywhere.';

const open = '<PROJECT INSTRUCTIONS>';
const close = '</PROJECT INSTRUCTIONS>';

/** The instructions section of a request's first user message ('' when it has none). */
function sectionOf(request: RecordedRequest): string {
	const first = request.prompt.texts[0] ?? '';
	if (!first.startsWith(open)) return '';
	return first.slice(0, first.indexOf(close) + close.length);
}

describe('massgen run: project instructions (dist/cli.js, four SDKs)', () => {
	let team: LoopbackTeam;
	beforeAll(async () => {
		team = await startLoopbackTeam();
	});
	afterAll(() => team.close());
	const marks = () =>
		Object.fromEntries(Object.entries(team.servers).map(([p, s]) => [p, s.requests.length]));
	const since = (before: Record<string, number>) =>
		Object.entries(team.servers).map(([protocol, server]) => ({
			protocol,
			requests: server.requests.slice(before[protocol]),
		}));

	function repo(extra: Record<string, string> = {}): string {
		const root = makeWorkspaceDir({
			'AGENTS.md': `${rootRule}\n`,
			'pkg/AGENTS.md': `${pkgRule}\n`,
			'pkg/util.ts': 'export const x = 1;\n',
			'other/AGENTS.md': `${otherRule}\n`,
			'other/main.py': 'x = 1\n',
			'.github/instructions/ts.instructions.md': `---\napplyTo: "**/*.ts"\n---\n${tsRule}\n`,
			'.github/instructions/py.instructions.md': `---\napplyTo: "**/*.py"\n---\n${pyRule}\n`,
			...extra,
		});
		writeFileSync(join(root, 'team.yaml'), team.configYaml());
		return root;
	}

	it('every agent gets the same section first in every first message; nested and applyTo files only for the files in play', async () => {
		const root = repo();
		const before = marks();
		const run = await runCli(['run', '--config', 'team.yaml', 'Document pkg/util.ts'], { cwd: root });
		expect(run.code, run.stderr).toBe(0);
		expect(run.stderr).toContain(
			'; instructions: AGENTS.md, pkg/AGENTS.md, .github/instructions/ts.instructions.md',
		);
		const sections = new Set<string>();
		for (const { protocol, requests } of since(before)) {
			expect(requests.length, protocol).toBeGreaterThan(0);
			// Every request (coordination, votes, the presentation) opens with the same bytes.
			for (const request of requests) {
				const section = sectionOf(request);
				expect(section, protocol).not.toBe('');
				sections.add(section);
				expect(request.rawBody.split(rootRule).length - 1, protocol).toBe(1);
			}
			const anthropic = requests[0]!.body as { messages: { content: { cache_control?: unknown }[] }[] };
			if (protocol === 'anthropic') {
				// The first message is the cached prefix: its breakpoint closes it.
				expect(anthropic.messages[0]!.content.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
			}
		}
		expect(sections.size).toBe(1);
		const [section] = [...sections];
		expect(section).toContain(`<instructions source="AGENTS.md">\n${rootRule}\n</instructions>`);
		expect(section).toContain(`<instructions source="pkg/AGENTS.md">\n${pkgRule}\n</instructions>`);
		expect(section).toContain(
			`<instructions source=".github/instructions/ts.instructions.md">\n${tsRule}\n</instructions>`,
		);
		expect(section).not.toContain(otherRule);
		expect(section).not.toContain(pyRule);
		expect(section).not.toContain('applyTo');

		const [dir] = runDirs(root);
		const start = JSON.parse(readFileSync(join(dir!, 'events.jsonl'), 'utf8').split('\n')[0]!);
		const sha = (text: string) => createHash('sha256').update(text).digest('hex');
		expect(start.instructions).toEqual([
			{ path: 'AGENTS.md', bytes: rootRule.length + 1, sha256: sha(`${rootRule}\n`) },
			{ path: 'pkg/AGENTS.md', bytes: pkgRule.length + 1, sha256: sha(`${pkgRule}\n`) },
			{
				path: '.github/instructions/ts.instructions.md',
				bytes: tsRule.length + 1,
				sha256: sha(`${tsRule}\n`),
			},
		]);

		// Another file in play: other/'s AGENTS.md and the Python rule instead.
		const second = marks();
		const py = await runCli(['run', '--config', 'team.yaml', 'Explain other/main.py'], { cwd: root });
		expect(py.code, py.stderr).toBe(0);
		expect(py.stderr).toContain(
			'; instructions: AGENTS.md, other/AGENTS.md, .github/instructions/py.instructions.md',
		);
		for (const { protocol, requests } of since(second)) {
			const text = sectionOf(requests[0]!);
			expect(text, protocol).toContain(otherRule);
			expect(text, protocol).toContain(pyRule);
			expect(text, protocol).not.toContain(pkgRule);
			expect(text, protocol).not.toContain(tsRule);
		}
	}, 60_000);

	it('--no-instructions: no server sees them and the header lists none', async () => {
		const root = repo();
		const before = marks();
		const run = await runCli(['run', '--config', 'team.yaml', '--no-instructions', 'Document pkg/util.ts'], {
			cwd: root,
		});
		expect(run.code, run.stderr).toBe(0);
		expect(run.stderr).not.toContain('instructions:');
		for (const { protocol, requests } of since(before)) {
			expect(requests.length, protocol).toBeGreaterThan(0);
			for (const request of requests) {
				expect(request.rawBody, protocol).not.toContain('ROOT-RULE');
				expect(request.rawBody, protocol).not.toContain('PROJECT INSTRUCTIONS');
			}
		}
	}, 60_000);

	it('a secret path named as an instructions file is never read: before, the servers see it; after, never', async () => {
		const secret = 'CLAUDE-SECRET-4b1d9e';
		const root = repo({ 'CLAUDE.md': `${secret}\n`, '.env': 'TOKEN=ENV-SECRET-77aa\n' });
		// A planted link: AGENTS.md in pkg/ points at .env.
		execFileSync('rm', [join(root, 'pkg/AGENTS.md')]);
		symlinkSync('../.env', join(root, 'pkg/AGENTS.md'));
		// Control: CLAUDE.md is an instructions file like any other.
		const control = marks();
		const open = await runCli(['run', '--config', 'team.yaml', 'Document pkg/util.ts'], { cwd: root });
		expect(open.code, open.stderr).toBe(0);
		expect(since(control).every(({ requests }) => requests[0]!.rawBody.includes(secret))).toBe(true);
		expect(open.stderr).toMatch(/massgen: project instructions: refused: 'pkg\/AGENTS\.md' .*secret/);

		writeFileSync(
			join(root, 'team.yaml'),
			team.configYaml({ orchestrator: { secret_paths: ['CLAUDE.md'] } }),
		);
		const before = marks();
		const run = await runCli(['run', '--config', 'team.yaml', 'Document pkg/util.ts'], { cwd: root });
		expect(run.code, run.stderr).toBe(0);
		expect(run.stderr).toContain("massgen: project instructions: refused: 'CLAUDE.md' is a secret path");
		for (const { protocol, requests } of since(before)) {
			expect(requests.length, protocol).toBeGreaterThan(0);
			for (const request of requests) {
				expect(request.rawBody, protocol).not.toContain(secret);
				expect(request.rawBody, protocol).not.toContain('ENV-SECRET-77aa');
				expect(request.rawBody, protocol).toContain(rootRule);
			}
		}
	}, 60_000);

	it('a FIFO AGENTS.md and a link out of the workspace are refused without hanging', async () => {
		const outside = makeWorkspaceDir({ 'rules.md': 'OUTSIDE-BYTES-19c2\n' });
		const root = repo();
		execFileSync('rm', [join(root, 'AGENTS.md')]);
		execFileSync('mkfifo', [join(root, 'AGENTS.md')]);
		symlinkSync(join(outside, 'rules.md'), join(root, '.cursorrules'));
		mkdirSync(join(root, '.github'), { recursive: true });
		const before = marks();
		// A FIFO opened for reading waits for a writer forever: the deadline fails a hang fast.
		const run = await runCli(['run', '--config', 'team.yaml', 'Document pkg/util.ts'], {
			cwd: root,
			deadlineMs: 45_000,
		});
		expect(run.code, run.stderr).toBe(0);
		expect(run.stderr).toContain(
			"massgen: project instructions: 'AGENTS.md' is a FIFO (named pipe): instruction files are read only as regular files",
		);
		expect(run.stderr).toContain("refused: '.cursorrules' resolves outside the workspace through a symlink");
		expect(run.stderr).toContain('; instructions: pkg/AGENTS.md, .github/instructions/ts.instructions.md');
		for (const { protocol, requests } of since(before)) {
			for (const request of requests) {
				expect(request.rawBody, protocol).not.toContain('OUTSIDE-BYTES-19c2');
				expect(request.rawBody, protocol).toContain(pkgRule);
			}
		}
	}, 60_000);
});
