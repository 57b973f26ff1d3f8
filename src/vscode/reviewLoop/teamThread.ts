import type { LineRange } from './anchorMap.js';

/** The most comment threads a change set may have (the core refuses a revision with more than 100). */
export const maxThreadsPerRun = 100;
/** The longest comment the core keeps (it caps the text there too). */
export const maxCommentChars = 4000;

/**
 * One reviewer's thread on a run's proposed text, as the review loop keeps it (the Comments API
 * thread shows it). `range` is in lines of the PROPOSED document of `path` as the reviewer sees it
 * now; `anchoredText` is that document's text the range was last mapped to (a re-render maps it on
 * with `mapRange`).
 */
export interface TeamThread {
	/** The shell's id (`ReviewCommentInput.id`): the core hands it back as `ref`. */
	readonly id: string;
	/** The run whose proposal the thread is on now. */
	runId: string;
	readonly path: string;
	range: LineRange;
	anchoredText: string;
	/** The reviewer's words, one entry per comment (replies included). */
	readonly comments: string[];
	resolved: boolean;
	/** Set once a revision answered it: its id for the agents (`c1`) and whether the winner addressed it. */
	outcome?: { readonly commentId: string; readonly addressed: boolean; readonly fromRunId: string };
}

/** The thread's comments as one comment for the team. */
export function threadText(thread: Pick<TeamThread, 'comments'>): string {
	return thread.comments
		.map((text) => text.trim())
		.filter((text) => text.length > 0)
		.join('\n\n')
		.slice(0, maxCommentChars);
}
