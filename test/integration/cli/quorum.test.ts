/**
 * Quorum through `dist/cli.js run` on a loopback chat server that counts what it saw: five agents,
 * two of them slow (the server holds their vote calls). With `quorum: 3` the run ends on the three
 * fast votes (held until both slow vote calls are on the server) without waiting: the slow calls
 * are closed by the client, counted as stopped, and the saving is in result.json. With quorum off (the control) the presentation comes only after the
 * slow votes were answered.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { RunResult } from '../../../src/contract/runResult.js';
import {
	startLoopbackProvider,
	type LoopbackProvider,
	type RecordedRequest,
} from '../../servers/loopbackProvider.js';
import { readResult, runDir } from '../../support/runDir.js';
import { makeWorkspaceDir } from '../../support/tempTree.js';
import { waitFor } from '../../support/waitFor.js';
import { runCli } from './cliProcess.js';

const slowModels = new Set(['q-4', 'q-5']);
const isPost = (request: RecordedRequest) => request.method === 'POST';
const offersVote = (request: RecordedRequest) => request.prompt.tools.some((tool) => tool.name === 'vote');
/** A coordination call that can vote: the team's answers are in its prompt. */
const isVoteCall = (request: RecordedRequest) =>
	offersVote(request) && request.prompt.texts.some((text) => text.includes('<answer id="agent'));
const isPresentation = (request: RecordedRequest) => isPost(request) && !offersVote(request);

describe('quorum (dist/cli.js, one loopback server)', () => {
	let server: LoopbackProvider;
	let release!: () => void;
	let released: Promise<void>;
	/** Resolves once both slow vote calls are on the server: the fast votes wait for it, so none lands before. */
	let slowArrived!: () => void;
	let bothSlow: Promise<void>;
	let slowSeen = 0;
	beforeAll(async () => {
		server = await startLoopbackProvider('chat', {
			auto: {},
			hold: (request) => {
				if (!isPost(request) || !isVoteCall(request)) return undefined;
				if (!slowModels.has(request.model)) return bothSlow;
				if (++slowSeen === 2) slowArrived();
				return released;
			},
		});
	});
	afterAll(() => {
		release();
		return server.close();
	});

	async function run(quorum: number | null, onHeld?: () => void) {
		released = new Promise((resolve) => (release = resolve));
		bothSlow = new Promise((resolve) => (slowArrived = resolve));
		slowSeen = 0;
		const since = server.requests.length;
		const agents = [1, 2, 3, 4, 5].map((n) => ({
			id: `q_${n}`,
			backend: { type: 'chatcompletion', model: `q-${n}`, base_url: server.baseUrl, api_key: 'loopback-key' },
		}));
		const configDir = makeWorkspaceDir();
		const config = join(configDir, 'team.yaml');
		writeFileSync(
			config,
			stringify({ agents, ...(quorum === null ? {} : { orchestrator: { coordination: { quorum } } }) }),
		);
		const root = makeWorkspaceDir({ 'README.md': '# demo\n' });
		const env = { XDG_STATE_HOME: makeWorkspaceDir() };
		const cli = runCli(['run', '--config', config, 'Which is best?'], {
			cwd: root,
			env,
			deadlineMs: 30_000,
		});
		if (onHeld) {
			// Both slow votes are held on the server: the control releases them.
			const held = () => server.requests.slice(since).filter((r) => slowModels.has(r.model) && isVoteCall(r));
			await waitFor(() => held().length === 2, 'both slow vote calls held on the server');
			onHeld();
		}
		const done = await cli;
		return {
			done,
			root,
			result: readResult<RunResult>(runDir(root)),
			requests: server.requests.slice(since),
		};
	}

	it('quorum 3: the run ends on the fast votes; the slow calls are stopped, counted, and the saving recorded', async () => {
		const { done, root, result, requests } = await run(3);
		expect(done.code).toBe(0);
		expect(result.coordination).toMatchObject({
			ended: 'quorum',
			quorum: { required: 3, votes: 3 },
			saved: { callsStopped: 2, agentsNotWaitedFor: ['q_4', 'q_5'] },
		});
		const slowVotes = requests.filter((r) => slowModels.has(r.model) && isVoteCall(r));
		expect(slowVotes).toHaveLength(2);
		expect(slowVotes.every((r) => r.closedByClient)).toBe(true);
		for (const id of ['q_4', 'q_5']) {
			expect(result.usage.find((u) => u.agentId === id)?.abortedCalls).toBeGreaterThanOrEqual(1);
		}
		expect(result.votes).toHaveLength(3);
		expect(requests.filter(isPresentation)).toHaveLength(1);
		expect(result.status).toBe('completed');
		// `massgen show` says why coordination ended and what the quorum saved.
		const show = await runCli(['show', result.runId], { cwd: root });
		expect(show.stdout).toMatch(
			/\nended {5}a quorum agreed \(3 votes for agent\d\.1, 3 needed\); saved: 2 calls stopped, not waited for q_4, q_5, cost unknown\n/,
		);
	});

	it('quorum off (control): the presentation waits for the slow votes, and all five count', async () => {
		const { done, result, requests } = await run(null, () => release());
		expect(done.code).toBe(0);
		expect(result.coordination).toEqual({ ended: 'consensus' });
		expect(result.votes).toHaveLength(5);
		const slowVotes = requests.filter((r) => slowModels.has(r.model) && isVoteCall(r));
		expect(slowVotes.every((r) => !r.closedByClient)).toBe(true);
		const presentation = requests.find(isPresentation)!;
		expect(slowVotes.every((r) => r.settledAt! <= presentation.receivedAt)).toBe(true);
	});
});
