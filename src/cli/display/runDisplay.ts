/**
 * What the CLI feeds its live progress display (stderr, docs/cli.md).
 */
import type { RunEvent } from '../../contract/runEvents.js';

/** The part of a `NodeJS.WriteStream` the displays use (a fake in tests). */
export interface DisplayStream {
	write(chunk: string): unknown;
	readonly isTTY?: boolean;
	/** Terminal width; undefined when not a terminal. */
	readonly columns?: number;
	readonly rows?: number;
}

/** A progress renderer. `close` draws the final state and leaves the terminal as it found it. */
export interface RunDisplay {
	onEvent(event: RunEvent): void;
	close(): void;
	/** Steps aside for a prompt (a live table is erased and not redrawn until `resume`). */
	pause?(): void;
	resume?(): void;
}
