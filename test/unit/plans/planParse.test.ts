import { describe, expect, it } from 'vitest';
import { planQuestion } from '../../../src/core/plans/planPrompt.js';
import { parsePlanAnswer } from '../../../src/core/plans/parsePlan.js';
import { agreementWords, planAgreement } from '../../../src/core/plans/planAgreement.js';

const planA = `# Plan: Add a verbose flag

1. **Parse the --verbose flag**
   Files: \`src/args.ts\`
   Risk: low — only the parser changes
   Verify: \`npm test -- args\`
   Add a boolean option to the parser and its usage text.

2. **Print debug lines when verbose**
   Files: \`src/log.ts\`, \`src/main.ts\`
   Risk: medium — output other tools read
   Verify: run with --verbose and see the lines
   Route debug output through the logger when the flag is set.

3. **Document the flag in the README**
   Files: \`README.md\`
   Risk: low
   Verify: read it
   A line in the options table.
`;

const planB = `Here is my plan.

### 1. Add the verbose option to the argument parser
Files: src/args.ts
Risk: low
Verify: unit test for args
Parse the flag.

### 2. Emit debug lines through the logger when verbose is on
- **Files:** \`src/log.ts\`
- **Risk:** medium
- **Verify:** manual run
Wire the logger.
`;

const planC = `# Plan: Something else

1. **Rewrite the build in Rust**
   Files: \`build.rs\`
   Risk: high — everything
   Verify: cargo build
`;

describe('planQuestion', () => {
	it('names the task, the depth and the format', () => {
		const text = planQuestion('Add a --verbose flag', 'deep');
		expect(text).toContain('<TASK>\nAdd a --verbose flag\n</TASK>');
		expect(text).toContain('10 to 20 steps');
		expect(text).toContain('1. **<what the step does, in a few words>**');
		expect(planQuestion('x', 'shallow')).toContain('3 to 5 steps');
	});
});

describe('parsePlanAnswer', () => {
	it('reads numbered bold steps with their files, risk, check and details', () => {
		const plan = parsePlanAnswer(planA);
		expect(plan.title).toBe('Add a verbose flag');
		expect(plan.steps.map((s) => s.title)).toEqual([
			'Parse the --verbose flag',
			'Print debug lines when verbose',
			'Document the flag in the README',
		]);
		expect(plan.steps[1]).toEqual({
			title: 'Print debug lines when verbose',
			files: ['src/log.ts', 'src/main.ts'],
			risk: 'medium',
			riskNote: 'output other tools read',
			verify: 'run with --verbose and see the lines',
			details: 'Route debug output through the logger when the flag is set.',
		});
	});

	it('reads heading steps and bulleted bold fields, without a title', () => {
		const plan = parsePlanAnswer(planB);
		expect(plan.title).toBe('Plan');
		expect(plan.steps).toHaveLength(2);
		expect(plan.steps[0]!.files).toEqual(['src/args.ts']);
		expect(plan.steps[1]).toMatchObject({ files: ['src/log.ts'], risk: 'medium', verify: 'manual run' });
	});

	it('keeps a nested numbered list in the details, and cuts what is over the limits', () => {
		const nested = parsePlanAnswer('1. **One**\n   Details:\n     1. first\n     2. second\n2. **Two**\n');
		expect(nested.steps.map((s) => s.title)).toEqual(['One', 'Two']);
		const many = parsePlanAnswer(Array.from({ length: 150 }, (_, i) => `${i + 1}. **Step ${i}**`).join('\n'));
		expect(many.steps).toHaveLength(100);
	});

	it('takes linear time on a hostile answer', () => {
		const hostile = `1. **x**\n${'   Files: ' + '`a`, '.repeat(20_000)}\n${'#'.repeat(50_000)}\n${' \t'.repeat(100_000)}`;
		const started = performance.now();
		const plan = parsePlanAnswer(hostile);
		expect(performance.now() - started).toBeLessThan(2_000);
		expect(plan.steps[0]!.files.length).toBeLessThanOrEqual(50);
	});
});

describe('planAgreement', () => {
	const answers = [
		{ agentId: 'a', label: 'agent1.1', content: planA },
		{ agentId: 'b', label: 'agent2.1', content: planB },
		{ agentId: 'c', label: 'agent3.1', content: planC },
	];

	it("marks each of the winner's steps with the agents whose plans have it", () => {
		const agreed = planAgreement({
			winner: { agentId: 'a', label: 'agent1.1' },
			answers,
			finalAnswer: planA,
		});
		expect(agreed.of).toBe(3);
		expect(agreed.steps.map((s) => s.agents)).toEqual([['a', 'b'], ['a', 'b'], ['a']]);
		expect(agreed.others.map((o) => o.agentId)).toEqual(['b', 'c']);
		expect(agreed.others[1]!.plan.steps[0]!.title).toBe('Rewrite the build in Rust');
	});

	it("uses the winner's latest answer when the final answer has no steps", () => {
		const agreed = planAgreement({
			winner: { agentId: 'b', label: 'agent2.1' },
			answers,
			finalAnswer: 'I agree with my plan.',
		});
		expect(agreed.steps).toHaveLength(2);
		expect(agreed.steps[0]!.agents).toEqual(['b', 'a']);
	});

	it('says the agreement in words', () => {
		expect(agreementWords(3, 3)).toBe('3 of 3');
		expect(agreementWords(2, 3)).toBe('2 of 3');
		expect(agreementWords(1, 3)).toBe('only the winner');
		expect(agreementWords(1, 1)).toBe('1 of 1');
	});
});
