import type { SteerRecord } from '../../contract/runEvents.js';
import type { SteerFeed } from '../agents/steering.js';

/** What the user sends a running team (`Orchestrator.steer`). */
export interface SteerMessage {
	readonly text: string;
	/** The config id of the one agent it is for; absent: every live agent. */
	readonly agentId?: string;
	/** True: the votes already cast stand; default: the targeted agents' votes are taken away. */
	readonly noteOnly?: boolean;
}

export type SteerOutcome =
	| { readonly ok: true; readonly id: number; readonly agents: readonly string[] }
	/** Said to the user as it is. */
	| { readonly ok: false; readonly reason: string };

/** A message longer than this is refused: a steer message is a remark, attachments carry documents. */
export const maxSteerChars = 8_000;

/**
 * A run takes at most this many messages and characters of them: each goes into every later
 * request of its agents and stays through compaction, so a flood (an inbox anyone can write to, a
 * script gone wrong) would otherwise grow every request and the run's cost without bound
 * (test/unit/orchestrator/steerFlood.test.ts).
 */
export const maxSteerMessagesPerRun = 64;
export const maxSteerCharsPerRun = 32_000;

/**
 * The run's messages from the user, in order, each with the agents it is for. Turns read it
 * through `SteerFeed`; the orchestrator alone adds to it. It outlives attempts: a restarted
 * attempt's agents get every message again.
 */
export class SteerInbox implements SteerFeed {
	private readonly notes: { readonly record: SteerRecord; readonly agents: ReadonlySet<string> }[] = [];

	get records(): SteerRecord[] {
		return this.notes.map((note) => note.record);
	}

	/** Checks the text against the message's and the run's bounds; undefined when it may be sent, else why not. */
	problem(text: string): string | undefined {
		if (text.trim() === '') return 'The message is empty.';
		if (text.length > maxSteerChars) {
			return `The message is too long (${text.length} characters; at most ${maxSteerChars}).`;
		}
		if (this.notes.length >= maxSteerMessagesPerRun) {
			return `The team has had ${maxSteerMessagesPerRun} messages in this run, the most it takes.`;
		}
		const sent = this.notes.reduce((sum, note) => sum + note.record.text.length, 0);
		if (sent + text.trim().length > maxSteerCharsPerRun) {
			const total = maxSteerCharsPerRun.toLocaleString('en-US');
			return `This run's messages would pass ${total} characters in all (${sent.toLocaleString('en-US')} sent so far), the most it takes.`;
		}
		return undefined;
	}

	add(message: SteerMessage, agents: readonly string[], t: number): SteerRecord {
		const record: SteerRecord = {
			id: this.notes.length + 1,
			text: message.text.trim(),
			...(message.agentId === undefined ? {} : { targetAgentId: message.agentId }),
			noteOnly: message.noteOnly === true,
			t,
		};
		this.notes.push({ record, agents: new Set(agents) });
		return record;
	}

	since(agentId: string, after: number): readonly SteerRecord[] {
		return this.notes
			.filter((note) => note.record.id > after && note.agents.has(agentId))
			.map((n) => n.record);
	}

	lastInvalidating(agentId: string): number {
		const last = this.notes.findLast((note) => !note.record.noteOnly && note.agents.has(agentId));
		return last?.record.id ?? 0;
	}
}
