/**
 * The facts the stats are made of, one record per finished run of the workspace (docs/stats.md):
 * who ran with which model, who answered, won and voted for whom, what it cost, and what the user
 * did with the winner's changes. A pure read model over `.massgen/runs/`: it never writes, and a
 * bad run is skipped with the reason, never thrown.
 *
 * The folder comes with the repository, so only runs this machine made count (`ownRuns.ts`): a
 * cloned repository's run folders could otherwise rank a model up and so steer Suggest a Team. A
 * foreign run is skipped unread. Every read is bounded: one `result.json` at its cap, the first
 * line of `events.jsonl` (for results from before `agents` was kept) at 64 KiB, and all reads of
 * one call together at `statsLimits.totalBytes` (the oldest runs beyond it are skipped).
 */
import { readdir, stat } from 'node:fs/promises';
import { z } from 'zod';
import type { RunStatus } from '../../contract/runEvents.js';
import type { RunResult } from '../../contract/runResult.js';
import { runDirOf, runFile, runsDir } from '../../contract/runLayout.js';
import { isSafeRunId, runIdDate } from '../../contract/runId.js';
import { changeOutcome, type ChangeOutcome } from '../changes/acceptRecord.js';
import { type ChangeLogEntry, readChangeLog } from '../runStore/changeLog.js';
import { readOwnRuns } from '../runStore/ownRuns.js';
import { readRunStart } from '../runStore/readRunEvents.js';
import { maxResultBytes, readRunResult } from '../runStore/readResult.js';
import { unfinishedReason } from '../runStore/runningMarker.js';
import { assertRealFolder, assertRunsDirInside, RunsDirError } from '../runStore/runsDirGuard.js';
import { shownName } from './statsText.js';

export type { ChangeOutcome } from '../changes/acceptRecord.js';

export interface AgentFacts {
	agentId: string;
	provider: string;
	model: string;
	answers: number;
	votesReceived: number;
	/** its last counted vote, anon-resolved to config id */
	votedFor: string | null;
	costUsd: number | null;
	inputTokens: number;
	outputTokens: number;
}

export interface RunFacts {
	runId: string;
	startedAt: string;
	durationMs: number;
	status: RunStatus;
	/** config agent id */
	winner: string | null;
	agents: AgentFacts[];
	/** 'none' | 'pending' | 'accepted' | 'partly-accepted' | 'rejected' | 'reverted' | 'superseded' */
	outcome: ChangeOutcome;
	/** Accepted whole, with no file edited by the user first and no runner-up hunk taken. */
	acceptedUnchanged: boolean;
	/** agent ids, one per runner-up hunk taken from that agent */
	runnerUpHunksFrom: string[];
	plan: boolean;
}

export interface SkippedRun {
	runId: string;
	reason: string;
}

export interface RunFactsRead {
	runs: RunFacts[];
	skipped: SkippedRun[];
}

export interface RunFactsOptions {
	/** Runs started before it are left out (not skipped: they are simply not asked for). */
	since?: Date;
	/** A run recorded as starting after it is skipped (default: the time of the call). */
	now?: Date;
	/** Where the record of this machine's runs is looked up (default `process.env`). */
	env?: NodeJS.ProcessEnv;
}

/** What one call reads at most. */
export const statsLimits = {
	/** All files of one call together: 256 MiB, as a sessions listing. */
	totalBytes: 256 * 1024 * 1024,
	/** The first line of `events.jsonl`, for results from before `agents` was kept. */
	runStartBytes: 64 * 1024,
	/** Agents of one run counted (a team is a handful; a planted list of thousands is cut). */
	agents: 64,
	/** Answers one agent is believed to have given in one run (its label's number beyond it is not). */
	answers: 1000,
	/** USD one agent is believed to have spent in one run; beyond it the cost is unknown. */
	costUsd: 100_000,
	/** Tokens one agent is believed to have used in one run; beyond it they count 0. */
	tokens: 1e12,
	/** A run's duration believed: 30 days. */
	durationMs: 30 * 24 * 3600 * 1000,
	/** Skipped runs named one by one; the rest are counted in one entry. */
	skippedListed: 200,
} as const;

