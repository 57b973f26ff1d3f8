/**
 * Run directories for the stats tests, written by the real run log writer (so each is recorded as
 * made on this machine, in the state folder `env` names) with a changes log appended by the real
 * appender, as an accept, reject or revert leaves it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import type { RunAgentInfo } from '../../../src/contract/runEvents.js';
import type { RunResult } from '../../../src/contract/runResult.js';
import { runDirOf, runFile } from '../../../src/contract/runLayout.js';
import { recordFile } from '../../../src/core/changes/acceptRecord.js';
import { appendChangeLog } from '../../../src/core/runStore/changeLog.js';
import { RunLogWriter } from '../../../src/core/runStore/runLog.js';

export interface PlannedAgent {
	readonly id: string;
	readonly provider: string;
	readonly model: string;
	/** Answers it gave (its latest label's number); 0 = none. */
	readonly answers?: number;
	/** Whom its counted vote went to. */
	readonly votedFor?: string;
	/** USD; null = no known price. */
	readonly costUsd?: number | null;
}

export interface PlannedRun {
	readonly runId: string;
	readonly agents: readonly PlannedAgent[];
	readonly winner: string | null;
	/** Files the winner changed. */
	readonly changed?: readonly string[];
	readonly durationMs?: number;
	/** `agents` in result.json (default) or only in `run-start` (a run from before it was kept). */
	readonly agentsIn?: 'result' | 'run-start';
	readonly extra?: Record<string, unknown>;
}

export function resultOf(run: PlannedRun): RunResult & Record<string, unknown> {
	const anon = (id: string) => `agent${run.agents.findIndex((agent) => agent.id === id) + 1}`;
	const info: RunAgentInfo[] = run.agents.map((agent) => ({
		agentId: agent.id,
		anonId: anon(agent.id),
		provider: agent.provider,
		model: agent.model,
	}));
	return {
		runId: run.runId,
		question: `question of ${run.runId}`,
		status: 'completed',
		winner: run.winner ? { agentId: run.winner, label: `${anon(run.winner)}.1` } : null,
		answers: run.agents
			.filter((agent) => (agent.answers ?? 1) > 0)
			.map((agent) => ({
				agentId: agent.id,
				label: `${anon(agent.id)}.${agent.answers ?? 1}`,
				content: 'answer',
			})),
		votes: run.agents.flatMap((agent) =>
			agent.votedFor
				? [
						{
							voter: agent.id,
							votedFor: agent.votedFor,
							votedForLabel: `${anon(agent.votedFor)}.1`,
							reason: 'best',
						},
					]
				: [],
		),
		finalAnswer: 'final',
		changes: (run.changed ?? []).map((path) => ({
			path,
			kind: 'modify' as const,
			base: 'old\n',
			baseHash: null,
			content: 'new\n',
		})),
		usage: run.agents.map((agent) => ({
			agentId: agent.id,
			inputTokens: 100,
			outputTokens: 10,
			calls: 1,
			costUsd: agent.costUsd === undefined ? 0.01 : agent.costUsd,
		})),
		durationMs: run.durationMs ?? 1000,
		startedAt: startOf(run.runId),
		...(run.agentsIn === 'run-start' ? {} : { agents: info }),
		...run.extra,
	} as RunResult & Record<string, unknown>;
}

/** `20261101-100000-aaaa` → its time to the second, as ISO. */
function startOf(runId: string): string {
	const m = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-/.exec(runId)!;
	return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.000Z`;
}

/** A finished run of this machine. */
export async function writeRun(ws: string, env: NodeJS.ProcessEnv, run: PlannedRun): Promise<string> {
	const log = await RunLogWriter.create(ws, run.runId, { env, flushDelayMs: 0 });
	const result = resultOf(run);
	log.append({
		type: 'run-start',
		runId: run.runId,
		seq: 0,
		t: 0,
		question: result.question,
		workspace: ws,
		agents: run.agents.map((agent, i) => ({
			agentId: agent.id,
			anonId: `agent${i + 1}`,
			provider: agent.provider,
			model: agent.model,
		})),
	});
	await log.finish({ result, configYaml: '', patch: '' });
	await log.close();
	return log.runDir;
}

/** A run folder that came with the repository: never recorded as made here. */
export async function plantRun(ws: string, run: PlannedRun): Promise<string> {
	const dir = runDirOf(ws, run.runId);
	await mkdir(dir, { recursive: true });
	await writeFile(runFile(dir, 'result'), JSON.stringify(resultOf(run)));
	return dir;
}

/** The user accepted every changed file (`partial`: some hunks left out), as the editor records it. */
export async function accept(
	runDir: string,
	paths: readonly string[],
	extra: {
		partial?: boolean;
		runnerUpHunks?: { path: string; from: string[] }[];
		editedPaths?: string[];
	} = {},
): Promise<void> {
	await appendChangeLog(runDir, {
		kind: 'accept',
		by: 'editor',
		partial: extra.partial ?? false,
		...(extra.partial ? { partialPaths: [...paths] } : {}),
		...(extra.runnerUpHunks ? { runnerUpHunks: extra.runnerUpHunks } : {}),
		...(extra.editedPaths ? { editedPaths: extra.editedPaths } : {}),
		files: paths.map((path) => recordFile(path, 'old\n', 'new\n')),
	});
}

export async function reject(runDir: string, paths: readonly string[]): Promise<void> {
	await appendChangeLog(runDir, { kind: 'reject', by: 'editor', paths: [...paths] });
}

export async function revert(runDir: string, paths: readonly string[]): Promise<void> {
	await appendChangeLog(runDir, {
		kind: 'revert',
		by: 'cli',
		mode: 'revert',
		files: paths.map((path) => recordFile(path, 'new\n', 'old\n')),
	});
}
