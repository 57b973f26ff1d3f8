/**
 * The words of the coordination protocol that a model reads and answers with: the workflow and
 * verdict tool names, and the tag that shows an answer. The agents write them and the scripted
 * model recognises them; both import them from here, so neither depends on the other.
 */
export const newAnswerToolName = 'new_answer';
export const voteToolName = 'vote';
/** Post-evaluation's verdicts. */
export const submitToolName = 'submit';
export const restartToolName = 'restart_orchestration';

/** How an answer block opens (`<answer id="agentN"`, then its note and body). */
export function answerTagOpening(anonId: string): string {
	return `<answer id="${anonId}"`;
}

/**
 * The anonymous ids whose answers these texts show (blocks opened by `answerTagOpening`), in id
 * order: what a voter can name, since `vote`'s enum lists every agent.
 */
export function answerIdsShown(texts: readonly string[]): string[] {
	const ids = new Set(
		texts.flatMap((text) => [...text.matchAll(/<answer id="(agent\d+)"/g)].map((m) => m[1]!)),
	);
	return [...ids].sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)));
}
