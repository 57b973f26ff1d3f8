/**
 * When is dropping a model call and re-issuing it with the new answers cheaper than letting it
 * finish (docs/decisions/0003-when-a-stale-call-is-dropped.md)? Only while nothing has streamed yet (text,
 * reasoning or tool-call deltas: output means the call is delivering) and the call is young relative to how
 * long this agent usually takes to start answering. An agent with no observed call yet is never dropped:
 * its call may be about to deliver an answer of its own, which the re-issued call would lose.
 */
export function shouldRestart(
	call: { readonly elapsedMs: number; readonly hasOutput: boolean },
	firstOutputEstimateMs: number | undefined,
	fraction: number,
): boolean {
	if (call.hasOutput || firstOutputEstimateMs === undefined) return false;
	return call.elapsedMs < fraction * firstOutputEstimateMs;
}

/** One agent's time to first output, smoothed over its calls (recent calls weigh more). */
export class FirstOutputEstimate {
	private estimate: number | undefined;

	get ms(): number | undefined {
		return this.estimate;
	}

	observe(ms: number): void {
		this.estimate = this.estimate === undefined ? ms : 0.5 * this.estimate + 0.5 * ms;
	}
}
