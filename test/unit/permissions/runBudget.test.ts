import { describe, expect, it } from 'vitest';
import { budgetCaps, lowerCap } from '../../../src/core/permissions/runBudget.js';
import { estimateCost, formatUsd } from '../../../src/core/run/costEstimate.js';

describe('the lower cap wins', () => {
	it('names where the cap that applies was set', () => {
		const config = { limit: 0.5, source: 'permissions.max_cost_usd' };
		expect(lowerCap([config, { limit: 0.1, source: '--max-cost' }])).toEqual({
			limit: 0.1,
			source: '--max-cost',
		});
		expect(lowerCap([config, { limit: 2, source: '--max-cost' }])).toEqual(config);
	});

	it('ignores unset, zero, negative and non-finite caps', () => {
		expect(
			lowerCap([
				{ limit: null, source: 'a' },
				{ limit: undefined, source: 'b' },
			]),
		).toBeNull();
		expect(
			lowerCap([
				{ limit: 0, source: 'a' },
				{ limit: -1, source: 'b' },
			]),
		).toBeNull();
		expect(
			lowerCap([
				{ limit: Number.NaN, source: 'a' },
				{ limit: 3, source: 'b' },
			]),
		).toEqual({
			limit: 3,
			source: 'b',
		});
	});

	it('a run with neither cap has no budget', () => {
		expect(budgetCaps([{ limit: null, source: 'config' }], [])).toBeNull();
		expect(budgetCaps([], [{ limit: 5_000, source: '--max-tokens' }])).toEqual({
			maxCostUsd: null,
			maxTokens: { limit: 5_000, source: '--max-tokens' },
		});
	});
});

describe('the cost estimate', () => {
	it('input size × agents × price, with a bounded output guess, three calls each', () => {
		const estimate = estimateCost({
			questionChars: 400,
			attachmentChars: 39_600,
			agents: [
				{ id: 'a', price: { input: 2, output: 10 } },
				// Its own max_tokens (500) bounds the output guess; its system message is sent too.
				{ id: 'b', price: { input: 1, output: 4 }, maxOutputTokens: 500, systemChars: 4_000 },
				{ id: 'local' },
			],
		});
		expect(estimate.inputTokens).toBe(10_000);
		expect(estimate.callsPerAgent).toBe(3);
		// a: 3 × (10,000 × $2 + 2,000 × $10) / 1M = $0.12; b: 3 × (11,000 × $1 + 500 × $4) / 1M = $0.039.
		expect(estimate.perAgent).toEqual([
			{ id: 'a', usd: expect.closeTo(0.12, 9) },
			{ id: 'b', usd: expect.closeTo(0.039, 9) },
		]);
		expect(estimate.usd).toBeCloseTo(0.159, 9);
		expect(estimate.unpriced).toEqual(['local']);
		expect(estimate.basis).toBe(
			'10,000 input tokens (question and attachments, 4 characters a token) and up to 2,000 output tokens per call, 2 priced agents × 3 calls each (answer, vote, presentation), at list prices; no list price for local (not counted)',
		);
	});

	it('a single agent makes one call', () => {
		const estimate = estimateCost({
			questionChars: 4,
			attachmentChars: 0,
			agents: [{ id: 'solo', price: { input: 1, output: 1 } }],
		});
		expect(estimate.callsPerAgent).toBe(1);
		expect(estimate.usd).toBeCloseTo((1 + 2_000) / 1_000_000, 12);
		expect(formatUsd(estimate.usd)).toBe('$0.0020');
		expect(formatUsd(12.345)).toBe('$12.35');
	});
});
