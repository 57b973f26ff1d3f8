/**
 * Reads a run's `events.jsonl` back (replaying a past run in the panel, tests).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunEvent } from '../../contract/runEvents.js';

/**
 * Parses every complete event line. A run killed mid-write leaves a truncated last line, and an
 * unreadable line elsewhere should not hide the rest of the run: both are skipped.
 */
export async function readRunEvents(runDir: string): Promise<RunEvent[]> {
	const text = await readFile(join(runDir, 'events.jsonl'), 'utf8');
	return parseRunEventLines(text);
}

/** The parsing half of `readRunEvents`, for text already in memory. */
export function parseRunEventLines(text: string): RunEvent[] {
	const events: RunEvent[] = [];
	for (const line of text.split('\n')) {
		if (line.trim() === '') continue;
		const event = parseEventLine(line);
		if (event) events.push(event);
	}
	return events;
}

/** One line as a RunEvent, or null when it is not JSON or lacks the event envelope. */
export function parseEventLine(line: string): RunEvent | null {
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch {
		return null;
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
	const { type, seq, runId, t } = value as Record<string, unknown>;
	const envelope = typeof type === 'string' && typeof seq === 'number' && typeof runId === 'string';
	return envelope && typeof t === 'number' ? (value as RunEvent) : null;
}
