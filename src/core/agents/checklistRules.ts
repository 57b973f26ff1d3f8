/**
 * What the workflow tools check of a checklist run's calls: a vote's `scores` (every answer the
 * voter sees × every criterion in force, integers 1–10) and its gate (the voted answer meets the
 * threshold on every criterion), and `proposed_criteria`. Each refusal says what to send instead;
 * the work is bounded by the sizes the checklist allows, whatever a model sends.
 */
import type { ChecklistCriterion, VoteScores } from '../../contract/runEvents.js';
import type { AnswerRecord } from './answers.js';
import { checklistLimits, criterionText } from './checklist.js';

/** The checklist one execution works with: fixed at its start (criteria merged later apply from the next round). */
export interface ExecutionChecklist {
	readonly criteria: readonly ChecklistCriterion[];
	readonly threshold: number;
	/** Proposals this agent may still make this round (0: none; `criteria_mode: static` always 0). */
	readonly proposalQuota: number;
	/** `criteria_mode: bootstrap_inline`: the tools take `proposed_criteria`. */
	readonly proposals: boolean;
}

type Checked<T> = { readonly ok: T } | { readonly error: string };

const shown = (value: unknown): string => {
	const text = typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value) ?? value);
	return text.length > 40 ? `${text.slice(0, 39)}…` : text;
};

/** Lists at most five items, then how many more. */
function few(items: readonly string[]): string {
	return items.length > 5 ? `${items.slice(0, 5).join(', ')} and ${items.length - 5} more` : items.join(', ');
}

/** `proposed_criteria` of a call: absent = none; refused when over the quota or a criterion is over its size. */
export function checkProposals(value: unknown, checklist: ExecutionChecklist): Checked<string[]> {
	if (value === undefined || value === null || !checklist.proposals) return { ok: [] };
	if (!Array.isArray(value)) return { error: 'proposed_criteria must be a list of strings.' };
	const quota = checklist.proposalQuota;
	if (value.length > quota) {
		return {
			error:
				quota === 0
					? `You have proposed your criteria for this round already; send proposed_criteria: [] (${value.length} sent).`
					: `proposed_criteria holds ${value.length} items; at most ${quota} this round: keep the ones that matter most and send again.`,
		};
	}
	const texts: string[] = [];
	for (const [index, item] of value.entries()) {
		if (typeof item !== 'string') return { error: `proposed_criteria[${index}] must be a string.` };
		const bytes = Buffer.byteLength(item, 'utf8');
		if (bytes > checklistLimits.criterionBytes) {
			return {
				error: `proposed_criteria[${index}] is ${bytes} bytes; a criterion is one sentence of at most ${checklistLimits.criterionBytes} bytes.`,
			};
		}
		const text = criterionText(item);
		if (text) texts.push(text);
	}
	return { ok: texts };
}

/**
 * A vote's `scores` over the answers of the voter's snapshot and the criteria in force, then the
 * gate: the voted answer scores at least the threshold on every criterion. `canAnswer` false (the
 * voter's answer limit is reached): no gate, since the improvement it asks for cannot be sent; the
 * low scores still reach the presenter as unmet criteria.
 */
export function checkScores(
	value: unknown,
	answers: ReadonlyMap<string, AnswerRecord>,
	target: AnswerRecord,
	checklist: ExecutionChecklist,
	canAnswer = true,
): Checked<VoteScores | undefined> {
	const { criteria, threshold } = checklist;
	if (criteria.length === 0) return { ok: undefined };
	const ids = [...answers.keys()];
	const criterionIds = criteria.map((criterion) => criterion.id);
	const howTo = `scores needs one entry per answer in CURRENT ANSWERS (${few(ids)}), each with a score (an integer 1–10) for every criterion (${few(criterionIds)}).`;
	if (!Array.isArray(value)) return { error: `Missing scores: ${howTo}` };
	if (value.length > ids.length) return { error: `scores has ${value.length} entries. ${howTo}` };
	const byAnswer = new Map<string, Map<string, number>>();
	for (const entry of value as unknown[]) {
		const record = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : {};
		const anonId = record['agent_id'];
		if (typeof anonId !== 'string' || !answers.has(anonId)) {
			return { error: `scores names agent_id ${shown(anonId)}, which has no answer. ${howTo}` };
		}
		if (byAnswer.has(anonId)) return { error: `scores lists ${anonId} twice. ${howTo}` };
		const list = record['criteria'];
		if (!Array.isArray(list) || list.length > criteria.length) {
			return { error: `scores for ${anonId}: give exactly one score per criterion. ${howTo}` };
		}
		const scores = new Map<string, number>();
		for (const item of list as unknown[]) {
			const pair = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {};
			const id = pair['id'];
			const score = pair['score'];
			if (typeof id !== 'string' || !criterionIds.includes(id)) {
				return {
					error: `scores for ${anonId} name criterion ${shown(id)}, which is not in the checklist. ${howTo}`,
				};
			}
			if (scores.has(id)) return { error: `scores for ${anonId} list ${id} twice. ${howTo}` };
			if (typeof score !== 'number' || !Number.isInteger(score) || score < 1 || score > 10) {
				return {
					error: `The score for ${anonId} on ${id} is ${shown(score)}: a score is an integer from 1 to 10.`,
				};
			}
			scores.set(id, score);
		}
		const missing = criterionIds.filter((id) => !scores.has(id));
		if (missing.length) return { error: `scores for ${anonId} miss ${few(missing)}. ${howTo}` };
		byAnswer.set(anonId, scores);
	}
	const unscored = ids.filter((id) => !byAnswer.has(id));
	if (unscored.length) return { error: `scores miss ${few(unscored)}. ${howTo}` };
	const targetScores = byAnswer.get(target.anonId)!;
	const below = criterionIds.filter((id) => targetScores.get(id)! < threshold);
	if (below.length && canAnswer) {
		const list = few(below.map((id) => `${id} (${targetScores.get(id)})`));
		return {
			error:
				`Vote refused: you scored ${target.anonId} below the threshold ${threshold} on ${list}. An answer that fails a ` +
				'criterion cannot get your vote: improve it with new_answer (meet those criteria), or vote for an answer you scored at ' +
				`least ${threshold} on every criterion.`,
		};
	}
	return {
		ok: ids.map((anonId) => ({
			label: answers.get(anonId)!.label,
			criteria: criterionIds.map((id) => ({ id, score: byAnswer.get(anonId)!.get(id)! })),
		})),
	};
}
