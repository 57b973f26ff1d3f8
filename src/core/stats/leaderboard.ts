/**
 * The leaderboard (docs/stats.md): the run facts (`runFacts.ts`) counted per model, per configured
 * agent and per team. Counts are shown as they are; a row with fewer than `minRuns` runs is listed
 * after the ranked ones and never given a rank.
 */
import type { AgentFacts, RunFacts, RunFactsRead, SkippedRun } from './runFacts.js';

export interface StatsRow {
	key: string;
	/** "openai/gpt-4o" or "a · openai/gpt-4o" or "team: ..." */
	label: string;
	runs: number;
	answers: number;
	wins: number;
	votesReceived: number;
	votedRuns: number;
	/** its vote went to the run's winner */
	agreedWithFinal: number;
	winsWithChanges: number;
	acceptedUnchanged: number;
	partlyAccepted: number;
	rejected: number;
	reverted: number;
	runnerUpHunksTaken: number;
	costPerRunUsd: number | null;
	msPerRun: number;
	ranked: boolean;
}

export interface TeamRow extends StatsRow {
	/** provider/model, sorted */
	members: string[];
	acceptedChanges: number;
	costPerAcceptedChangeUsd: number | null;
}

export interface Leaderboard {
	since: string | null;
	minRuns: number;
	runs: number;
	models: StatsRow[];
	agents: StatsRow[];
	teams: TeamRow[];
	/** user's acceptance rate over decided runs with changes (accepted+partly / accepted+partly+rejected+reverted); null when none */
	acceptanceRate: number | null;
	skipped: SkippedRun[];
}

export interface LeaderboardOptions {
	/** Rows with fewer runs are not ranked (default 5). */
	minRuns?: number;
	/** Runs started before it are left out. */
	since?: Date;
}

const defaultMinRuns = 5;

export function leaderboard(facts: RunFactsRead, options: LeaderboardOptions = {}): Leaderboard {
	const minRuns = wholeAtLeastOne(options.minRuns) ?? defaultMinRuns;
	const since = options.since?.getTime();
	const runs = facts.runs.filter((run) => since === undefined || Date.parse(run.startedAt) >= since);
	const models = new Map<string, Tally>();
	const agents = new Map<string, Tally>();
	const teams = new Map<string, Tally & { members: string[] }>();
	for (const run of runs) {
		for (const [key, group] of groupBy(run.agents, modelOf)) {
			tallyOf(models, `model:${key}`, key).add(run, group);
		}
		for (const [key, group] of groupBy(run.agents, (agent) => `${agent.agentId} · ${modelOf(agent)}`)) {
			tallyOf(agents, `agent:${key}`, key).add(run, group);
		}
		const members = run.agents.map(modelOf).sort();
		const key = `team:${JSON.stringify(members)}`;
		let team = teams.get(key);
		if (!team) {
			team = Object.assign(new Tally(key, `team: ${members.join(' + ')}`), { members });
			teams.set(key, team);
		}
		team.add(run, run.agents);
	}
	const decided = runs.filter((run) => decidedOutcomes.has(run.outcome));
	const accepted = decided.filter((run) => run.outcome === 'accepted' || run.outcome === 'partly-accepted');
	return {
		since: options.since ? options.since.toISOString() : null,
		minRuns,
		runs: runs.length,
		models: ordered([...models.values()].map((tally) => tally.row(minRuns))),
		agents: ordered([...agents.values()].map((tally) => tally.row(minRuns))),
		teams: ordered([...teams.values()].map((tally) => tally.teamRow(minRuns, tally.members))),
		acceptanceRate: decided.length === 0 ? null : accepted.length / decided.length,
		skipped: facts.skipped,
	};
}

/** A row's share of its decided winning changes that the user accepted (whole or in part); null when none was decided. */
export function acceptanceOf(row: StatsRow): number | null {
	const accepted = row.acceptedUnchanged + row.partlyAccepted;
	const decided = accepted + row.rejected + row.reverted;
	return decided === 0 ? null : accepted / decided;
}

const decidedOutcomes: ReadonlySet<string> = new Set(['accepted', 'partly-accepted', 'rejected', 'reverted']);

function modelOf(agent: AgentFacts): string {
	return `${agent.provider}/${agent.model}`;
}

function groupBy(
	agents: readonly AgentFacts[],
	keyOf: (agent: AgentFacts) => string,
): Map<string, AgentFacts[]> {
	const groups = new Map<string, AgentFacts[]>();
	for (const agent of agents) {
		const key = keyOf(agent);
		const group = groups.get(key);
		if (group) group.push(agent);
		else groups.set(key, [agent]);
	}
	return groups;
}

