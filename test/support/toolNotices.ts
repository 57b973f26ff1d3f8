import type { RunEvent } from '../../src/contract/runEvents.js';

/** What the run's tools and trust said (`notice` events from the tools), in order. */
export function toolNotices(events: readonly RunEvent[]): string[] {
	return events.flatMap((event) =>
		event.type === 'notice' && event.source === 'tools' ? [event.message] : [],
	);
}
