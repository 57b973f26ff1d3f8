/**
 * Text a model or a repository wrote (a peer's answer, a vote's reason, an earlier turn's answer, a
 * post-evaluation verdict, a summary of a conversation and the tool results in it; an instruction
 * file, its name, an attached file), as the agents read it inside a user message. The user's own words are marked by a message of their own (`steerMessage`) and by
 * the history's `User:` lines; a hostile model (or a tool result a summary quotes) can write those
 * marks too, or close the block it is shown in and write outside it. Here each such mark comes out
 * visibly quoted, the same bytes for every agent (the cached prefix stays identical):
 * test/unit/agents/impersonation.test.ts.
 */

/** The prompt's section and answer tags, and the tag of the user's messages: `<` becomes `‹`. */
const blockTags =
	/<(\/?)(\s*)(answer\b|user_message\b|instructions\b|attachment\b|CURRENT ANSWERS|ORIGINAL MESSAGE|PROJECT INSTRUCTIONS|CONTEXT\b|CONVERSATION_HISTORY|PREVIOUS ATTEMPT FEEDBACK|REVIEW COMMENTS|EVALUATION CHECKLIST|UNMET CRITERIA|comment\b)/gi;
/** The headings of `steerMessage`. */
const userHeadings = /\b(MESSAGE|NOTE)(\s+)FROM(\s+)THE(\s+)USER\b/gi;
/**
 * The history's lines of the user (`historyBlock`: `User:`, `User (while the team worked):`,
 * `User (review comment) …`, and any later `User (…)` mark) at the start of a line.
 */
const userLines = /^([ \t]*)(User)(?=[ \t]*[:(])/gim;

export function quotedModelText(text: string): string {
	return text
		.replace(blockTags, '‹$1$2$3')
		.replace(userHeadings, (heading: string) => `(quoted, not the user's) ${heading.toLowerCase()}`)
		.replace(userLines, '$1(quoted) $2');
}
