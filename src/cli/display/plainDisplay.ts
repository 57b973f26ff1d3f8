/**
 * Progress for pipes, CI logs and dumb terminals: one plain line per meaningful event, no ANSI.
 */
import type { RunEvent } from '../../contract/runEvents.js';
import { reduceRun } from '../../protocol/reduceRun.js';
import { initialRunState, type RunState } from '../../protocol/runState.js';
import { formatEventLine } from './formatEventLine.js';
import type { DisplayStream, RunDisplay } from './runDisplay.js';
import { sanitizeTerminalText, truncateToWidth } from './terminalText.js';

/** Line cap when the stream has no width (a pipe): long model text must not flood a log. */
const DEFAULT_MAX_WIDTH = 500;

export class PlainDisplay implements RunDisplay {
	private state: RunState = initialRunState();
	private closed = false;

	constructor(private readonly stream: DisplayStream) {}

	onEvent(event: RunEvent): void {
		if (this.closed) return;
		const next = reduceRun(this.state, event);
		// The reducer returns the same state for duplicates and other runs' events: print nothing.
		if (next === this.state) return;
		this.state = next;
		const line = formatEventLine(event, next);
		if (line === null) return;
		const width = this.stream.columns && this.stream.columns > 0 ? this.stream.columns : DEFAULT_MAX_WIDTH;
		this.stream.write(`${truncateToWidth(sanitizeTerminalText(line), width)}\n`);
	}

	close(): void {
		this.closed = true;
	}
}
