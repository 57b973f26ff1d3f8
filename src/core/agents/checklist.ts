/**
 * Checklist evaluation (MassGen's `voting_sensitivity: checklist_gated`): before voting, each agent
 * scores every answer it sees against the criteria in force, and may vote only for an answer that
 * meets the threshold on every criterion (`checkScores`, enforced by the vote tool). With
 * `criteria_mode: bootstrap_inline` agents propose criteria the answers do not meet yet; they merge
 * between rounds (`mergeProposals`). Off (`checklist: null`), nothing here reaches a request.
 */
import type { ChecklistCriterion } from '../../contract/runEvents.js';

export type CriterionCategory = ChecklistCriterion['category'];

export interface ChecklistSettings {
	/** A vote's target must score at least this (1–10) on every criterion. */
	readonly threshold: number;
	/** Given in the config (`checklist_criteria_inline`), in force from the start. */
	readonly criteria: readonly { readonly text: string; readonly category: CriterionCategory }[];
	/** Generate criteria once from the task when none are given (`evaluation_criteria_generator`). */
	readonly generate: boolean;
	readonly mode: 'static' | 'bootstrap_inline';
	/** `bootstrap_max_per_agent_per_round`. */
	readonly maxProposalsPerAgentPerRound: number;
	/** `bootstrap_max_total`: proposed criteria kept; the oldest leave first (0 = no cap). */
	readonly maxProposedTotal: number;
}

export const checklistLimits = {
	/** One criterion's text, in UTF-8 bytes: a criterion is a sentence. */
	criterionBytes: 1024,
	/** Criteria given in the config (the zod schema's cap too). */
	givenCriteria: 50,
	/** Criteria a generator call may add. */
	generatedCriteria: 10,
	/** Criteria in force at once: every vote scores each of them for each answer. */
	inForce: 100,
} as const;

export const defaultVotingThreshold = 7;

/** A criterion's text as the checklist keeps it: one line, spaces collapsed. */
export function criterionText(text: string): string {
	return text.replace(/\s+/g, ' ').trim();
}

/** What the criteria in force become with an agent's accepted proposals. */
export interface MergeResult {
	readonly criteria: readonly ChecklistCriterion[];
	/** The proposals that entered (not duplicates, within the caps). */
	readonly added: readonly ChecklistCriterion[];
	/** Proposed criteria that left to keep `maxProposedTotal`. */
	readonly evicted: readonly ChecklistCriterion[];
	/** Proposals that entered, evicted at once or not: they count against the quota and took ids. */
	readonly entered: number;
}

/**
 * Merges one agent's proposals of one round: exact-text dedup (after `criterionText`), at most
 * `quota` of them, then the oldest proposed criteria leave while more than `maxProposedTotal` are
 * kept (given and generated criteria never leave). Ids continue from `nextId` and are never reused.
 */
export function mergeProposals(
	current: readonly ChecklistCriterion[],
	proposals: readonly string[],
	by: { readonly agentId: string; readonly round: number; readonly quota: number; readonly nextId: number },
	settings: Pick<ChecklistSettings, 'maxProposedTotal'>,
): MergeResult {
	const known = new Set(current.map((criterion) => criterion.text));
	const added: ChecklistCriterion[] = [];
	for (const proposal of proposals) {
		if (added.length >= by.quota) break;
		const text = criterionText(proposal);
		if (!text || known.has(text)) continue;
		known.add(text);
		added.push({
			id: `C${by.nextId + added.length}`,
			text,
			category: 'standard',
			round: by.round,
			proposedBy: by.agentId,
		});
	}
	let criteria = [...current, ...added];
	const evicted: ChecklistCriterion[] = [];
	const cap = settings.maxProposedTotal === 0 ? Infinity : settings.maxProposedTotal;
	const fixed = criteria.filter((criterion) => criterion.proposedBy === undefined).length;
	const limit = Math.min(cap, checklistLimits.inForce - fixed);
	let proposed = criteria.length - fixed;
	while (proposed > limit) {
		const oldest = criteria.find((criterion) => criterion.proposedBy !== undefined)!;
		evicted.push(oldest);
		criteria = criteria.filter((criterion) => criterion !== oldest);
		proposed--;
	}
	const left = new Set(evicted);
	return {
		criteria,
		added: added.filter((criterion) => !left.has(criterion)),
		evicted,
		entered: added.length,
	};
}
