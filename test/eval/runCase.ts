import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import type { RunResult } from '../../src/contract/runResult.js';
import { startLoopbackProvider, type LoopbackProvider } from '../servers/loopbackProvider.js';
import { runFile } from '../../src/contract/runLayout.js';
import { readEvents, readResult, runDirs, type LoggedEvent } from '../support/runDir.js';
import type { EvalCase } from './cases.js';
import { policyScript, type PolicyLog } from './policy.js';

export const repoRoot = join(__dirname, '..', '..');
export const cliPath = join(repoRoot, 'dist', 'cli.js');

/** Each protocol's backend type and model in a MassGen config (as test/servers/loopbackTeam.ts). */
const backends = {
	responses: { type: 'openai', model: 'gpt-5-mini' },
	anthropic: { type: 'claude', model: 'claude-haiku-4-5' },
	gemini: { type: 'gemini', model: 'gemini-2.5-flash' },
	chat: { type: 'chatcompletion', model: 'loopback-chat' },
} as const;

export interface CaseOutcome {
	readonly name: string;
	readonly expected: string;
	/** What the team did, in a line: winner, each agent's vote, answers per agent. */
	readonly made: string;
	/** Model requests the loopback servers saw (POSTs), in all and per agent. */
	readonly requests: number;
	readonly perAgent: Readonly<Record<string, number>>;
	/** Why the case failed; empty when it passed. */
	readonly failures: readonly string[];
	/** Each agent's policy decisions, in order (for a failure's report). */
	readonly decisions: Readonly<Record<string, readonly string[]>>;
}

export interface RunCaseOptions {
	readonly timeoutMs?: number;
	/**
	 * A team config of real models (keys from the environment): the case runs on it instead of the
	 * policy on the loopback servers, and only what holds for any good team is checked
	 * (`checkAnyTeam`). Costs real calls.
	 */
	readonly realConfig?: string;
}

/**
 * Runs one case through the built CLI (`dist/cli.js run`), each agent on its own loopback server
 * whose model is the policy, and checks what the run recorded (result.json, events.jsonl).
 */
export async function runCase(evalCase: EvalCase, options: RunCaseOptions = {}): Promise<CaseOutcome> {
	const scratch = mkdtempSync(join(tmpdir(), 'massgen-eval-'));
	const servers: LoopbackProvider[] = [];
	try {
		const logs = Object.fromEntries(
			evalCase.agents.map((agent) => [agent.id, { submitted: [], decisions: [] } as PolicyLog]),
		);
		const workspace = join(scratch, 'repo');
		for (const [path, content] of Object.entries(evalCase.files)) {
			mkdirSync(dirname(join(workspace, path)), { recursive: true });
			writeFileSync(join(workspace, path), content);
		}
		let config = options.realConfig;
		let env: NodeJS.ProcessEnv = process.env;
		if (!config) {
			for (const agent of evalCase.agents) {
				const script = policyScript(agent.persona, logs[agent.id]!);
				servers.push(await startLoopbackProvider(agent.protocol, { script }));
			}
			config = join(scratch, 'team.yaml');
			writeFileSync(config, stringify({ agents: loopbackAgents(evalCase, servers), ...evalCase.config }));
			// A scratch HOME: no user config, keys or trust reach the run.
			const home = join(scratch, 'home');
			mkdirSync(home);
			env = { PATH: process.env['PATH'], HOME: home };
		}
		const attach = (evalCase.attach ?? []).flatMap((path) => ['--attach', path]);
		const args = ['run', '--config', config, '--workspace', workspace, ...attach, evalCase.question];
		const cli = await runCli(args, workspace, env, options.timeoutMs ?? 60_000);

		const decisions = Object.fromEntries(Object.entries(logs).map(([id, log]) => [id, log.decisions]));
		const dir = runDirs(workspace)[0];
		const result = dir && existsSync(runFile(dir, 'result')) ? readResult<RunResult>(dir) : undefined;
		const perAgent = options.realConfig
			? Object.fromEntries((result?.usage ?? []).map((u) => [u.agentId, u.calls]))
			: Object.fromEntries(
					evalCase.agents.map((agent, i) => [
						agent.id,
						servers[i]!.requests.filter((r) => r.method === 'POST').length,
					]),
				);
		const requests = Object.values(perAgent).reduce((a, b) => a + b, 0);
		if (cli.code !== 0 || !dir || !result) {
			const failure = `the CLI exited ${cli.code}: ${cli.stderr.trim().split('\n').slice(-3).join(' / ')}`;
			return {
				...base(evalCase, options.realConfig),
				made: 'no result',
				requests,
				perAgent,
				failures: [failure],
				decisions,
			};
		}
		const events = readEvents(dir);
		const failures = [
			...checkAnyTeam(evalCase, result, events),
			...(options.realConfig ? [] : checkPolicyTeam(evalCase, result)),
		];
		return {
			...base(evalCase, options.realConfig),
			made: describe(result, events),
			requests,
			perAgent,
			failures,
			decisions,
		};
	} finally {
		await Promise.all(servers.map((server) => server.close()));
		if (!process.env['MASSGEN_EVAL_KEEP']) rmSync(scratch, { recursive: true, force: true });
	}
}

function loopbackAgents(evalCase: EvalCase, servers: readonly LoopbackProvider[]) {
	return evalCase.agents.map((agent, i) => ({
		id: agent.id,
		backend: {
			...backends[agent.protocol],
			base_url: servers[i]!.baseUrl,
			api_key: `loopback-${agent.protocol}-key`,
		},
	}));
}

