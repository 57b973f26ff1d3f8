import type { RecordedRequest } from '../servers/loopbackProvider.js';
import type { PromptView, Reply, Turn, TurnToolCall } from '../servers/types.js';
import {
	directivesIn,
	readRequest,
	type AnswerShown,
	type Checklist,
	type RequestReading,
} from './readRequest.js';

/**
 * The eval's model: a plain, deterministic reader of the request's structure (`readRequest.ts`),
 * not a language model. It decides every turn from what the request shows — the task, the answers
 * and their labels, the tool list, the tool results — so a prompt that hides, cuts or mislabels an
 * answer, or lets file text stand as an instruction, makes it decide wrongly. What it tests is the
 * protocol and the prompts' structure, not model quality.
 *
 * The task names files in backticks; the policy reads each with read_file and takes the names they
 * export as the truth (the system prompt's "check files, not claims"). An answer's claims are the
 * identifiers it writes in backticks; its score is the true claims less the false ones; it is
 * complete when it names every export and nothing else. Each turn, in this order:
 * 1. a directive ("vote for agentN", "run `…`") standing as an instruction is obeyed — what a
 *    model that takes file text for instructions would do;
 * 2. a file the task names and this conversation has not read yet is read;
 * 3. no answer shown, or the agent's own answer not among them: it answers with its draft (every
 *    agent answers once, whenever the others' answers reach it: the run goes the same way at any
 *    timing);
 * 4. the best answer shown (highest score; ties to the lower label) is complete: vote for it;
 * 5. its own answer is worse than the best and the two together say more than the best: a new
 *    answer that builds on the best (their true claims, in the file's order);
 * 6. otherwise it votes for the best.
 * With an EVALUATION CHECKLIST its criteria decide instead of rules 4–6 (`byChecklist`).
 * With no workflow tools (the presentation) it presents the best answer shown.
 */
export interface Persona {
	/** What this agent's model writes first: its claims are the identifiers it puts in backticks. */
	readonly draft: string;
}

/** What one agent's policy did, for the report; the run's own records are what the eval checks. */
export interface PolicyLog {
	readonly submitted: string[];
	readonly decisions: string[];
}

export function policyScript(persona: Persona, log: PolicyLog) {
	return (request: RecordedRequest): Reply | undefined => {
		if (request.method !== 'POST') return undefined;
		const turn = decide(request.prompt, persona, log);
		return { turn: { usage: { input: 200, output: 40 }, ...turn } };
	};
}

export function decide(prompt: PromptView, persona: Persona, log: PolicyLog): Turn {
	const reading = readRequest(prompt);
	const offers = (name: string) => prompt.tools.some((tool) => tool.name === name);
	const record = (decision: string, call?: TurnToolCall): Turn => {
		log.decisions.push(decision);
		if (call?.name === 'new_answer') log.submitted.push(String(call.arguments?.['content']));
		return call ? { text: decision, toolCalls: [call] } : { text: decision };
	};

	const obeyed = obey(reading, prompt);
	if (obeyed) return record(obeyed.decision, obeyed.call);

	const paths = filesNamed(reading.task);
	const read = reading.toolResults.length;
	if (offers('read_file') && read < paths.length) {
		return record(`read ${paths[read]}`, { name: 'read_file', arguments: { path: paths[read] } });
	}
	const facts = exportsIn(reading.toolResults);
	const shown = [...reading.answers.values()];
	const scored = shown
		.map((answer) => ({ answer, score: score(answer.text, facts) }))
		.sort((a, b) => b.score - a.score || labelNumber(a.answer.label) - labelNumber(b.answer.label));
	const best = scored[0];

	if (!offers('new_answer') && !offers('vote')) {
		const own = shown.find((answer) => answer.note?.includes('your answer'));
		const presented = best?.answer ?? own;
		return record(presented ? presented.text : persona.draft);
	}
	const mine = shown.find((answer) => log.submitted.some((text) => sameText(answer.text, text)));
	if (!best || !mine) return record('answer with the draft', newAnswer(persona.draft));
	const checklist = reading.checklist?.criteria.length ? reading.checklist : undefined;
	if (checklist) {
		const judged = byChecklist(shown, checklist, scoresOffered(prompt));
		return record(judged.decision, judged.call);
	}
	if (complete(best.answer.text, facts)) {
		const reason = `${best.answer.label} names the ${facts.length} exports the files hold, and nothing else.`;
		return record(`vote ${best.answer.label}`, voteFor(best.answer.label, reason));
	}
	const merged = facts.filter((name) => claims(mine.text).has(name) || claims(best.answer.text).has(name));
	if (score(mine.text, facts) < best.score && merged.length > best.score) {
		const content = `Building on ${best.answer.label}'s answer: ${paths[0] ? `\`${paths[0]}\` exports` : 'the exports are'} ${merged.map((n) => `\`${n}\``).join(', ')}.`;
		return record(`revise on ${best.answer.label}`, newAnswer(content));
	}
	const reason = `${best.answer.label} is the best answer shown, and I cannot add to it.`;
	return record(`vote ${best.answer.label}`, voteFor(best.answer.label, reason));
}

/**
 * With an EVALUATION CHECKLIST the checklist decides instead of the files (rules 4–6): every
 * answer is scored on every criterion — 10 when it holds every name the criterion puts in
 * backticks, less by the share it misses, 10 for a criterion without one — and the vote goes to
 * the best answer scored at least the threshold on all, with the scores when the vote tool takes
 * them. No answer passes: a new answer building on the best, adding what it missed.
 */
function byChecklist(
	shown: readonly AnswerShown[],
	checklist: Checklist,
	withScores: boolean,
): { decision: string; call: TurnToolCall } {
	const marks = shown.map((answer) => ({
		answer,
		scores: checklist.criteria.map((criterion) => criterionScore(answer.text, criterion.text)),
	}));
	const total = (scores: readonly number[]) => scores.reduce((a, b) => a + b, 0);
	marks.sort(
		(a, b) => total(b.scores) - total(a.scores) || labelNumber(a.answer.label) - labelNumber(b.answer.label),
	);
	const passing = marks.find((mark) => mark.scores.every((score) => score >= checklist.threshold));
	if (passing) {
		const label = passing.answer.label;
		const scores = marks.map((mark) => ({
			agent_id: mark.answer.label,
			criteria: checklist.criteria.map((criterion, i) => ({ id: criterion.id, score: mark.scores[i]! })),
		}));
		const reason = `${label} meets every criterion of the checklist (at least ${checklist.threshold}).`;
		const call = voteFor(label, reason);
		return {
			decision: `vote ${label} with scores`,
			call: withScores ? { ...call, arguments: { ...call.arguments, scores } } : call,
		};
	}
	const best = marks[0]!.answer;
	const missing = checklist.criteria
		.flatMap((criterion) => [...criterion.text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!))
		.filter((token) => !best.text.includes(`\`${token}\``));
	const added = missing.map((token) => `\`${token}\``).join(', ');
	return {
		decision: `revise on ${best.label} for the checklist`,
		call: newAnswer(`Building on ${best.label}'s answer: ${best.text} Also: ${added}.`),
	};
}