/** Every finished run this machine made in the workspace at `root`, newest first, and the runs skipped with why. */
export async function readRunFacts(root: string, options: RunFactsOptions = {}): Promise<RunFactsRead> {
	const skipped: SkippedRun[] = [];
	let names: string[];
	try {
		names = await runDirNames(root);
	} catch (error) {
		if (!RunsDirError.is(error)) throw error;
		return { runs: [], skipped: [{ runId: '.massgen/runs', reason: error.message }] };
	}
	const own = await readOwnRuns(root, options.env);
	const now = (options.now ?? new Date()).getTime();
	const since = options.since?.getTime();
	const runs: RunFacts[] = [];
	let bytesLeft = statsLimits.totalBytes;
	// Newest id first: when the budget runs out, what is left out is old.
	for (const runId of names.sort((a, b) => b.localeCompare(a))) {
		if (!own.has(runId)) {
			skipped.push({ runId, reason: 'not made on this machine' });
			continue;
		}
		// The id holds the start to the second: a run whose id is older than `since` is not read.
		const idDate = runIdDate(runId);
		if (since !== undefined && idDate && idDate.getTime() + 1000 <= since) continue;
		if (bytesLeft <= 0) {
			skipped.push({ runId, reason: 'the stats read their total budget before this run' });
			continue;
		}
		const read = await readOne(root, runId, bytesLeft);
		bytesLeft -= read.bytes;
		if ('reason' in read) {
			skipped.push({ runId, reason: read.reason });
			continue;
		}
		const started = Date.parse(read.facts.startedAt);
		if (since !== undefined && started < since) continue;
		if (started > now) {
			skipped.push({ runId, reason: `starts in the future (${read.facts.startedAt})` });
			continue;
		}
		runs.push(read.facts);
	}
	runs.sort((a, b) => b.startedAt.localeCompare(a.startedAt) || b.runId.localeCompare(a.runId));
	return { runs, skipped: summarised(skipped) };
}

/** At most `statsLimits.skippedListed` skips named, the rest counted in one line (a clone may plant thousands). */
function summarised(skipped: SkippedRun[]): SkippedRun[] {
	const max = statsLimits.skippedListed;
	if (skipped.length <= max) return skipped;
	const rest = skipped.length - (max - 1);
	return [...skipped.slice(0, max - 1), { runId: '…', reason: `${rest} more runs skipped` }];
}

type OneRead = { facts: RunFacts; bytes: number } | { reason: string; bytes: number };

async function readOne(root: string, runId: string, bytesLeft: number): Promise<OneRead> {
	const runDir = runDirOf(root, runId);
	try {
		await assertRealFolder(runDir);
	} catch (error) {
		if (RunsDirError.is(error)) return { reason: error.message, bytes: 0 };
		throw error;
	}
	const read = await readRunResult(runDir, runId, Math.min(maxResultBytes, bytesLeft));
	if (!read.ok) {
		// No result yet: going on in some process, or it died mid-run.
		const reason = (read.missing && (await unfinishedReason(runDir))) || read.reason;
		return { reason, bytes: 0 };
	}
	const team = await teamOf(runDir, read.result);
	if (team.length === 0) return { reason: 'names no agents', bytes: read.bytes };
	const log =
		read.result.changes.length === 0
			? { entries: [], bytes: 0 }
			: await changeLogOf(runDir, bytesLeft - read.bytes);
	const facts = factsOf(runId, read.result, read.startedAt, team, log.entries);
	return { facts, bytes: read.bytes + log.bytes };
}

/** What the stats take of an agent's record (`result.json` `agents`, `run-start`'s `agents`). */
const agentInfoSchema = z.looseObject({
	agentId: z.string().min(1).max(200),
	provider: z.string().max(10_000),
	model: z.string().max(10_000),
});

interface TeamMember {
	/** The id as the run's files spell it (votes and the winner name it so). */
	readonly rawId: string;
	readonly provider: string;
	readonly model: string;
}

/**
 * The team: `result.json`'s `agents`, else `run-start`'s (first line only, 64 KiB), else the ids
 * the usage names with the model `unknown`. A malformed entry is left out; an id named twice
 * counts once.
 */
async function teamOf(runDir: string, result: RunResult): Promise<TeamMember[]> {
	const recorded = agentList((result as { agents?: unknown }).agents);
	const listed = recorded ?? agentList((await readRunStart(runDir, statsLimits.runStartBytes))?.agents);
	const members = new Map<string, TeamMember>();
	for (const agent of listed ?? []) {
		if (!members.has(agent.agentId)) {
			members.set(agent.agentId, { rawId: agent.agentId, provider: agent.provider, model: agent.model });
		}
	}
	if (listed === undefined) {
		for (const usage of result.usage) {
			const id = usage.agentId;
			if (id !== '' && id.length <= 200 && !members.has(id)) {
				members.set(id, { rawId: id, provider: 'unknown', model: 'unknown' });
			}
		}
	}
	return [...members.values()].slice(0, statsLimits.agents);
}

function agentList(value: unknown): z.infer<typeof agentInfoSchema>[] | undefined {
	if (!Array.isArray(value)) return undefined;
	return value.slice(0, statsLimits.agents).flatMap((entry) => {
		const parsed = agentInfoSchema.safeParse(entry);
		return parsed.success ? [parsed.data] : [];
	});
}

