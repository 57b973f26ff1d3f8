/**
 * Live progress on a terminal: the per-agent table redrawn in place, with meaningful events
 * scrolling above it. Redraws are throttled (streaming deltas arrive hundreds of times a second)
 * and each one is a single write, so the table never flickers half-drawn.
 */
import type { RunEvent } from '../../contract/runEvents.js';
import { reduceRun } from '../../protocol/reduceRun.js';
import { initialRunState, type RunState } from '../../protocol/runState.js';
import { formatEventLine } from './formatEventLine.js';
import { renderStatusTable } from './renderStatusTable.js';
import type { DisplayStream, RunDisplay } from './runDisplay.js';
import { rawTerminal } from './terminalStream.js';
import { sanitizeTerminalText, truncateToWidth } from './terminalText.js';

export interface TtyDisplayOptions {
	/** Minimum time between redraws (default 100 ms: at most 10 redraws a second). */
	readonly minIntervalMs?: number;
	/** Colour the state column (default: on unless NO_COLOR is set). */
	readonly color?: boolean;
	/** Clock, for tests. */
	readonly now?: () => number;
}

const HIDE_CURSOR = '\u001b[?25l';
const SHOW_CURSOR = '\u001b[?25h';
const CLEAR_BELOW = '\u001b[J';

export class TtyDisplay implements RunDisplay {
	private state: RunState = initialRunState();
	/** Event lines waiting to be printed above the table at the next redraw. */
	private log: string[] = [];
	private drawnLines = 0;
	private lastDrawAt = Number.NEGATIVE_INFINITY;
	private timer: NodeJS.Timeout | null = null;
	private cursorHidden = false;
	private closed = false;
	private paused = false;
	private drawCount = 0;
	private readonly minIntervalMs: number;
	private readonly color: boolean;
	private readonly now: () => number;
	private readonly stream: DisplayStream;

	constructor(stream: DisplayStream, options: TtyDisplayOptions = {}) {
		// The table's own cursor moves and colours go to the terminal itself; every text in it was
		// made one safe line first (`sanitizeTerminalText`).
		this.stream = rawTerminal(stream);
		this.minIntervalMs = options.minIntervalMs ?? 100;
		this.color = options.color ?? !process.env['NO_COLOR'];
		this.now = options.now ?? (() => performance.now());
	}

	/** Number of redraws so far (for tests and diagnostics). */
	get redraws(): number {
		return this.drawCount;
	}

	onEvent(event: RunEvent): void {
		if (this.closed) return;
		const next = reduceRun(this.state, event);
		if (next === this.state) return;
		this.state = next;
		const line = formatEventLine(event, next);
		if (line !== null) this.log.push(line);
		this.schedule();
	}

	/** Draws the final state, leaves it on screen and restores the cursor. Idempotent. */
	close(): void {
		if (this.closed) return;
		this.closed = true;
		if (this.timer !== null) {
			clearTimeout(this.timer);
			this.timer = null;
		}
		if (this.state.runId !== null || this.log.length > 0) this.draw();
		if (this.cursorHidden) this.stream.write(SHOW_CURSOR);
		this.cursorHidden = false;
		this.drawnLines = 0;
	}

	/** Erases the table so a prompt can use the terminal; events keep folding in. */
	pause(): void {
		if (this.closed || this.paused) return;
		this.paused = true;
		if (this.timer !== null) {
			clearTimeout(this.timer);
			this.timer = null;
		}
		if (this.drawnLines > 0) this.stream.write(`\u001b[${this.drawnLines}A\r${CLEAR_BELOW}`);
		if (this.cursorHidden) this.stream.write(SHOW_CURSOR);
		this.cursorHidden = false;
		this.drawnLines = 0;
	}

	resume(): void {
		if (this.closed || !this.paused) return;
		this.paused = false;
		this.draw();
	}

	private schedule(): void {
		if (this.timer !== null || this.paused) return;
		const wait = this.lastDrawAt + this.minIntervalMs - this.now();
		if (wait <= 0) {
			this.draw();
			return;
		}
		this.timer = setTimeout(() => {
			this.timer = null;
			if (!this.closed) this.draw();
		}, wait);
		this.timer.unref();
	}

	private draw(): void {
		const columns = this.stream.columns && this.stream.columns > 1 ? this.stream.columns : 80;
		// One column spare: writing into the last column makes some terminals wrap early.
		const width = columns - 1;
		let out = '';
		if (!this.cursorHidden) {
			out += HIDE_CURSOR;
			this.cursorHidden = true;
		}
		if (this.drawnLines > 0) out += `\u001b[${this.drawnLines}A\r`;
		out += CLEAR_BELOW;
		for (const line of this.log) out += `${truncateToWidth(sanitizeTerminalText(line), width)}\n`;
		this.log = [];
		const rows = this.stream.rows && this.stream.rows > 4 ? this.stream.rows - 1 : undefined;
		const table = renderStatusTable(this.state, { width, maxLines: rows, color: this.color });
		out += `${table.join('\n')}\n`;
		this.drawnLines = table.length;
		this.stream.write(out);
		this.lastDrawAt = this.now();
		this.drawCount++;
	}
}
