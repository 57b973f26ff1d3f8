import type { ChecklistCriterion, RunEventBody, VoteScores } from '../../contract/runEvents.js';
import { criterionText, mergeProposals, type ChecklistSettings } from '../agents/checklist.js';
import type { UnmetCriterion } from '../agents/checklistPrompts.js';
import type { ExecutionChecklist } from '../agents/checklistRules.js';
import type { GeneratedCriterion } from '../agents/criteriaGeneration.js';

/**
 * The run's evaluation checklist: the criteria in force (given, generated, then merged from the
 * agents' proposals between rounds) and what each agent may still propose this round. Every change
 * is announced with a `checklist` event; an execution reads the criteria at its start.
 */
export class ChecklistBoard {
	private criteria: readonly ChecklistCriterion[];
	private nextId: number;
	/** Proposals merged per `agentId:round`, against `maxProposalsPerAgentPerRound`. */
	private readonly proposed = new Map<string, number>();

	constructor(
		readonly settings: ChecklistSettings,
		private readonly emit: (body: RunEventBody) => void,
	) {
		this.criteria = settings.criteria.map((given, index) => ({
			id: `C${index + 1}`,
			text: criterionText(given.text),
			category: given.category,
			round: 0,
		}));
		this.nextId = this.criteria.length + 1;
	}

	/** The criteria in force now. */
	get inForce(): readonly ChecklistCriterion[] {
		return this.criteria;
	}

	/** The generator's criteria, before coordination (in force from the first round). */
	addGenerated(generated: readonly GeneratedCriterion[]): void {
		this.criteria = [
			...this.criteria,
			...generated.map((criterion, index) => ({
				id: `C${this.nextId + index}`,
				text: criterion.text,
				category: criterion.category,
				round: 0,
			})),
		];
		this.nextId += generated.length;
	}

	announce(): void {
		this.emit({ type: 'checklist', criteria: [...this.criteria], threshold: this.settings.threshold });
	}

	/** What `agentId`'s execution of `round` works with. */
	forExecution(agentId: string, round: number): ExecutionChecklist {
		const { threshold, mode, maxProposalsPerAgentPerRound: cap } = this.settings;
		const proposals = mode === 'bootstrap_inline';
		const used = this.proposed.get(`${agentId}:${round}`) ?? 0;
		return {
			criteria: this.criteria,
			threshold,
			proposals,
			proposalQuota: proposals ? Math.max(0, cap - used) : 0,
		};
	}

	/** Merges an accepted call's proposals; the checklist event tells the new criteria. */
	merge(agentId: string, round: number, proposals: readonly string[]): void {
		if (proposals.length === 0 || this.settings.mode !== 'bootstrap_inline') return;
		const key = `${agentId}:${round}`;
		const used = this.proposed.get(key) ?? 0;
		const quota = Math.max(0, this.settings.maxProposalsPerAgentPerRound - used);
		const merged = mergeProposals(
			this.criteria,
			proposals,
			{ agentId, round, quota, nextId: this.nextId },
			this.settings,
		);
		this.proposed.set(key, used + merged.entered);
		this.nextId += merged.entered;
		if (merged.entered === 0) return;
		this.criteria = merged.criteria;
		this.announce();
	}

	/** A post-evaluation restart: rounds count from 1 again, and so do the proposal quotas (the criteria stay). */
	newAttempt(): void {
		this.proposed.clear();
	}

	/** The winner's criteria that some counted vote scored below the threshold, with the lowest score. */
	unmet(label: string, votes: readonly { readonly scores?: VoteScores }[]): UnmetCriterion[] {
		const lowest = new Map<string, number>();
		for (const vote of votes) {
			for (const entry of vote.scores ?? []) {
				if (entry.label !== label) continue;
				for (const { id, score } of entry.criteria) {
					if (score < this.settings.threshold) lowest.set(id, Math.min(score, lowest.get(id) ?? score));
				}
			}
		}
		return this.criteria.flatMap((criterion) => {
			const score = lowest.get(criterion.id);
			return score === undefined ? [] : [{ criterion, lowest: score }];
		});
	}
}
