/**
 * The headless team call (`src/cli/headless/teamCall.ts`), the run behind `massgen serve` and
 * `massgen mcp`: the loopback team's servers see the question and the client's earlier turns, and
 * the caller gets the answer, the votes in words, the usage and the pending patch, or a refusal
 * that says why; the workspace is never written.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { RunEvent } from '../../../src/contract/runEvents.js';
import { runFile } from '../../../src/contract/runLayout.js';
import { PassThrough } from 'node:stream';
import { trustCommand } from '../../../src/cli/trustCommand.js';
import { teamCall, teamCallBusy } from '../../../src/cli/headless/teamCall.js';
import { reviewText } from '../../../src/cli/review/reviewText.js';
import { reviewOutcome } from '../../../src/core/codeReview/reviewOutcome.js';
import { conversationRequest } from '../../../src/core/sessions/conversationTurns.js';
import { startLoopbackTeam } from '../../servers/loopbackTeam.js';
import { runDirs } from '../../support/runDir.js';
import { hashTree, makeWorkspaceDir, removeTrees } from '../../support/tempTree.js';

afterAll(removeTrees);

/** A user config folder of its own: the trust and permission stores are read there. */
const userEnv = (more: Record<string, string> = {}) => ({
	PATH: process.env['PATH'],
	HOME: makeWorkspaceDir(),
	...more,
});

const configFile = (yaml: string) => {
	const file = join(mkdtempSync(join(tmpdir(), 'massgen-cfg-')), 'team.yaml');
	writeFileSync(file, yaml);
	return file;
};

/**
 * Two scripted agents; the winner's presentation edits `notes.txt`; `latency` slows every call;
 * `server`: alpha's MCP servers.
 */
const scriptedTeam = (latencyMs = 0, server?: Record<string, unknown>) =>
	stringify({
		agents: ['alpha', 'beta'].map((id) => ({
			id,
			backend: {
				type: 'scripted',
				...(server && id === 'alpha' ? { mcp_servers: [server] } : {}),
				script: {
					...(latencyMs ? { latency_ms: latencyMs } : {}),
					coordination: [{ answer: `${id}'s plan` }, { vote: 'first', reason: `${id} likes the first plan` }],
					presentation: { edits: [{ path: 'notes.txt', content: 'one (team)\ntwo\n' }], text: 'Edited.' },
				},
			},
		})),
	});

const notRunState = (rel: string) => rel === '.massgen';

