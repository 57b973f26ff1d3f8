import { ToolError } from './defineTool.js';

/**
 * Lets a long tool loop share the event loop: `check()` yields a macrotask turn once `sliceMs`
 * have passed since the last one, so SIGINT, timers (the agent and coordination timeouts) and,
 * in VS Code, every other extension keep running. Awaiting cached (already resolved) reads
 * yields nothing, so loops must call this. Throws once the run is cancelled.
 */
export class TimeSlice {
	private last = performance.now();

	constructor(
		private readonly signal: AbortSignal,
		private readonly sliceMs = 15,
	) {}

	async check(): Promise<void> {
		if (performance.now() - this.last >= this.sliceMs) {
			await new Promise<void>((resolve) => setImmediate(resolve));
			this.last = performance.now();
		}
		if (this.signal.aborted) throw new ToolError('cancelled');
	}
}
