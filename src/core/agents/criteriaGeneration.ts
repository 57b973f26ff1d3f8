/**
 * MassGen's `evaluation_criteria_generator`: one call, before coordination, that writes the
 * run's evaluation checklist from the task (no tools). Its reply is parsed line by line, bounded
 * (`checklistLimits`); a reply with no usable line leaves the checklist empty and the run goes on.
 */
import { instructionsSection } from '../context/instructionsSection.js';
import type { ChatRequest } from '../providers/spec/model.js';
import type { Toolbox } from '../tools/types.js';
import { cacheKeyOf } from './cacheKey.js';
import { checklistLimits, criterionText, type CriterionCategory } from './checklist.js';
import type { ModelCallResult } from './modelCall.js';
import { originalMessage } from './prompts.js';
import { ToolLoopTurn, type ToolLoopOutcome } from './toolLoopTurn.js';
import type { TurnContext } from './turn.js';
import type { AgentSpec } from './types.js';

export interface GeneratedCriterion {
	readonly text: string;
	readonly category: CriterionCategory;
}

/** The generator has no tools: its request offers none, so no call reaches `execute`. */
const noTools: Toolbox = {
	definitions: [],
	has: () => false,
	execute: () => Promise.resolve({ text: 'No tools in this call.', isError: true }),
};

const generatorSystemPrompt = [
	'You write the evaluation checklist a team of AI agents will score its answers against. Each criterion is one',
	'sentence naming something a complete, correct answer to the ORIGINAL MESSAGE must do, checkable from the answer',
	'and its file changes. Mark each primary (the request fails without it), standard (expected) or stretch (excellent).',
].join(' ');

export class CriteriaGenerationTurn extends ToolLoopTurn<GeneratedCriterion[]> {
	constructor(agent: AgentSpec, context: TurnContext, signal: AbortSignal) {
		const first = [
			instructionsSection(context.instructions),
			originalMessage(context.question),
			`Write 4 to ${checklistLimits.generatedCriteria} criteria, one per line, each as "- [primary] criterion" (or [standard], [stretch]). Nothing else.`,
		]
			.filter(Boolean)
			.join('\n\n');
		super(agent, noTools, context, signal, { role: 'user', content: first }, 'coordination');
	}

	protected settle(result: ModelCallResult): ToolLoopOutcome<GeneratedCriterion[]> {
		return { done: parseCriteria(result.text) };
	}

	protected request(): ChatRequest {
		return {
			system: generatorSystemPrompt,
			messages: [...this.messages],
			tools: [],
			temperature: this.agent.temperature,
			maxOutputTokens: this.agent.maxOutputTokens,
			providerOptions: this.agent.providerOptions,
			stablePrefixMessages: 1,
			cacheKey: cacheKeyOf(this.context.runId, `${this.agent.id}:criteria`),
		};
	}
}

const line = /^\s*(?:[-*•]|\d+[.)])\s*(?:\[(primary|standard|stretch)\]\s*:?\s*)?(.+)$/i;

/** The criteria of a generator's reply: list lines only, deduplicated, each at most `criterionBytes`. */
export function parseCriteria(text: string): GeneratedCriterion[] {
	const criteria: GeneratedCriterion[] = [];
	const seen = new Set<string>();
	for (const raw of text.slice(0, 64 * 1024).split('\n')) {
		if (criteria.length >= checklistLimits.generatedCriteria) break;
		const match = line.exec(raw);
		if (!match) continue;
		const criterion = criterionText(match[2]!);
		if (!criterion || seen.has(criterion)) continue;
		if (Buffer.byteLength(criterion, 'utf8') > checklistLimits.criterionBytes) continue;
		seen.add(criterion);
		const category = (match[1]?.toLowerCase() ?? 'standard') as CriterionCategory;
		criteria.push({ text: criterion, category });
	}
	return criteria;
}
