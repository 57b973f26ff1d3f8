import { describe, expect, it } from 'vitest';
import { reduceRunEvents } from '../../../src/protocol/reduceRun.js';
import { initialRunState } from '../../../src/protocol/runState.js';
import { allEventTypes, oneEventOfEachType } from './eventFixtures.js';
import { convergenceEvents } from './scenarios.js';

const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('JSON round trip', () => {
	const events = oneEventOfEachType();

	it('the fixture has exactly one event of every type', () => {
		expect(events.map((e) => e.type)).toEqual(allEventTypes);
		expect(new Set(allEventTypes).size).toBe(allEventTypes.length);
	});

	for (const event of events) {
		it(`${event.type} survives JSON unchanged`, () => {
			expect(roundTrip(event)).toStrictEqual(event);
		});
	}

	it('folding round-tripped events gives the same state, and the state itself is plain JSON', () => {
		for (const list of [events, convergenceEvents()]) {
			const state = reduceRunEvents(initialRunState(), list);
			expect(reduceRunEvents(initialRunState(), roundTrip(list))).toStrictEqual(state);
			expect(roundTrip(state)).toStrictEqual(state);
		}
	});
});