/** The change record when it fits the budget left; over it or unreadable = no entries (pending). */
async function changeLogOf(
	runDir: string,
	maxBytes: number,
): Promise<{ entries: ChangeLogEntry[]; bytes: number }> {
	const size = await stat(runFile(runDir, 'changeLog')).then(
		(info) => info.size,
		() => 0,
	);
	if (size === 0 || size > maxBytes) return { entries: [], bytes: 0 };
	return { entries: await readChangeLog(runDir).catch(() => []), bytes: size };
}

function factsOf(
	runId: string,
	result: RunResult,
	startedAt: string,
	team: readonly TeamMember[],
	entries: readonly ChangeLogEntry[],
): RunFacts {
	const ids = new Set(team.map((member) => member.rawId));
	const known = (id: unknown): id is string => typeof id === 'string' && ids.has(id);
	// One vote per voter (the result keeps each agent's last counted vote); votes by or for no member are not counted.
	const votes = new Map<string, string>();
	for (const vote of result.votes) {
		if (known(vote.voter) && known(vote.votedFor) && !votes.has(vote.voter)) {
			votes.set(vote.voter, vote.votedFor);
		}
	}
	const received = new Map<string, number>();
	for (const target of votes.values()) received.set(target, (received.get(target) ?? 0) + 1);
	const answers = new Map<string, number>();
	for (const answer of result.answers) {
		if (known(answer.agentId)) {
			answers.set(answer.agentId, Math.max(answers.get(answer.agentId) ?? 0, answerCount(answer.label)));
		}
	}
	const usage = new Map<string, Readonly<Record<string, unknown>>>();
	for (const entry of result.usage) {
		if (known(entry.agentId) && !usage.has(entry.agentId)) {
			usage.set(entry.agentId, entry as unknown as Readonly<Record<string, unknown>>);
		}
	}
	const show = (id: string) => shownName(id);
	const agents = team.map((member): AgentFacts => {
		const spent = usage.get(member.rawId);
		const votedFor = votes.get(member.rawId);
		return {
			agentId: show(member.rawId),
			provider: shownName(member.provider),
			model: shownName(member.model),
			answers: answers.get(member.rawId) ?? 0,
			votesReceived: received.get(member.rawId) ?? 0,
			votedFor: votedFor === undefined ? null : show(votedFor),
			costUsd: spent ? believedCost(spent['costUsd']) : null,
			inputTokens: spent ? believedTokens(spent['inputTokens']) : 0,
			outputTokens: spent ? believedTokens(spent['outputTokens']) : 0,
		};
	});
	const winner = known(result.winner?.agentId) ? show(result.winner.agentId) : null;
	const accepts = entries.filter((entry) => entry.kind === 'accept');
	const outcome = changeOutcome(entries, result.changes.length);
	const changedByUser = accepts.some(
		(entry) => (entry.editedPaths?.length ?? 0) > 0 || (entry.runnerUpHunks?.length ?? 0) > 0,
	);
	const runnerUpHunksFrom = accepts.flatMap((entry) =>
		(entry.runnerUpHunks ?? []).flatMap((hunk) => [...new Set(hunk.from)].filter(known).map(show)),
	);
	return {
		runId,
		startedAt,
		durationMs: bounded(result.durationMs, statsLimits.durationMs) ?? 0,
		status: result.status,
		winner,
		agents,
		outcome,
		acceptedUnchanged: outcome === 'accepted' && !changedByUser,
		runnerUpHunksFrom,
		plan: result.plan !== undefined,
	};
}

/** An answer label `agentN.k` says the agent's k-th answer: it gave k; a label without one says 1. */
function answerCount(label: string): number {
	const match = /\.(\d{1,6})$/.exec(label);
	const count = match ? Number(match[1]) : 1;
	return count >= 1 && count <= statsLimits.answers ? count : 1;
}

/** A finite, non-negative cost within the cap; anything else is unknown. */
function believedCost(value: unknown): number | null {
	return bounded(value, statsLimits.costUsd);
}

function believedTokens(value: unknown): number {
	const tokens = bounded(value, statsLimits.tokens);
	return tokens === null ? 0 : Math.round(tokens);
}

function bounded(value: unknown, max: number): number | null {
	return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= max ? value : null;
}

async function runDirNames(root: string): Promise<string[]> {
	await assertRunsDirInside(root);
	try {
		const entries = await readdir(runsDir(root), { withFileTypes: true });
		return entries.filter((e) => e.isDirectory() && isSafeRunId(e.name)).map((e) => e.name);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
		throw error;
	}
}
