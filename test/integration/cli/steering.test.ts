/**
 * Steering a running team through the built CLI (dist/cli.js) on a loopback server that sees every
 * request: three agents (models st-a, st-b, st-c) answer and vote as the auto-agent does, and the
 * server holds st-c's first vote until the test opens it. By then st-a and st-b hold votes, so a
 * message written to `--inbox` lands at a known moment: the server's request log shows who got it
 * in their next request and who did not, and whether the votes were taken back (a new coordination
 * request) or stood (note only). `/finish` in the inbox and SIGUSR1 end coordination at once with
 * the leader's presentation; hostile inbox entries are refused and moved aside, never read.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	renameSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { autoAgentTurn } from '../../servers/autoAgent.js';
import {
	startLoopbackProvider,
	type LoopbackProvider,
	type RecordedRequest,
} from '../../servers/loopbackProvider.js';
import { makeWorkspaceDir } from '../../support/tempTree.js';
import { waitFor } from '../../support/waitFor.js';
import { runCli, type CliRun } from './cliProcess.js';
import { startOnPty } from './ptyProcess.js';

const ids = ['st_a', 'st_b', 'st_c'] as const;
const modelOf = (id: string) => id.replace('_', '-');
const isPost = (request: RecordedRequest) => request.method === 'POST';
const offersVote = (request: RecordedRequest) => request.prompt.tools.some((tool) => tool.name === 'vote');
/** The auto-agent would vote on this request. */
const votes = (request: RecordedRequest) =>
	offersVote(request) && autoAgentTurn(request.prompt).toolCalls?.[0]?.name === 'vote';

