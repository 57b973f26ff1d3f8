import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import type { RunResult } from '../../src/contract/runResult.js';
import { startLoopbackProvider, type LoopbackProvider } from '../servers/loopbackProvider.js';
import { readEvents, readResult, runDir, type LoggedEvent } from '../support/runDir.js';
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

/**
 * Runs one case through the built CLI (`dist/cli.js run`), each agent on its own loopback server
 * whose model is the policy, and checks what the run recorded (result.json, events.jsonl).
 */
export async function runCase(
	evalCase: EvalCase,
	options: { timeoutMs?: number } = {},
): Promise<CaseOutcome> {
	const scratch = mkdtempSync(join(tmpdir(), 'massgen-eval-'));
	const servers: LoopbackProvider[] = [];
	try {
		const logs = Object.fromEntries(
			evalCase.agents.map((agent) => [agent.id, { submitted: [], decisions: [] } as PolicyLog]),
		);
		for (const agent of evalCase.agents) {
			servers.push(
				await startLoopbackProvider(agent.protocol, { script: policyScript(agent.persona, logs[agent.id]!) }),
			);
		}
		const agents = evalCase.agents.map((agent, i) => ({
			id: agent.id,
			backend: {
				...backends[agent.protocol],
				base_url: servers[i]!.baseUrl,
				api_key: `loopback-${agent.protocol}-key`,
			},
		}));
		const workspace = join(scratch, 'repo');
		for (const [path, content] of Object.entries(evalCase.files)) {
			mkdirSync(dirname(join(workspace, path)), { recursive: true });
			writeFileSync(join(workspace, path), content);
		}
		const home = join(scratch, 'home');
		mkdirSync(home);
		const config = join(scratch, 'team.yaml');
		writeFileSync(config, stringify({ agents }));
		const attach = (evalCase.attach ?? []).flatMap((path) => ['--attach', path]);
		const args = ['run', '--config', config, '--workspace', workspace, ...attach, evalCase.question];
		const cli = await runCli(args, workspace, home, options.timeoutMs ?? 60_000);

		const perAgent = Object.fromEntries(
			evalCase.agents.map((agent, i) => [
				agent.id,
				servers[i]!.requests.filter((r) => r.method === 'POST').length,
			]),
		);
		const requests = Object.values(perAgent).reduce((a, b) => a + b, 0);
		const decisions = Object.fromEntries(Object.entries(logs).map(([id, log]) => [id, log.decisions]));
		if (cli.code !== 0) {
			const failure = `the CLI exited ${cli.code}: ${cli.stderr.trim().split('\n').slice(-3).join(' / ')}`;
			return { ...base(evalCase), made: 'no result', requests, perAgent, failures: [failure], decisions };
		}
		const dir = runDir(workspace);
		const result = readResult<RunResult>(dir);
		const events = readEvents(dir);
		return {
			...base(evalCase),
			made: describe(evalCase, result, events),
			requests,
			perAgent,
			failures: check(evalCase, result, events),
			decisions,
		};
	} finally {
		await Promise.all(servers.map((server) => server.close()));
		if (!process.env['MASSGEN_EVAL_KEEP']) rmSync(scratch, { recursive: true, force: true });
	}
}

function base(evalCase: EvalCase) {
	return { name: evalCase.name, expected: evalCase.expected };
}

/** The answers' versions per agent: `agentN.k` → k. */
function answerCounts(result: RunResult): Record<string, number> {
	return Object.fromEntries(result.answers.map((a) => [a.agentId, Number(a.label.split('.')[1] ?? 0)]));
}

const commandCalls = (events: readonly LoggedEvent[]) =>
	events.filter((e) => e.type === 'tool-call' && e['name'] === 'run_command');

function describe(evalCase: EvalCase, result: RunResult, events: readonly LoggedEvent[]): string {
	const counts = answerCounts(result);
	const votes = result.votes.map((v) => `${v.voter}→${v.votedFor}`).join(', ');
	const answers = evalCase.agents.map((a) => `${a.id} ${counts[a.id] ?? 0}`).join(', ');
	const commands = commandCalls(events).length;
	return [
		`winner ${result.winner?.agentId ?? 'none'}`,
		`votes ${votes || 'none'}`,
		`answers ${answers}`,
		...(commands ? [`run_command ×${commands}`] : []),
	].join('; ');
}

function check(evalCase: EvalCase, result: RunResult, events: readonly LoggedEvent[]): string[] {
	const expected = evalCase.outcome;
	const failures: string[] = [];
	if (result.status !== 'completed') failures.push(`run ${result.status}`);
	if (result.winner?.agentId !== expected.winner) {
		failures.push(`winner ${result.winner?.agentId ?? 'none'}, expected ${expected.winner}`);
	}
	for (const agent of evalCase.agents) {
		const vote = result.votes.find((v) => v.voter === agent.id);
		if (vote?.votedFor !== expected.winner) {
			failures.push(`${agent.id} voted for ${vote?.votedFor ?? 'nobody'}, expected ${expected.winner}`);
		}
	}
	const counts = answerCounts(result);
	for (const [agent, count] of Object.entries(expected.answers ?? {})) {
		if ((counts[agent] ?? 0) !== count) {
			failures.push(`${agent} answered ${counts[agent] ?? 0}×, expected ${count}×`);
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
	const commands = commandCalls(events);
	if (commands.length) {
		failures.push(`run_command called ${commands.length}× (${JSON.stringify(commands[0]!['args'])})`);
	}
	const final = result.finalAnswer ?? '';
	const missing = expected.finalNames.filter((name) => !final.includes(`\`${name}\``));
	if (missing.length) failures.push(`final answer lacks ${missing.join(', ')}`);
	return failures;
}

interface CliRun {
	readonly code: number | null;
	readonly stderr: string;
}

/** The built CLI with a scratch HOME (no user config, keys or trust), killed past the timeout. */
function runCli(args: readonly string[], cwd: string, home: string, timeoutMs: number): Promise<CliRun> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [cliPath, ...args], {
			cwd,
			env: { PATH: process.env['PATH'], HOME: home },
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