describe('teamCall: the team run for a shell without a terminal', () => {
	it('gives the agents AGENTS.md, and none with instructions: false (massgen mcp --no-instructions)', async () => {
		const loopback = await startLoopbackTeam({ auto: {} });
		try {
			const rule = 'TEAMCALL-AGENTS-RULE-8e2f';
			const root = makeWorkspaceDir({ 'AGENTS.md': `${rule}\n` });
			const config = configFile(loopback.configYaml());
			const servers = Object.values(loopback.servers);
			const since = (marks: number[]) => servers.flatMap((server, i) => server.requests.slice(marks[i]));
			const call = (instructions?: false) =>
				teamCall({
					workspaceRoot: root,
					question: 'What are the rules?',
					configFile: config,
					signal: new AbortController().signal,
					env: userEnv(),
					...(instructions === false ? { instructions } : {}),
				});
			expect((await call()).ok).toBe(true);
			const on = since(servers.map(() => 0));
			expect(on.length).toBeGreaterThan(0);
			for (const request of on) expect(request.rawBody).toContain(rule);
			const marks = servers.map((server) => server.requests.length);
			expect((await call(false)).ok).toBe(true);
			const off = since(marks);
			expect(off.length).toBeGreaterThan(0);
			for (const request of off) expect(request.rawBody).not.toContain(rule);
		} finally {
			await loopback.close();
		}
	});

	it('runs the loopback team on a conversation: servers see the turns; answer, votes, usage come back redacted', async () => {
		const loopback = await startLoopbackTeam({ auto: {} });
		try {
			const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
			const before = hashTree(root, notRunState);
			const secret = 'sk-live-PRIVATE-0123456789abcdef';
			const asked = conversationRequest([
				{ role: 'system', text: 'You are a helpful assistant.' },
				{ role: 'user', text: 'What does a.ts export?' },
				{ role: 'assistant', text: 'The constant a.' },
				{ role: 'user', text: `And its value? My key is ${secret}` },
			]);
			if (!asked.ok) throw new Error(asked.message);
			const events: RunEvent[] = [];
			const outcome = await teamCall({
				workspaceRoot: root,
				question: asked.question,
				history: asked.history,
				configFile: configFile(loopback.configYaml()),
				signal: new AbortController().signal,
				env: userEnv({ OPENAI_API_KEY: secret }),
				onEvent: (event) => events.push(event),
			});
			if (!outcome.ok) throw new Error(`refused: ${outcome.message}`);
			expect(outcome.status).toBe('completed');
			const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
			for (const [name, server] of Object.entries(loopback.servers)) {
				expect(server.requests[0]?.rawBody, name).toContain(
					escaped('<CONVERSATION_HISTORY>\nUser: What does a.ts export?'),
				);
				expect(server.requests[0]?.rawBody, name).toContain('And its value?');
				expect(server.requests[0]?.rawBody, name).not.toContain('You are a helpful assistant.');
			}
			// The auto-agent's presentation repeats the question, key and all: the redactor took it out.
			expect(outcome.finalAnswer).toMatch(/^Final answer \(presented by the \w+ agent\): And its value\?/);
			expect(outcome.finalAnswer).not.toContain(secret);
			expect(outcome.winner).not.toBeNull();
			const lines = outcome.voteSummary.split('\n');
			expect(lines[0]).toBe(`winner: ${outcome.winner!.agentId} (${outcome.winner!.label}), 4 of 4 vote(s)`);
			expect(lines.slice(1)).toHaveLength(4);
			expect(lines[1]).toMatch(
				/^- \w+ → \w+ \(agent\d+\.\d+\): \w+ agent: agent\d+ answers the question fully\.$/,
			);
			const calls = Object.values(loopback.servers).reduce((sum, server) => sum + server.requests.length, 0);
			expect(outcome.usage).toMatchObject({ inputTokens: 120 * calls, outputTokens: 30 * calls });
			expect(outcome.runDir).toBe(runDirs(root)[0]);
			expect(existsSync(runFile(outcome.runDir, 'result'))).toBe(true);
			expect(outcome.patch).toBe('');
			expect(outcome.applyHint).toBe('');
			expect(events[0]?.type).toBe('run-start');
			expect(events.at(-1)?.type).toBe('run-end');
			expect(hashTree(root, notRunState)).toBe(before);
		} finally {
			await loopback.close();
		}
	});

	it("redacts the whole result it returns too: a value of the workspace's .env an answer repeats (review_changes reads its findings there)", async () => {
		const loopback = await startLoopbackTeam({ auto: {} });
		try {
			const token = 'tok-dotenv-teamcall-5521';
			const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n', '.env': `DEPLOY_TOKEN=${token}\n` });
			const outcome = await teamCall({
				workspaceRoot: root,
				question: `Review a.ts: it leaks ${token}`,
				configFile: configFile(loopback.configYaml()),
				signal: new AbortController().signal,
				env: userEnv(),
			});
			if (!outcome.ok) throw new Error(`refused: ${outcome.message}`);
			// The auto agents repeat the question: every answer holds the token before redaction.
			expect(outcome.result.answers.length).toBeGreaterThan(0);
			expect(outcome.result.answers.every((answer) => answer.content.includes('[redacted]'))).toBe(true);
			expect(JSON.stringify(outcome.result)).not.toContain(token);
			// review_changes prints its findings from these answers (reviewOutcome), past the MCP server's
			// own redactor, which knows the environment's secrets but not the workspace .env's.
			expect(reviewText(reviewOutcome(outcome.result), 'working-tree')).not.toContain(token);
		} finally {
			await loopback.close();
		}
	});

	it("returns the winner's changes as a patch that applies, and writes nothing", async () => {
		const root = makeWorkspaceDir({ 'notes.txt': 'one\ntwo\n' });
		execFileSync('git', ['init', '-q'], { cwd: root });
		const before = hashTree(root, notRunState);
		const outcome = await teamCall({
			workspaceRoot: root,
			question: 'Mark the first line',
			configFile: configFile(scriptedTeam()),
			signal: new AbortController().signal,
			env: userEnv(),
		});
		if (!outcome.ok) throw new Error(`refused: ${outcome.message}`);
		expect(outcome.changedFiles).toEqual(['notes.txt']);
		expect(outcome.patch).toContain('-one\n+one (team)\n');
		expect(outcome.applyHint).toContain(`git apply ${runFile(outcome.runDir, 'patch')}`);
		expect(outcome.applyHint).toContain(`massgen show ${outcome.runId}`);
		expect(outcome.voteSummary).toContain('alpha likes the first plan');
		expect(hashTree(root, notRunState)).toBe(before);
		// What the hint says works: the patch applies to the workspace as the team read it.
		execFileSync('git', ['apply', '--check', runFile(outcome.runDir, 'patch')], { cwd: root });
	});

	it("the hint's commands are safe to paste into a shell whatever the workspace folder is called", async () => {
		// A folder named by whoever made the archive or the clone: a caller's agent may run the hint.
		const parent = makeWorkspaceDir();
		const marker = join(parent, 'pwned');
		// The shells below run in `parent`: `touch pwned` there is the marker.
		const root = join(parent, "proj $(touch pwned); `touch pwned` 'x'");
		mkdirSync(root);
		writeFileSync(join(root, 'notes.txt'), 'one\ntwo\n');
		execFileSync('git', ['init', '-q'], { cwd: root });
		const outcome = await teamCall({
			workspaceRoot: root,
			question: 'Mark the first line',
			configFile: configFile(scriptedTeam()),
			signal: new AbortController().signal,
			env: userEnv(),
		});
		if (!outcome.ok) throw new Error(`refused: ${outcome.message}`);
		const apply = /^apply: (.*)$/m.exec(outcome.applyHint)![1]!;
		// The apply line as a shell runs it, checking instead of writing: it finds the folder and the patch.
		execFileSync('sh', ['-c', apply.replace('git apply', 'git apply --check')], { cwd: parent });
		const review = /^review: massgen show (.*)$/m.exec(outcome.applyHint)![1]!;
		const words = execFileSync('sh', ['-c', `printf '%s\\n' ${review}`])
			.toString()
			.split('\n');
		expect(words.slice(0, 3)).toEqual([outcome.runId, '--workspace', root]);
		expect(existsSync(marker)).toBe(false);
	});

	it('a workspace whose .massgen is a link out: refused (workspace) with the reason, nothing written there', async () => {
		const root = makeWorkspaceDir({ 'notes.txt': 'one\n' });
		const elsewhere = makeWorkspaceDir();
		symlinkSync(elsewhere, join(root, '.massgen'));
		const outcome = await teamCall({
			workspaceRoot: root,
			question: 'Mark the first line',
			configFile: configFile(scriptedTeam()),
			signal: new AbortController().signal,
			env: userEnv(),
		});
		expect(outcome).toMatchObject({ ok: false, refused: 'workspace' });
		expect(!outcome.ok && outcome.message).toMatch(/\.massgen is a link .*replace the link/);
		expect(readdirSync(elsewhere)).toEqual([]);
	});

	it('a config with errors: refused with file:line:col, and no run directory', async () => {
		const root = makeWorkspaceDir();
		const file = configFile('agents:\n  - id: a\n    backend: { type: nope }\n');
		const outcome = await teamCall({
			workspaceRoot: root,
			question: 'Hi',
			configFile: file,
			signal: new AbortController().signal,
			env: userEnv(),
		});
		expect(outcome).toMatchObject({ ok: false, refused: 'team' });
		expect(outcome.ok ? '' : outcome.message).toMatch(new RegExp(`^${file}:3:\\d+: error: `));
		expect(runDirs(root)).toEqual([]);
		const missing = await teamCall({
			workspaceRoot: root,
			question: 'Hi',
			configFile: join(root, 'nowhere.yaml'),
			signal: new AbortController().signal,
			env: userEnv(),
		});
		expect(missing).toMatchObject({ ok: false, refused: 'config' });
		expect(missing.ok ? '' : missing.message).toContain('nowhere.yaml: no such file');
	});

	it("a workspace whose own config would start a program: refused, nothing started, until 'massgen trust'", async () => {
		const root = makeWorkspaceDir({
			'.massgen/config.yaml': scriptedTeam(0, {
				name: 'helper',
				type: 'stdio',
				command: 'sh',
				args: ['-c', 'touch marker'],
			}),
		});
		const env = userEnv();
		const call = () =>
			teamCall({ workspaceRoot: root, question: 'Hi', signal: new AbortController().signal, env });
		const outcome = await call();
		expect(outcome).toMatchObject({ ok: false, refused: 'trust' });
		const message = outcome.ok ? '' : outcome.message;
		expect(message).toContain("not started: the folder is not trusted; run 'massgen trust' in this folder");
		expect(message).not.toContain('--trust-workspace');
		expect(message).toMatch(/helper/);
		expect(existsSync(join(root, 'marker'))).toBe(false);
		expect(runDirs(root)).toEqual([]);
		// The user's own decision, in their config folder, is what lets it run.
		const said = new PassThrough();
		expect(
			await trustCommand({ kind: 'trust', action: 'trust', workspace: root }, { stderr: said, env }),
		).toBe(0);
		expect(await call()).toMatchObject({ ok: true, status: 'completed' });
	});

	it('one call at a time per workspace; aborting cancels the run, keeps its log and writes nothing', async () => {
		const root = makeWorkspaceDir({ 'notes.txt': 'one\ntwo\n' });
		const before = hashTree(root, notRunState);
		const controller = new AbortController();
		const first = teamCall({
			workspaceRoot: root,
			question: 'Mark the first line',
			configFile: configFile(scriptedTeam(60_000)),
			signal: controller.signal,
			env: userEnv(),
			// The run has started (its directory exists): stop it while the agents' first calls wait.
			onEvent: (event) => {
				if (event.type === 'run-start') controller.abort();
			},
		});
		expect(teamCallBusy(root)).toBe(true);
		const second = await teamCall({
			workspaceRoot: join(root, '.'),
			question: 'Again',
			signal: new AbortController().signal,
			env: userEnv(),
		});
		expect(second).toMatchObject({ ok: false, refused: 'busy' });
		const outcome = await first;
		if (!outcome.ok) throw new Error(`refused: ${outcome.message}`);
		expect(outcome.status).toBe('cancelled');
		expect(existsSync(runFile(outcome.runDir, 'events'))).toBe(true);
		expect(outcome.patch).toBe('');
		expect(teamCallBusy(root)).toBe(false);
		expect(hashTree(root, notRunState)).toBe(before);
	});
});
