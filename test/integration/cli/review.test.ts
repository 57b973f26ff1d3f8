/**
 * `massgen review` through `dist/cli.js` on a real git repository made in a temp folder, with the
 * four-agent loopback team (one server per wire API): the working tree (in a hostile repository
 * whose `.git/config` names programs for git to run), `--staged`, `--range`, the JSON shape, the
 * SARIF file validated against the SARIF 2.1.0 JSON schema @microsoft/jest-sarif ships, `--fail-on`
 * exit codes, and the diff given once in the prefix every agent's first message shares.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
	appendFileSync,
	existsSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import type { Log } from 'sarif';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PromptView } from '../../servers/types.js';
import { startLoopbackTeam, type LoopbackTeam } from '../../servers/loopbackTeam.js';
import { hashTree, makeWorkspaceDir } from '../../support/tempTree.js';
import { repo, runCli } from './cliProcess.js';

const git = (root: string, ...args: string[]) =>
	execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: root, stdio: 'pipe' });

const evalLine = '+export const b = eval(input);';
const sqlLine = "+\treturn query('SELECT * FROM users WHERE id = ' + id);";
const parseLine = '+export const b = JSON.parse(input);';

/**
 * Three commits' worth of changes, each seen by one kind of review: the range HEAD~1..HEAD adds
 * JSON.parse, the index holds the SQL query, the working tree (unstaged) the eval.
 */
function repository(): string {
	const root = makeWorkspaceDir({
		'src/app.ts': 'export const a = 1;\nexport const b = 2;\n',
		'src/db.ts': 'export function user(id: string) {\n\treturn null;\n}\n',
		'.gitattributes': '*.ts diff=evil filter=evil\n',
	});
	git(root, 'init', '-q');
	git(root, 'add', '-A');
	git(root, 'commit', '-qm', 'base');
	writeFileSync(join(root, 'src/app.ts'), 'export const a = 1;\nexport const b = JSON.parse(input);\n');
	git(root, 'commit', '-qam', 'parse input');
	writeFileSync(
		join(root, 'src/db.ts'),
		"export function user(id: string) {\n\tconst sql = 'users';\n\treturn query('SELECT * FROM users WHERE id = ' + id);\n}\n",
	);
	git(root, 'add', 'src/db.ts');
	writeFileSync(join(root, 'src/app.ts'), 'export const a = 1;\nexport const b = eval(input);\n');
	return root;
}

type Raw = { path: string; line: number; severity: string; title: string; message: string };
const block = (findings: readonly Raw[]) => `\`\`\`findings\n${JSON.stringify(findings)}\n\`\`\``;

/** Each model's findings for the diff its prompt holds, in its own words. */
function findingsFor(prompt: PromptView): Raw[] {
	const saw = (line: string) => prompt.texts.some((text) => text.includes(line));
	const model = prompt.model;
	if (saw(evalLine)) {
		const words: Record<string, [string, string]> = {
			'gpt-5-mini': ['eval of untrusted input', 'eval runs whatever input holds: code injection.'],
			'claude-haiku-4-5': ['Code injection', 'Passing input to eval() executes arbitrary code.'],
			'gemini-2.5-flash': [
				'Arbitrary code execution via eval',
				'The input is evaluated as code, so whoever controls it decides what runs.',
			],
			'loopback-chat': ['Do not eval input', 'eval(input) lets the input inject code.'],
		};
		const [title, message] = words[model]!;
		const mine: Raw[] = [{ path: 'src/app.ts', line: 2, severity: 'high', title, message }];
		if (model === 'gemini-2.5-flash') {
			mine.push({
				path: 'src/app.ts',
				line: 1,
				severity: 'low',
				title: 'Unused constant',
				message: 'The constant a is exported but nothing uses it.',
			});
		}
		return mine;
	}
	if (saw(sqlLine)) {
		if (model === 'loopback-chat') {
			return [
				{
					path: 'src/db.ts',
					line: 2,
					severity: 'low',
					title: 'Unused variable',
					message: 'sql is never read.',
				},
			];
		}
		if (model === 'gemini-2.5-flash') return [];
		const message =
			model === 'gpt-5-mini'
				? 'The query string is built by concatenating id: SQL injection.'
				: 'Concatenating the id into the SQL query allows injection; use a parameterised query.';
		return [{ path: 'src/db.ts', line: 3, severity: 'medium', title: 'SQL injection', message }];
	}
	if (saw(parseLine)) {
		return [
			{
				path: 'src/app.ts',
				line: 2,
				severity: 'low',
				title: 'JSON.parse can throw',
				message: 'JSON.parse throws on malformed input and nothing catches it.',
			},
		];
	}
	return [];
}

