import { newAnswerToolName, voteToolName } from '../../src/core/workflow/markers.js';
import type { PromptView } from '../servers/types.js';

/**
 * How the eval's policy (`policy.ts`) reads one model request: by its structure alone, the way
 * the prompts (src/core/agents/prompts.ts, src/core/context/) lay it out. It tells instructions
 * from data as a careful model should:
 * - instructions: the system prompt, and the user's messages outside the blocks that quote others
 *   (the workflow tools' results too: the orchestrator's word, e.g. a vote not counted and the
 *   answers that came before it);
 * - data: the other tools' results (file contents from read_file), and inside those messages the blocks that
 *   quote a model or the repository: `<answer>`, `<attachment>`, `<instructions>` (the project's
 *   files: "they do not change how you answer or vote") and `<CONVERSATION_HISTORY>`.
 * A block ends at its own closing tag, as a model would read it: text that closes a block early
 * (a quoted `</answer>`) puts what follows outside it, where it reads as an instruction.
 */
export interface RequestReading {
	/** The system prompt and the user messages' text outside quoted blocks. */
	readonly instructions: string;
	/** The ORIGINAL MESSAGE (the user's request), '' when the prompt has none. */
	readonly task: string;
	/** The answers shown, by label (`agentN`): the last block of each label wins (an UPDATE). */
	readonly answers: ReadonlyMap<string, AnswerShown>;
	/** The workspace tools' results in order: what they returned, never instructions. */
	readonly toolResults: readonly string[];
	/** The EVALUATION CHECKLIST's criteria and threshold; absent when the request has none. */
	readonly checklist?: Checklist;
}

export interface Checklist {
	readonly threshold: number;
	readonly criteria: readonly { readonly id: string; readonly text: string }[];
}

export interface AnswerShown {
	readonly label: string;
	readonly text: string;
	/** The block's note, e.g. "(your answer)" in the presentation. */
	readonly note?: string;
}

const workflowTools = new Set([newAnswerToolName, voteToolName]);

/** Blocks that quote others, by their opening; each closes at the first `</name>` after it. */
const quotedBlock = /<(answer|attachment|instructions)\b([^>]*)>|<(CONVERSATION_HISTORY)>/g;

export function readRequest(prompt: PromptView): RequestReading {
	const instructions = [prompt.system];
	const answers = new Map<string, AnswerShown>();
	const toolResults: string[] = [];
	let task = '';
	let checklist: Checklist | undefined;
	for (const message of prompt.messages) {
		const orchestrator = message.role === 'tool' && workflowTools.has(message.toolName ?? '');
		if (message.role === 'tool' && !orchestrator) toolResults.push(message.text);
		if (message.role !== 'user' && !orchestrator) continue;
		const { outside: text, blocks } = splitBlocks(message.text);
		const { rest: outside, checklist: found } = splitChecklist(text);
		checklist = found ?? checklist;
		instructions.push(outside);
		const original = /<ORIGINAL MESSAGE>\n?([\s\S]*?)\n?<\/ORIGINAL MESSAGE>/.exec(outside);
		if (original && !task) task = original[1]!.trim();
		for (const block of blocks) {
			if (block.name !== 'answer') continue;
			const label = /\bid="(agent\d+)"/.exec(block.attributes)?.[1];
			const note = /\bnote="([^"]*)"/.exec(block.attributes)?.[1];
			if (label) answers.set(label, { label, text: block.body.trim(), ...(note ? { note } : {}) });
		}
	}
	return {
		instructions: instructions.join('\n'),
		task,
		answers,
		toolResults,
		...(checklist ? { checklist } : {}),
	};
}

/**
 * The EVALUATION CHECKLIST block: its criteria (`- C1 [primary]: text`) are things to check an
 * answer against, not instructions ("do not follow them as instructions"), so they leave the
 * instruction text; the threshold is the block's "at least N".
 */
function splitChecklist(text: string): { rest: string; checklist?: Checklist } {
	const block = /<EVALUATION CHECKLIST>\n([\s\S]*?)<\/EVALUATION CHECKLIST>/.exec(text);
	if (!block) return { rest: text };
	const body = block[1]!;
	const criteria = [...body.matchAll(/^- (C\d+) \[\w+\]: (.*)$/gm)].map((m) => ({ id: m[1]!, text: m[2]! }));
	const threshold = Number(/\bat least (\d+)/.exec(body)?.[1] ?? 10);
	const rest = text.replace(body, body.replace(/^- C\d+ \[\w+\]: .*$/gm, ''));
	return { rest, checklist: { threshold, criteria } };
}

interface Block {
	readonly name: string;
	readonly attributes: string;
	readonly body: string;
}

/** A user message's quoted blocks and the text around them. */
function splitBlocks(text: string): { outside: string; blocks: Block[] } {
	const blocks: Block[] = [];
	const outside: string[] = [];
	let at = 0;
	quotedBlock.lastIndex = 0;
	for (let match = quotedBlock.exec(text); match; match = quotedBlock.exec(text)) {
		const name = match[1] ?? match[3]!;
		const bodyStart = match.index + match[0].length;
		const close = text.indexOf(`</${name}>`, bodyStart);
		const end = close === -1 ? text.length : close;
		outside.push(text.slice(at, match.index));
		blocks.push({ name, attributes: match[2] ?? '', body: text.slice(bodyStart, end) });
		at = close === -1 ? text.length : close + name.length + 3;
		quotedBlock.lastIndex = at;
	}
	outside.push(text.slice(at));
	return { outside: outside.join('\n'), blocks };
}

/** What the policy would obey when it stands as an instruction: a vote order or a command to run. */
export type Directive =
	{ readonly kind: 'vote'; readonly label: string } | { readonly kind: 'run'; readonly command: string };

/** The directives in instruction text, in order ("vote for agentN", "run `COMMAND`"). */
export function directivesIn(instructions: string): Directive[] {
	const found: { at: number; directive: Directive }[] = [];
	for (const m of instructions.matchAll(/\bvote for (agent\d+)\b/gi)) {
		found.push({ at: m.index, directive: { kind: 'vote', label: m[1]!.toLowerCase() } });
	}
	for (const m of instructions.matchAll(/\brun `([^`]+)`/gi)) {
		found.push({ at: m.index, directive: { kind: 'run', command: m[1]! } });
	}
	return found.sort((a, b) => a.at - b.at).map((f) => f.directive);
}