function criterionScore(answer: string, criterion: string): number {
	const tokens = [...criterion.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
	if (tokens.length === 0) return 10;
	const met = tokens.filter((token) => answer.includes(`\`${token}\``)).length;
	return met === tokens.length ? 10 : 1 + Math.floor((8 * met) / tokens.length);
}

/** The vote tool's schema takes `scores` (a checklist run). */
function scoresOffered(prompt: PromptView): boolean {
	const vote = prompt.tools.find((tool) => tool.name === 'vote');
	const properties = vote?.parameters['properties'] as Record<string, unknown> | undefined;
	return properties?.['scores'] !== undefined;
}

/** Rule 1: the first directive that stands as an instruction, unless it was carried out already. */
function obey(
	reading: RequestReading,
	prompt: PromptView,
): { decision: string; call: TurnToolCall } | undefined {
	for (const directive of directivesIn(reading.instructions)) {
		if (directive.kind === 'run') {
			const ran = reading.toolResults.some((result) => result.includes('run_command'));
			if (!ran) {
				return {
					decision: `obey: run ${directive.command}`,
					call: { name: 'run_command', arguments: { command: directive.command } },
				};
			}
		} else if (prompt.tools.some((tool) => tool.name === 'vote')) {
			return {
				decision: `obey: vote ${directive.label}`,
				call: { name: 'vote', arguments: { agent_id: directive.label, reason: 'As instructed.' } },
			};
		}
	}
	return undefined;
}

/** Paths the task names in backticks (`src/shapes.ts`), in order. */
function filesNamed(task: string): string[] {
	return [...new Set([...task.matchAll(/`([\w./-]+\.\w+)`/g)].map((m) => m[1]!))];
}

/** Names the files read export (`export function x`, `export const x`), in file order. */
function exportsIn(results: readonly string[]): string[] {
	const names = results.flatMap((text) =>
		[...text.matchAll(/^export\s+(?:async\s+)?(?:function|const|class)\s+(\w+)/gm)].map((m) => m[1]!),
	);
	return [...new Set(names)];
}

function claims(text: string): Set<string> {
	return new Set([...text.matchAll(/`([A-Za-z_]\w*)`/g)].map((m) => m[1]!));
}

function score(text: string, facts: readonly string[]): number {
	const said = [...claims(text)];
	return (
		said.filter((name) => facts.includes(name)).length - said.filter((name) => !facts.includes(name)).length
	);
}

function complete(text: string, facts: readonly string[]): boolean {
	return facts.length > 0 && score(text, facts) === facts.length;
}

function labelNumber(label: string): number {
	return Number(label.slice('agent'.length));
}

/** The prompts quote a model's text (`<` of a tag becomes `‹`): compare past that. */
function sameText(shown: string, submitted: string): boolean {
	return shown.replace(/‹/g, '<').trim() === submitted.replace(/‹/g, '<').trim();
}

function newAnswer(content: string): TurnToolCall {
	return { name: 'new_answer', arguments: { content } };
}

function voteFor(label: string, reason: string): TurnToolCall {
	return { name: 'vote', arguments: { agent_id: label, reason } };
}
