/**
 * The run's events with secrets removed, for every consumer at once (the run log, the CLI's
 * display and --json, the panel). Streamed deltas are the hard part: a key split across two
 * `text-delta`s is in neither. So each agent's stream keeps back the tail that could be the start
 * of a secret (at most `longest secret − 1` characters, usually none) and prepends it to the
 * agent's next delta; any other event of that agent, or the run's end, releases it first.
 * Released tails become events of their own, so the output is numbered afresh (`seq` stays
 * monotonic for the reducer; `t` is kept).
 */
import type { RunEvent, RunEventOf } from '../../contract/runEvents.js';
import type { Redactor } from './redactor.js';

type Delta = RunEventOf<'text-delta'> | RunEventOf<'reasoning-delta'>;

export class RedactedEvents {
	private seq = 0;
	/** Per agent: a delta whose text is the part kept back. */
	private readonly held = new Map<string, Delta>();
	private readonly firstChars: ReadonlySet<string>;

	constructor(private readonly redactor: Redactor) {
		this.firstChars = new Set(redactor.needles.map((needle) => needle[0]!));
	}

	/** The events to pass on for one orchestrator event, in order. */
	push(event: RunEvent): RunEvent[] {
		const out: RunEvent[] = [];
		if (event.type === 'text-delta' || event.type === 'reasoning-delta') {
			let text = event.text;
			const pending = this.held.get(event.agentId);
			if (pending !== undefined) {
				this.held.delete(event.agentId);
				if (pending.type === event.type && pending.phase === event.phase) text = pending.text + text;
				else out.push(this.release(pending));
			}
			const cut = this.safeLength(text);
			if (cut > 0) out.push(this.stamp({ ...event, text: this.redactor.text(text.slice(0, cut)) }));
			if (cut < text.length) this.held.set(event.agentId, { ...event, text: text.slice(cut) });
			return out;
		}
		const agentId = 'agentId' in event ? event.agentId : undefined;
		for (const [id, pending] of this.held) {
			if (agentId !== undefined && id !== agentId) continue;
			this.held.delete(id);
			out.push(this.release(pending));
		}
		out.push(this.stamp(this.redactor.json(event)));
		return out;
	}

	/** Whatever is still kept back (call when the run's events end). */
	end(): RunEvent[] {
		const out = [...this.held.values()].map((pending) => this.release(pending));
		this.held.clear();
		return out;
	}

	private release(pending: Delta): RunEvent {
		return this.stamp({ ...pending, text: this.redactor.text(pending.text) });
	}

	private stamp(event: RunEvent): RunEvent {
		return { ...event, seq: this.seq++ };
	}

	/**
	 * How much of `text` can go out now: everything before the longest tail that is a proper
	 * prefix of a secret, moved past any whole secret that would straddle that cut.
	 */
	private safeLength(text: string): number {
		const { needles, longest } = this.redactor;
		if (longest < 2) return text.length;
		let cut = this.heldStart(text, Math.max(0, text.length - longest + 1));
		while (cut < text.length) {
			let end = cut;
			for (const needle of needles) {
				for (
					let at = text.indexOf(needle, Math.max(0, cut - needle.length + 1));
					at !== -1 && at < cut;
					at = text.indexOf(needle, at + 1)
				) {
					end = Math.max(end, at + needle.length);
				}
			}
			if (end === cut) return cut;
			cut = this.heldStart(text, end);
		}
		return cut;
	}

	/** The first position at or after `from` where the rest of `text` begins a secret (`text.length` if none). */
	private heldStart(text: string, from: number): number {
		for (let start = from; start < text.length; start++) {
			if (!this.firstChars.has(text[start]!)) continue;
			const rest = text.length - start;
			if (
				this.redactor.needles.some((needle) => needle.length > rest && needle.startsWith(text.slice(start)))
			) {
				return start;
			}
		}
		return text.length;
	}
}

/** The orchestrator's events, redacted and renumbered (see `RedactedEvents`). */
export async function* redactEvents(
	events: AsyncIterable<RunEvent>,
	redactor: Redactor,
): AsyncGenerator<RunEvent> {
	const stream = new RedactedEvents(redactor);
	for await (const event of events) yield* stream.push(event);
	yield* stream.end();
}