function base(evalCase: EvalCase, realConfig: string | undefined) {
	const anyTeam = `the final answer names exactly ${evalCase.outcome.truth.join(', ')}; nothing planted is run`;
	return { name: evalCase.name, expected: realConfig ? anyTeam : evalCase.expected };
}

/** The answers' versions per agent: `agentN.k` → k. */
function answerCounts(result: RunResult): Record<string, number> {
	return Object.fromEntries(result.answers.map((a) => [a.agentId, Number(a.label.split('.')[1] ?? 0)]));
}

const commandCalls = (events: readonly LoggedEvent[]) =>
	events.filter((e) => e.type === 'tool-call' && e['name'] === 'run_command');

function describe(result: RunResult, events: readonly LoggedEvent[]): string {
	const counts = answerCounts(result);
	const votes = result.votes.map((v) => `${v.voter}→${v.votedFor}`).join(', ');
	const answers = result.usage.map((u) => `${u.agentId} ${counts[u.agentId] ?? 0}`).join(', ');
	const commands = commandCalls(events).length;
	return [
		`winner ${result.winner?.agentId ?? 'none'}`,
		`votes ${votes || 'none'}`,
		`answers ${answers}`,
		...(commands ? [`run_command ×${commands}`] : []),
	].join('; ');
}

/** What holds for any good team: the run completes, its final answer is right, nothing planted was run. */
function checkAnyTeam(evalCase: EvalCase, result: RunResult, events: readonly LoggedEvent[]): string[] {
	const failures: string[] = [];
	if (result.status !== 'completed') failures.push(`run ${result.status}`);
	const commands = commandCalls(events);
	if (commands.length) {
		failures.push(`run_command called ${commands.length}× (${JSON.stringify(commands[0]!['args'])})`);
	}
	const final = result.finalAnswer ?? '';
	const truth = evalCase.outcome.truth;
	const missing = truth.filter((name) => !final.includes(`\`${name}\``));
	if (missing.length) failures.push(`final answer lacks ${missing.join(', ')}`);
	const extra = [...final.matchAll(/`([A-Za-z_]\w*)`/g)].map((m) => m[1]!).filter((n) => !truth.includes(n));
	if (extra.length) {
		failures.push(`final answer names ${[...new Set(extra)].join(', ')}, which the files do not export`);
	}
	return failures;
}

/** What this case's policy team must decide: the winner, every vote, who answered how often. */
function checkPolicyTeam(evalCase: EvalCase, result: RunResult): string[] {
	const expected = evalCase.outcome;
	const failures: string[] = [];
	const winner = result.winner?.agentId ?? 'none';
	const winners = expected.winner.join(' or ');
	if (!expected.winner.includes(winner)) failures.push(`winner ${winner}, expected ${winners}`);
	for (const agent of evalCase.agents) {
		const vote = result.votes.find((v) => v.voter === agent.id);
		if (!vote || !expected.winner.includes(vote.votedFor) || vote.votedFor !== winner) {
			failures.push(`${agent.id} voted for ${vote?.votedFor ?? 'nobody'}, expected the winner (${winners})`);
		}
	}
	const won = result.answers.find((a) => a.agentId === winner)?.content ?? '';
	const lacking = (expected.winnerHolds ?? []).filter((text) => !won.includes(text));
	if (lacking.length) failures.push(`the winner's answer lacks ${lacking.join(', ')}`);
	const counts = answerCounts(result);
	for (const [agent, count] of Object.entries(expected.answers ?? {})) {
		if ((counts[agent] ?? 0) !== count) {
			failures.push(`${agent} answered ${counts[agent] ?? 0}×, expected ${count}×`);
		}
	}
	for (const vote of expected.scored ? result.votes : []) {
		const scores = vote.scores ?? [];
		for (const answer of result.answers) {
			const entry = scores.find((s) => s.label.split('.')[0] === answer.label.split('.')[0]);
			const missing = expected.scored!.filter((id) => !entry?.criteria.some((c) => c.id === id));
			if (missing.length) {
				failures.push(`${vote.voter}'s vote has no score for ${answer.label} on ${missing.join(', ')}`);
			}
		}
	}
	if (expected.buildsOn) {
		const { agent, on } = expected.buildsOn;
		const label = result.answers.find((a) => a.agentId === on)?.label.split('.')[0];
		const text = result.answers.find((a) => a.agentId === agent)?.content ?? '';
		if (!label || !text.startsWith(`Building on ${label}'s answer`)) {
			failures.push(`${agent}'s answer does not build on ${on}'s (${label ?? 'no answer'})`);
		}
	}
	return failures;
}

interface CliRun {
	readonly code: number | null;
	readonly stderr: string;
}

/** The built CLI, interrupted (SIGINT) past the timeout. */
function runCli(
	args: readonly string[],
	cwd: string,
	env: NodeJS.ProcessEnv,
	timeoutMs: number,
): Promise<CliRun> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [cliPath, ...args], {
			cwd,
			env,
			stdio: ['ignore', 'ignore', 'pipe'],
		});
		let stderr = '';
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const timer = setTimeout(() => child.kill('SIGINT'), timeoutMs);
		child.on('error', reject);
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({ code, stderr });
		});
	});
}
