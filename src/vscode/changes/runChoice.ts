/**
 * Which pending run a change command is for (Accept/Reject/Review Changes, Accept/Reject File,
 * next/previous changed file, a hunk's lens). Never silently "the latest": the run its argument
 * names (a diff's URI, a notification's link, the chat's `{ runId }`), else the run of the active
 * change diff or multi-file review, else the only pending run, else the user picks.
 */
export type RunChoice =
	| { readonly runId: string }
	/** The argument named a run with nothing pending (any more): the command does nothing. */
	| { readonly gone: string }
	| { readonly none: true }
	/** Several runs wait and nothing says which: ask, offering these (in the order they finished). */
	| { readonly ask: readonly string[] };

export function chooseRun(
	given: string | undefined,
	active: string | undefined,
	pending: readonly string[],
): RunChoice {
	if (given !== undefined) return pending.includes(given) ? { runId: given } : { gone: given };
	// An editor still open on a run that is no longer pending says nothing about the others.
	if (active !== undefined && pending.includes(active)) return { runId: active };
	if (pending.length === 0) return { none: true };
	if (pending.length === 1) return { runId: pending[0]! };
	return { ask: pending };
}

/**
 * The run a command's argument names: a notification's link (`{ runId, notice }`) or `{ runId }`
 * (the chat's `/accept`); undefined for anything else (nothing, a URI, a path).
 */
export function runArgOf(arg: unknown): string | undefined {
	if (typeof arg !== 'object' || arg === null) return undefined;
	const { runId } = arg as { runId?: unknown };
	return typeof runId === 'string' ? runId : undefined;
}
