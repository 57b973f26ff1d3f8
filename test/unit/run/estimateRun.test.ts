/** The cost estimate counts what every first message carries: the question, attachments and project instructions. */
import { describe, expect, it } from 'vitest';
import type { AgentSpec } from '../../../src/core/agents/types.js';
import { estimateRun } from '../../../src/core/run/runBudgetOf.js';

const agent = { id: 'a', price: { input: 1, output: 1 } } as unknown as AgentSpec;

describe('estimateRun', () => {
	it('adds the instructions’ characters to every call’s input', () => {
		const without = estimateRun('q'.repeat(400), [], [agent]);
		const withInstructions = estimateRun('q'.repeat(400), [], [agent], 4000);
		expect(without.inputTokens).toBe(100);
		expect(withInstructions.inputTokens).toBe(1100);
		expect(withInstructions.usd).toBeGreaterThan(without.usd);
	});
});
