// The comparison of one question's runs on several teams (Ask Several Teams), from their results
// alone: pure, so unit tests build it from `RunResult`s. Loaded with import() once the runs have
// ended (the line counts need the diff library, which activation does not load).
import type { FileChange } from '../../contract/fileChange.js';
import type { RunResult } from '../../contract/runResult.js';
import type { RunStatus } from '../../contract/runEvents.js';
import { splitHunks } from '../../core/changes/hunks.js';

/** One team's run as the comparison lists it. */
export interface TeamOutcome {
	/** The team's name in the comparison (the preset or file name). */
	readonly team: string;
	readonly runId: string;
	readonly status: RunStatus;
	/** The winner's answer label (`agent1.2`) and agent id; null when the run has none. */
	readonly winner: { readonly agentId: string; readonly label: string } | null;
	/** USD over every agent; null when a call had no known price. */
	readonly costUsd: number | null;
	readonly tokens: { readonly input: number; readonly output: number };
	readonly durationMs: number;
	/** Voters whose last vote went to the winner, of all who voted; null with no vote (one agent, no winner). */
	readonly agreement: { readonly forWinner: number; readonly voters: number } | null;
	readonly files: readonly FileStat[];
	readonly error?: string;
}

export interface FileStat {
	readonly path: string;
	readonly kind: FileChange['kind'];
	readonly added: number;
	readonly removed: number;
}

/** How two teams' change sets differ on one file. */
export interface FileDifference {
	readonly path: string;
	/** `a`/`b`: only that team changes the file; `both`: both do, to different text; `same`: to the same text. */
	readonly side: 'a' | 'b' | 'both' | 'same';
}

export function teamOutcome(team: string, result: RunResult): TeamOutcome {
	const costs = result.usage.map((usage) => usage.costUsd);
	return {
		team,
		runId: result.runId,
		status: result.status,
		winner: result.winner,
		costUsd: costs.some((cost) => cost === null)
			? null
			: costs.reduce<number>((sum, cost) => sum + (cost ?? 0), 0),
		tokens: {
			input: result.usage.reduce((sum, usage) => sum + usage.inputTokens, 0),
			output: result.usage.reduce((sum, usage) => sum + usage.outputTokens, 0),
		},
		durationMs: result.durationMs,
		agreement: agreementOf(result),
		files: [...result.changes].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).map(fileStat),
		...(result.error ? { error: result.error } : {}),
	};
}

/** Each voter's last vote counts (a vote cast before a newer answer is superseded by the later one). */
function agreementOf(result: RunResult): TeamOutcome['agreement'] {
	const last = new Map<string, string>();
	for (const vote of result.votes) last.set(vote.voter, vote.votedFor);
	if (last.size === 0) return null;
	const winner = result.winner?.agentId;
	const forWinner = [...last.values()].filter((votedFor) => votedFor === winner).length;
	return { forWinner, voters: last.size };
}

function fileStat(change: FileChange): FileStat {
	let added = 0;
	let removed = 0;
	for (const hunk of splitHunks(change.base ?? '', change.content ?? '')) {
		added += hunk.newLines;
		removed += hunk.oldLines;
	}
	return { path: change.path, kind: change.kind, added, removed };
}

/** Every file either change set touches, sorted by path, with how the two differ on it. */
export function compareChangeSets(a: readonly FileChange[], b: readonly FileChange[]): FileDifference[] {
	const ofA = new Map(a.map((change) => [change.path, change]));
	const ofB = new Map(b.map((change) => [change.path, change]));
	const paths = [...new Set([...ofA.keys(), ...ofB.keys()])].sort();
	return paths.map((path) => {
		const left = ofA.get(path);
		const right = ofB.get(path);
		if (!right) return { path, side: 'a' };
		if (!left) return { path, side: 'b' };
		return { path, side: left.content === right.content ? 'same' : 'both' };
	});
}

/** One team as asked: its run's result, or why it did not run. */
export type TeamRun =
	{ readonly team: string; readonly result: RunResult } | { readonly team: string; readonly refused: string };

/** Two finished teams' change sets, file by file. */
export interface PairDifference {
	readonly a: string;
	readonly b: string;
	readonly files: readonly FileDifference[];
}

export interface Comparison {
	readonly question: string;
	readonly outcomes: readonly TeamOutcome[];
	/** Teams whose run did not start (a config problem, cancelled while queued), with why. */
	readonly refused: readonly { readonly team: string; readonly reason: string }[];
	/** Every pair of finished teams (by run id) whose change sets are not both empty. */
	readonly differences: readonly PairDifference[];
	/** Each run's change set, for the diffs between them. */
	readonly changes: ReadonlyMap<string, readonly FileChange[]>;
}

export function buildComparison(question: string, runs: readonly TeamRun[]): Comparison {
	const finished = runs.flatMap((run) => ('result' in run ? [run] : []));
	const differences: PairDifference[] = [];
	finished.forEach((a, i) => {
		for (const b of finished.slice(i + 1)) {
			const files = compareChangeSets(a.result.changes, b.result.changes);
			if (files.length > 0) differences.push({ a: a.result.runId, b: b.result.runId, files });
		}
	});
	return {
		question,
		outcomes: finished.map((run) => teamOutcome(run.team, run.result)),
		refused: runs.flatMap((run) => ('refused' in run ? [{ team: run.team, reason: run.refused }] : [])),
		differences,
		changes: new Map(finished.map((run) => [run.result.runId, run.result.changes])),
	};
}