function tallyOf(tallies: Map<string, Tally>, key: string, label: string): Tally {
	let tally = tallies.get(key);
	if (!tally) {
		tally = new Tally(key, label);
		tallies.set(key, tally);
	}
	return tally;
}

/** One row's counts as runs are added: a run counts once, its agents of the row each add theirs. */
class Tally {
	private runs = 0;
	private answers = 0;
	private wins = 0;
	private votesReceived = 0;
	private votedRuns = 0;
	private agreedWithFinal = 0;
	private winsWithChanges = 0;
	private acceptedUnchanged = 0;
	private partlyAccepted = 0;
	private rejected = 0;
	private reverted = 0;
	private runnerUpHunksTaken = 0;
	private durationMs = 0;
	private knownCostRuns = 0;
	private knownCostUsd = 0;
	private unknownCostRuns = 0;

	constructor(
		readonly key: string,
		readonly label: string,
	) {}

	/** `members`: the run's agents this row is about. */
	add(run: RunFacts, members: readonly AgentFacts[]): void {
		this.runs++;
		this.durationMs += run.durationMs;
		const ids = new Set(members.map((agent) => agent.agentId));
		for (const agent of members) {
			this.answers += agent.answers;
			this.votesReceived += agent.votesReceived;
			if (agent.votedFor !== null) {
				this.votedRuns++;
				if (agent.votedFor === run.winner) this.agreedWithFinal++;
			}
		}
		this.runnerUpHunksTaken += run.runnerUpHunksFrom.filter((id) => ids.has(id)).length;
		const costs = members.map((agent) => agent.costUsd);
		if (costs.every((cost): cost is number => cost !== null)) {
			this.knownCostRuns++;
			this.knownCostUsd += costs.reduce((sum, cost) => sum + cost, 0);
		} else this.unknownCostRuns++;
		if (run.winner === null || !ids.has(run.winner)) return;
		this.wins++;
		if (run.outcome === 'none') return;
		this.winsWithChanges++;
		if (run.outcome === 'accepted' && run.acceptedUnchanged) this.acceptedUnchanged++;
		else if (run.outcome === 'accepted' || run.outcome === 'partly-accepted') this.partlyAccepted++;
		else if (run.outcome === 'rejected') this.rejected++;
		else if (run.outcome === 'reverted') this.reverted++;
	}

	row(minRuns: number): StatsRow {
		return {
			key: this.key,
			label: this.label,
			runs: this.runs,
			answers: this.answers,
			wins: this.wins,
			votesReceived: this.votesReceived,
			votedRuns: this.votedRuns,
			agreedWithFinal: this.agreedWithFinal,
			winsWithChanges: this.winsWithChanges,
			acceptedUnchanged: this.acceptedUnchanged,
			partlyAccepted: this.partlyAccepted,
			rejected: this.rejected,
			reverted: this.reverted,
			runnerUpHunksTaken: this.runnerUpHunksTaken,
			// Over the runs whose cost is known (a model without a price leaves its runs out).
			costPerRunUsd: this.knownCostRuns === 0 ? null : this.knownCostUsd / this.knownCostRuns,
			msPerRun: this.runs === 0 ? 0 : Math.round(this.durationMs / this.runs),
			ranked: this.runs >= minRuns,
		};
	}

	/** Cost per accepted change: every run's cost over the changes accepted; unknown when any run's cost is. */
	teamRow(minRuns: number, members: string[]): TeamRow {
		const row = this.row(minRuns);
		const acceptedChanges = row.acceptedUnchanged + row.partlyAccepted;
		return {
			...row,
			members,
			acceptedChanges,
			costPerAcceptedChangeUsd:
				acceptedChanges === 0 || this.unknownCostRuns > 0 ? null : this.knownCostUsd / acceptedChanges,
		};
	}
}

/**
 * Ranked rows first, by the acceptance of their winning changes (none decided: after those with
 * one), then win rate, then cost per run (unknown last); unranked rows after, by runs. Ties by label.
 */
function ordered<R extends StatsRow>(rows: R[]): R[] {
	const rate = (row: R) => acceptanceOf(row) ?? -1;
	const cost = (row: R) => row.costPerRunUsd ?? Infinity;
	return rows.sort((a, b) => {
		if (a.ranked !== b.ranked) return a.ranked ? -1 : 1;
		if (!a.ranked) return b.runs - a.runs || a.label.localeCompare(b.label);
		return (
			rate(b) - rate(a) ||
			b.wins / b.runs - a.wins / a.runs ||
			compareCost(cost(a), cost(b)) ||
			a.label.localeCompare(b.label)
		);
	});
}

function compareCost(a: number, b: number): number {
	return a === b ? 0 : a < b ? -1 : 1;
}

function wholeAtLeastOne(value: number | undefined): number | undefined {
	return value !== undefined && Number.isInteger(value) && value >= 1 ? value : undefined;
}