describe('steering a run: --inbox, /finish and SIGUSR1 (dist/cli.js, loopback server)', () => {
	let server: LoopbackProvider;
	let open: () => void = () => undefined;
	let gate: Promise<void> | undefined;
	let configFile: string;
	beforeAll(async () => {
		server = await startLoopbackProvider('chat', {
			auto: true,
			// st-c's first vote waits for the test (later requests pass).
			hold: (request) => {
				if (!gate || !isPost(request) || request.model !== 'st-c' || !votes(request)) return undefined;
				const held = gate;
				gate = undefined;
				return held;
			},
		});
		const agents = ids.map((id) => ({
			id,
			backend: { type: 'chatcompletion', model: modelOf(id), base_url: server.baseUrl, api_key: 'loopback' },
		}));
		configFile = join(makeWorkspaceDir({ 'team.yaml': stringify({ agents }) }), 'team.yaml');
	});
	afterAll(() => server.close());
	beforeEach(() => {
		gate = new Promise((resolve) => (open = resolve));
	});

	/** The run's requests per agent, from `since` on. */
	function requestsOf(id: string, since: number, until = Infinity): RecordedRequest[] {
		return server.requests.slice(since, until).filter((r) => isPost(r) && r.model === modelOf(id));
	}

	/**
	 * Starts the run and waits for the held moment: st-c's vote held on the server, st-a and st-b
	 * idle with their votes (nothing of theirs in flight, their votes the last word on stderr).
	 */
	async function runToHeldVote(inbox: string, extra: string[] = []) {
		const root = makeWorkspaceDir({ 'notes.md': '# notes\n' });
		const since = server.requests.length;
		let stderr = '';
		let child: ChildProcess | undefined;
		const env = { XDG_STATE_HOME: makeWorkspaceDir() };
		const done: Promise<CliRun> = runCli(
			['run', '--config', configFile, '--inbox', inbox, ...extra, 'How should notes.md be organised?'],
			{
				cwd: root,
				env,
				deadlineMs: 30_000,
				onStderr: (text, spawned) => {
					stderr = text;
					child = spawned;
				},
			},
		);
		await heldMoment(since, () => stderr);
		return { root, env, since, done, stderr: () => stderr, child: () => child! };
	}

	/** st-c's vote is held on the server; st-a and st-b hold votes, nothing of theirs in flight. */
	function heldMoment(since: number, output: () => string): Promise<void> {
		return waitFor(() => {
			const heldVote = requestsOf('st_c', since).some((r) => votes(r) && r.settledAt === undefined);
			const lines = output().split('\n');
			const lastAnswer = lines.findLastIndex((line) => line.includes(': new answer '));
			const votedAfter = (id: string) =>
				lines.slice(lastAnswer).some((line) => line.includes(`${id} votes `));
			const idle = (id: string) => requestsOf(id, since).every((r) => r.settledAt !== undefined);
			return heldVote && ['st_a', 'st_b'].every((id) => votedAfter(id) && idle(id));
		}, "st-c's vote held, st-a and st-b voted");
	}

	function result(root: string) {
		const runs = join(root, '.massgen', 'runs');
		return JSON.parse(readFileSync(join(runs, readdirSync(runs)[0]!, 'result.json'), 'utf8'));
	}

	function events(root: string): { type: string; [key: string]: unknown }[] {
		const runs = join(root, '.massgen', 'runs');
		return readFileSync(join(runs, readdirSync(runs)[0]!, 'events.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line));
	}

	/**
	 * Writes a message the way the docs say (a dot-name, then a rename) and waits for the CLI's
	 * report. Returns the server's request count before the write: at the held moment nothing but
	 * st-c's held vote is in flight, so every request from there on was made after the message.
	 */
	async function send(inbox: string, name: string, text: string, stderr: () => string) {
		const before = server.requests.length;
		writeFileSync(join(inbox, `.${name}`), text);
		renameSync(join(inbox, `.${name}`), join(inbox, name));
		await waitFor(() => stderr().includes(`massgen: inbox ${name}: `), `the inbox's report on ${name}`);
		return before;
	}

	it('a message to every agent reaches each one in its next request, the votes are taken back, a follow-up carries it', async () => {
		const inbox = join(makeWorkspaceDir(), 'inbox');
		const text = 'STEER-ALL: keep the notes in one flat list';
		const held = await runToHeldVote(inbox);
		const at = await send(inbox, '001', text, held.stderr);
		expect(held.stderr()).toContain(
			'massgen: inbox 001: message 1 sent to st_a, st_b, st_c (their votes reset) (moved to delivered/)',
		);
		open();
		const run = await held.done;
		expect(run.code).toBe(0);
		for (const id of ids) {
			// Nothing before the message carried it; the agent's next request does.
			expect(requestsOf(id, held.since, at).some((r) => r.rawBody.includes(text))).toBe(false);
			const next = requestsOf(id, at)[0]!;
			expect(next.rawBody).toContain(text);
			// The vote was taken back: the next request is a coordination request again, not the presentation.
			expect(offersVote(next)).toBe(true);
		}
		const steer = events(held.root).find((event) => event.type === 'steer');
		expect(steer).toMatchObject({ id: 1, text, agents: ['st_a', 'st_b', 'st_c'], noteOnly: false });
		const delivered = events(held.root).filter((event) => event.type === 'steer-delivered');
		// Each agent's first delivery is in coordination (the presenter reads it again when it presents).
		for (const id of ids) {
			expect(delivered.find((event) => event.agentId === id)).toMatchObject({ id: 1, phase: 'coordination' });
		}
		const record = result(held.root);
		expect(record.steering).toEqual([expect.objectContaining({ id: 1, text, noteOnly: false })]);
		expect(record.coordination.ended).toBe('consensus');
		expect(readFileSync(join(inbox, 'delivered', '001'), 'utf8')).toBe(text);
		expect(run.stderr).toContain('coordination ended: every live agent voted');
		// The auto-agent's 120 in / 30 out per call: each answered, voted, and voted again after the
		// message (st-c's held vote was stale); the winner presented too.
		for (const id of ids) {
			const calls = id === record.winner.agentId ? 4 : 3;
			expect(run.stderr).toContain(
				`usage ${id}: ${calls * 120} in, ${calls * 30} out, no price (${calls} calls)`,
			);
		}
		expect(run.stderr).toContain('st_a: reads your message 1');

		// A follow-up carries the message in every agent's history (the run's steering, kept in the session).
		const followed = server.requests.length;
		const follow = await runCli(['run', '--config', configFile, '--continue', 'Now number them'], {
			cwd: held.root,
			env: held.env,
			deadlineMs: 30_000,
		});
		expect(follow.code).toBe(0);
		for (const id of ids) {
			expect(requestsOf(id, followed)[0]!.rawBody).toContain(`User (while the team worked): ${text}`);
		}
		expect(run.stderr).toContain(`you → st_a, st_b, st_c (message 1, votes reset): ${text}`);
	});

	it('@id reaches that agent only; the others never see it', async () => {
		const inbox = join(makeWorkspaceDir(), 'inbox');
		const text = 'STEER-ONE: st_b, check the headings';
		const held = await runToHeldVote(inbox);
		const at = await send(inbox, 'to-b', `@st_b\n${text}`, held.stderr);
		expect(held.stderr()).toContain('massgen: inbox to-b: message 1 sent to st_b (their votes reset)');
		open();
		expect((await held.done).code).toBe(0);
		const b = requestsOf('st_b', at);
		expect(b[0]!.rawBody).toContain(text);
		expect(offersVote(b[0]!)).toBe(true);
		for (const id of ['st_a', 'st_c']) {
			expect(requestsOf(id, held.since).some((r) => r.rawBody.includes(text))).toBe(false);
		}
	});

	it('/note keeps the votes: no voter is asked again, and the presenter reads the note', async () => {
		const inbox = join(makeWorkspaceDir(), 'inbox');
		const text = 'STEER-NOTE: the team meets on Fridays';
		const held = await runToHeldVote(inbox);
		const at = await send(inbox, 'note', `/note ${text}`, held.stderr);
		expect(held.stderr()).toContain('message 1 sent to st_a, st_b, st_c (note only: votes stand)');
		open();
		expect((await held.done).code).toBe(0);
		const record = result(held.root);
		expect(record.steering).toEqual([expect.objectContaining({ noteOnly: true, text })]);
		// st-a and st-b voted before the note: the only request of theirs after it is a presentation.
		for (const id of ['st_a', 'st_b']) {
			expect(requestsOf(id, at).filter(offersVote)).toEqual([]);
		}
		const presentation = server.requests
			.slice(at)
			.find((r) => isPost(r) && r.model === modelOf(record.winner.agentId) && !offersVote(r))!;
		expect(presentation.rawBody).toContain(text);
	});

	it('a /finish file ends coordination now: the leader presents, result.json says finished-by-user', async () => {
		const inbox = join(makeWorkspaceDir(), 'inbox');
		const held = await runToHeldVote(inbox);
		await send(inbox, 'stop', '/finish\n', held.stderr);
		expect(held.stderr()).toContain('massgen: inbox stop: finishing now');
		open();
		const run = await held.done;
		expect(run.code).toBe(0);
		const record = result(held.root);
		expect(record.coordination.ended).toBe('finished-by-user');
		expect(record.finalAnswer).not.toBeNull();
		// The leader: the answer st-a and st-b voted for.
		const [vote] = record.votes as { votedFor: string }[];
		expect(record.winner.agentId).toBe(vote!.votedFor);
		expect(run.stderr).toContain('coordination ended: you finished it (finish now)');
		expect(existsSync(join(inbox, 'delivered', 'stop'))).toBe(true);
	});

	it('SIGUSR1 finishes now the same way', async () => {
		const inbox = join(makeWorkspaceDir(), 'inbox');
		const held = await runToHeldVote(inbox);
		held.child().kill('SIGUSR1');
		await waitFor(() => held.stderr().includes('massgen: SIGUSR1: '), 'the SIGUSR1 report');
		expect(held.stderr()).toContain('massgen: SIGUSR1: finishing now');
		open();
		const run = await held.done;
		expect(run.code).toBe(0);
		expect(result(held.root).coordination.ended).toBe('finished-by-user');
		expect(result(held.root).finalAnswer).not.toBeNull();
	});

	it('a message waiting in the inbox before the run starts is delivered once the team coordinates', async () => {
		const inbox = join(makeWorkspaceDir(), 'inbox');
		const text = 'STEER-EARLY: answer in German';
		mkdirSync(inbox);
		writeFileSync(join(inbox, 'early'), text);
		const held = await runToHeldVote(inbox);
		// Taken from the first round on (its file reads may finish after the first answers and votes).
		await waitFor(() => held.stderr().includes('massgen: inbox early: '), "the inbox's report on early");
		expect(held.stderr()).toContain(
			'massgen: inbox early: message 1 sent to st_a, st_b, st_c (their votes reset)',
		);
		open();
		expect((await held.done).code).toBe(0);
		for (const id of ids) {
			expect(requestsOf(id, held.since).some((r) => r.rawBody.includes(text))).toBe(true);
		}
		expect(readdirSync(inbox).sort()).toEqual(['delivered', 'refused']);
	});

	it('hostile inbox entries and refused messages move to refused/ with the reason; the run goes on', async () => {
		const inbox = join(makeWorkspaceDir(), 'inbox');
		const secret = makeWorkspaceDir({ 'key.txt': 'SECRET-IN-LINK-TARGET' });
		const held = await runToHeldVote(inbox);
		symlinkSync(join(secret, 'key.txt'), join(inbox, 'link'));
		execFileSync('mkfifo', [join(inbox, 'pipe')]);
		await send(inbox, 'nobody', '@st_zed hello', held.stderr);
		await waitFor(
			() =>
				held.stderr().includes('massgen: inbox link: ') && held.stderr().includes('massgen: inbox pipe: '),
			'the reports on link and pipe',
		);
		const err = held.stderr();
		expect(err).toContain(
			'massgen: inbox link: refused: a symbolic link (links are not followed) (moved to refused/)',
		);
		expect(err).toContain(
			'massgen: inbox pipe: refused: not a regular file (a FIFO, socket or device) (moved to refused/)',
		);
		expect(err).toMatch(/massgen: inbox nobody: refused: .*st_zed.* \(moved to refused\/\)/);
		open();
		expect((await held.done).code).toBe(0);
		expect(readdirSync(join(inbox, 'refused')).sort()).toEqual(['link', 'nobody', 'pipe']);
		expect(server.requests.some((r) => r.rawBody.includes('SECRET-IN-LINK-TARGET'))).toBe(false);
		expect(result(held.root).steering).toBeUndefined();
	});

	it('massgen chat: a line typed while the team works steers it (@id to one), /finish finishes now', async () => {
		const root = makeWorkspaceDir({ 'notes.md': '# notes\n' });
		const text = 'CHAT-STEER: st_b, mind the dates';
		const since = server.requests.length;
		const chat = startOnPty(['chat', '--config', configFile], {
			cwd: root,
			env: { XDG_STATE_HOME: makeWorkspaceDir() },
		});
		let at = await chat.waitFor('massgen> ');
		chat.type('How should notes.md be organised?\r');
		await heldMoment(since, () => chat.output().slice(at));
		const steered = server.requests.length;
		chat.type(`@st_b ${text}\r`);
		at = await chat.waitFor('massgen: message 1 sent to st_b (their votes reset)', at);
		chat.type('/diff\r');
		at = await chat.waitFor('massgen: /diff waits for the prompt', at);
		chat.type('/finish\r');
		at = await chat.waitFor('massgen: finishing now', at);
		open();
		at = await chat.waitFor('coordination ended: you finished it (finish now)', at);
		await chat.waitFor('massgen> ', at);
		chat.type('/quit\r');
		expect(await chat.exited).toBe(0);
		expect(requestsOf('st_b', steered)[0]!.rawBody).toContain(text);
		for (const id of ['st_a', 'st_c']) {
			expect(requestsOf(id, since).some((r) => r.rawBody.includes(text))).toBe(false);
		}
		const record = result(root);
		expect(record.coordination.ended).toBe('finished-by-user');
		expect(record.steering).toEqual([expect.objectContaining({ targetAgentId: 'st_b', text })]);
	});
});