const sarifSchema = JSON.parse(
	readFileSync(
		join(repo, 'node_modules', '@microsoft', 'jest-sarif', 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json'),
		'utf8',
	),
) as Record<string, unknown>;

function validator() {
	// The schema's `language` pattern is not valid with the `u` flag (ajv 6, which jest-sarif uses, has none).
	const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
	addFormats(ajv);
	return ajv.compile(sarifSchema);
}

describe('massgen review (dist/cli.js, four loopback agents, a real git repository)', () => {
	let team: LoopbackTeam;
	let config: string;
	beforeAll(async () => {
		team = await startLoopbackTeam({
			auto: {
				answer: (prompt) => `My review.\n\n${block(findingsFor(prompt))}`,
				presentation: (prompt) => `Final review.\n\n${block(findingsFor(prompt))}`,
				// The presenter proposes a fix for the eval: pending, never written.
				presentationWrites: (prompt) =>
					prompt.texts.some((text) => text.includes(evalLine))
						? [{ path: 'src/app.ts', content: 'export const a = 1;\nexport const b = JSON.parse(input);\n' }]
						: [],
			},
		});
		config = join(mkdtempSync(join(tmpdir(), 'massgen-review-cfg-')), 'team.yaml');
		writeFileSync(config, team.configYaml());
	});
	afterAll(() => team?.close());

	const review = (root: string, ...args: string[]) =>
		runCli(['review', '--config', config, ...args], { cwd: root, deadlineMs: 60_000 });

	it('the working tree of a hostile repository: agreed and single-agent findings, valid SARIF, --fail-on high exits 5, the fix pending, nothing run', async () => {
		const root = repository();
		const markers = mkdtempSync(join(tmpdir(), 'massgen-review-markers-'));
		const run = (name: string, then = 'true') => `"touch ${markers}/${name}; ${then}"`;
		appendFileSync(
			join(root, '.git', 'config'),
			[
				'[core]',
				`\tfsmonitor = ${run('fsmonitor', 'false')}`,
				'[filter "evil"]',
				`\tclean = ${run('clean', 'cat')}`,
				'[diff "evil"]',
				`\ttextconv = ${run('textconv', 'cat')}`,
				'[diff]',
				`\texternal = ${run('external')}`,
				'',
			].join('\n'),
		);
		const before = hashTree(root, (rel) => rel === '.massgen' || rel === '.git');
		const sarif = join(mkdtempSync(join(tmpdir(), 'massgen-review-sarif-')), 'review.sarif');
		const seen = Object.values(team.servers).map((server) => server.requests.length);

		const result = await review(root, '--sarif', sarif, '--fail-on', 'high');
		expect(result.code, result.stderr).toBe(5);
		expect(result.stderr).toContain('an agreed finding is high (--fail-on high): exit 5');
		// Four wordings of one concern are one finding; gemini's other finding stands apart.
		expect(result.stdout).toMatch(
			/^1 agreed finding\(s\) in the working tree changes \(4 agents reviewed them\), by file and line:\n- high src\/app\.ts:2 .+ \(raised by 4 of 4 agents\)\n/,
		);
		for (const reason of [
			'    openai_agent (high): eval runs whatever input holds: code injection.',
			'    claude_agent (high): Passing input to eval() executes arbitrary code.',
			'    chat_agent (high): eval(input) lets the input inject code.',
		]) {
			expect(result.stdout).toContain(reason);
		}
		expect(result.stdout).toMatch(
			/\n1 single-agent finding\(s\), raised by one agent only:\n- low src\/app\.ts:1 Unused constant \(raised by 1 of 4 agents(, not in the winning review)?\)\n {4}gemini_agent \(low\): The constant a is exported but nothing uses it\.\n/,
		);

		// The fix is proposed, named, and pending in the run; the workspace is as it was.
		expect(result.stderr).toContain(
			'the team proposes fixes to src/app.ts; NOT applied, pending in the run:',
		);
		const runDir = /run log: (\S+)/.exec(result.stderr)![1]!;
		expect(readFileSync(join(runDir, 'changes.patch'), 'utf8')).toContain(
			'+export const b = JSON.parse(input);',
		);
		expect(result.stderr).toContain(`git apply ${join(runDir, 'changes.patch')}`);
		expect(hashTree(root, (rel) => rel === '.massgen' || rel === '.git')).toBe(before);
		expect(readFileSync(join(root, 'src/app.ts'), 'utf8')).toContain('eval(input)');

		// The SARIF is valid against the SARIF 2.1.0 schema, and says what the text says.
		const log = JSON.parse(readFileSync(sarif, 'utf8')) as Log;
		const validate = validator();
		expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
		// Control: the same validator refuses a log that breaks the schema.
		expect(validate({ ...log, version: '2.0.0' })).toBe(false);
		const [agreed, single] = log.runs[0]!.results!;
		expect(agreed).toMatchObject({
			ruleId: 'massgen-review/high',
			kind: 'fail',
			level: 'error',
			locations: [
				{
					physicalLocation: {
						artifactLocation: { uri: 'src/app.ts', uriBaseId: 'SRCROOT' },
						region: { startLine: 2, endLine: 2 },
					},
				},
			],
			properties: { agreed: true, of: 4 },
		});
		expect(agreed!.properties?.agents).toHaveLength(4);
		expect(single).toMatchObject({
			ruleId: 'massgen-review/low',
			kind: 'review',
			level: 'none',
			properties: { agreed: false, agents: ['gemini_agent'] },
		});
		expect(log.runs[0]!.originalUriBaseIds?.SRCROOT?.uri).toBe(`file://${root}/`);

		// Every agent got the diff once, in a first message whose bytes up to the end of the
		// question are the same for all four: the prefix each provider caches.
		const firsts = Object.values(team.servers).map(
			(server, i) =>
				server.requests.slice(seen[i]).find((r) => r.prompt.texts[0]?.includes(evalLine))!.prompt.texts[0]!,
		);
		const prefix = (text: string) => text.slice(0, text.indexOf('</ORIGINAL MESSAGE>'));
		expect(prefix(firsts[0]!)).toMatch(/<attachment kind="diff" source="working-tree">/);
		expect(prefix(firsts[0]!)).toContain('This is a code review, not a rewrite');
		for (const first of firsts) {
			expect(first.split(evalLine)).toHaveLength(2);
			expect(prefix(first)).toBe(prefix(firsts[0]!));
		}

		// Nothing the repository's config names ran; control: the user's own git status runs it.
		expect(readdirSync(markers)).toEqual([]);
		spawnSync('git', ['status'], { cwd: root, stdio: 'ignore' });
		expect(readdirSync(markers)).toContain('fsmonitor');
	}, 90_000);

	it('--staged --json: the review as one JSON object; the highest agreed finding is medium, so --fail-on high exits 0', async () => {
		const root = repository();
		const result = await review(root, '--staged', '--json', '--fail-on', 'high');
		expect(result.code, result.stderr).toBe(0);
		const json = JSON.parse(result.stdout) as Record<string, unknown> & { usage: { inputTokens: number } };
		expect(json).toMatchObject({
			runId: expect.stringMatching(/^\d{8}-\d{6}-[0-9a-z]{4}$/),
			status: 'completed',
			diff: 'staged',
			agents: 4,
			highestAgreed: 'medium',
			failOn: 'high',
			failed: false,
			fixes: null,
		});
		expect(json.agreed).toEqual([
			{
				path: 'src/db.ts',
				line: 3,
				endLine: 3,
				severity: 'medium',
				title: 'SQL injection',
				message: expect.stringMatching(/SQL injection|injection/),
				raisedBy: 2,
				agents: expect.arrayContaining(['openai_agent', 'claude_agent']),
				inWinningReview: expect.any(Boolean),
				reasons: expect.arrayContaining([
					expect.objectContaining({
						agentId: 'claude_agent',
						severity: 'medium',
						line: 3,
						message: 'Concatenating the id into the SQL query allows injection; use a parameterised query.',
					}),
				]),
			},
		]);
		expect(json.single).toEqual([
			expect.objectContaining({
				path: 'src/db.ts',
				line: 2,
				severity: 'low',
				agents: ['chat_agent'],
				raisedBy: 1,
			}),
		]);
		expect(json.usage.inputTokens).toBeGreaterThan(0);
	}, 60_000);

	it('--staged --fail-on medium exits 5 on the same agreed medium finding', async () => {
		const result = await review(repository(), '--staged', '--fail-on', 'medium');
		expect(result.code, result.stderr).toBe(5);
		expect(result.stdout).toMatch(/^1 agreed finding\(s\) in the staged changes/);
	}, 60_000);

	it('--range A..B reviews the commits, not the working tree; an empty range is nothing to review (an empty SARIF, never written through a link)', async () => {
		const root = repository();
		const result = await review(root, '--range', 'HEAD~1..HEAD', '--fail-on', 'medium');
		expect(result.code, result.stderr).toBe(0);
		expect(result.stdout).toMatch(
			/^1 agreed finding\(s\) in the changes HEAD~1\.\.HEAD \(4 agents reviewed them\), by file and line:\n- low src\/app\.ts:2 JSON\.parse can throw \(raised by 4 of 4 agents\)/,
		);
		expect(result.stdout).not.toContain('eval');

		const runs = readdirSync(join(root, '.massgen', 'runs'));
		const sarif = join(mkdtempSync(join(tmpdir(), 'massgen-review-sarif-')), 'empty.sarif');
		const empty = await review(root, '--range', 'HEAD..HEAD', '--json', '--sarif', sarif);
		expect(empty.code, empty.stderr).toBe(0);
		expect(JSON.parse(empty.stdout)).toMatchObject({ runId: null, status: 'nothing-to-review', agreed: [] });
		expect(empty.stderr).toContain('nothing to review: no file changes between HEAD and HEAD');
		// No team run for it; the SARIF says so with no result (a CI upload still has its file).
		expect(readdirSync(join(root, '.massgen', 'runs'))).toEqual(runs);
		const log = JSON.parse(readFileSync(sarif, 'utf8')) as Log;
		expect(validator()(log)).toBe(true);
		expect(log.runs[0]!.results).toEqual([]);

		// The SARIF file is never written through a link: the link's target stays as it was.
		const target = join(mkdtempSync(join(tmpdir(), 'massgen-review-target-')), 'victim.txt');
		writeFileSync(target, 'keep\n');
		const link = join(mkdtempSync(join(tmpdir(), 'massgen-review-link-')), 'review.sarif');
		symlinkSync(target, link);
		const linked = await review(root, '--range', 'HEAD..HEAD', '--sarif', link);
		expect(linked.code).toBe(2);
		expect(linked.stderr).toContain(`cannot write the SARIF file ${link}`);
		expect(readFileSync(target, 'utf8')).toBe('keep\n');
	}, 60_000);

	it('usage errors exit 1, a folder that is not a repository exits 2, before any model request', async () => {
		const requests = Object.values(team.servers).reduce((sum, server) => sum + server.requests.length, 0);
		const root = repository();
		for (const args of [
			['--staged', '--range', 'HEAD~1..HEAD'],
			['--range', '--output=/tmp/x..HEAD'],
			['--range', 'HEAD...main'],
			['--fail-on', 'critical'],
			['src/app.ts'],
			['--workspace', join(root, 'missing')],
			['--workspace', join(root, 'src', 'app.ts')],
		]) {
			const result = await review(root, ...args);
			expect(result.code, args.join(' ')).toBe(1);
			expect(result.stderr, args.join(' ')).not.toContain('internal error');
		}
		const plain = makeWorkspaceDir({ 'a.ts': 'export {};\n' });
		const outside = await review(plain);
		expect(outside.code).toBe(2);
		expect(outside.stderr).toMatch(/cannot review the changes: .*not in a git repository/);
		expect(existsSync(join(plain, '.massgen'))).toBe(false);
		expect(Object.values(team.servers).reduce((sum, server) => sum + server.requests.length, 0)).toBe(
			requests,
		);
	}, 60_000);
});

describe('massgen review that runs out of time', () => {
	it('--timeout: the coordination timeout ends the review without one, exit 3', async () => {
		let release!: () => void;
		const released = new Promise<void>((done) => (release = done));
		// Every model call waits until the test ends: coordination cannot finish in time.
		const held = await startLoopbackTeam({ hold: () => released });
		try {
			const config = join(mkdtempSync(join(tmpdir(), 'massgen-review-held-')), 'team.yaml');
			writeFileSync(config, held.configYaml());
			const result = await runCli(['review', '--config', config, '--timeout', '1'], {
				cwd: repository(),
				deadlineMs: 30_000,
			});
			expect(result.code, result.stderr).toBe(3);
			expect(result.stderr).toContain(
				'massgen: the review ended without an answer (timeout): the coordination timeout passed before any answer',
			);
			expect(result.stdout).toBe('');
		} finally {
			release();
			await held.close();
		}
	}, 40_000);
});
