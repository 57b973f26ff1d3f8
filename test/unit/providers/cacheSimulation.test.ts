import { describe, expect, it } from 'vitest';
import { simulateCache } from '../../servers/cacheSimulation.js';
import type { PromptSegment } from '../../servers/types.js';

/** Segments of `chars` characters each; `*` marks a breakpoint: ['400', '400*'] */
const segments = (...specs: string[]): PromptSegment[] =>
	specs.map((spec, i) => ({
		text: String(i).padEnd(Number(spec.replace('*', '')), '.'),
		breakpoint: spec.endsWith('*'),
	}));

describe('loopback prompt-cache simulation', () => {
	it('OpenAI: caches a shared prefix of at least 1,024 tokens, in 128-token steps', () => {
		const earlier = segments('4000', '1000', '800');
		const now = [...segments('4000', '1000'), { text: 'changed', breakpoint: false }];
		// 5,000 shared characters = 1,250 tokens, rounded down to 1,152.
		expect(simulateCache('chat', now, [earlier])).toEqual({ input: 1252, cachedInput: 1152, cacheWrite: 0 });
		expect(simulateCache('responses', now, [])).toMatchObject({ cachedInput: 0 });
		// 4,000 shared characters = 1,000 tokens: under the minimum.
		const short = [...segments('4000'), { text: 'other', breakpoint: false }];
		expect(simulateCache('chat', short, [earlier]).cachedInput).toBe(0);
	});

	it('Gemini: the shared prefix, not rounded', () => {
		const earlier = segments('4000', '1000', '800');
		const now = [...segments('4000', '1000'), { text: 'x', breakpoint: false }];
		expect(simulateCache('gemini', now, [earlier]).cachedInput).toBe(1250);
	});

	it('Anthropic: reads up to a breakpoint an earlier request wrote, writes up to its own last one', () => {
		const earlier = segments('400*', '800', '400*');
		const now = [...segments('400*', '800'), { text: 'new'.padEnd(400, '.'), breakpoint: true }];
		// The prefix up to segment 0 was written by the earlier request; segment 2 differs.
		expect(simulateCache('anthropic', now, [earlier])).toEqual({
			input: 400,
			cachedInput: 100,
			cacheWrite: 300,
		});
		// No breakpoint in this request: nothing read or written, whatever is shared.
		expect(simulateCache('anthropic', segments('400', '800', '400'), [earlier])).toEqual({
			input: 400,
			cachedInput: 0,
			cacheWrite: 0,
		});
		// The first request writes everything up to its last breakpoint.
		expect(simulateCache('anthropic', earlier, [])).toEqual({ input: 400, cachedInput: 0, cacheWrite: 400 });
	});
});
