import { describe, expect, it } from 'vitest';
import { mergeFindings, sameFinding } from '../../../src/core/codeReview/agreement.js';
import { diffReviewQuestion } from '../../../src/core/codeReview/diffReviewPrompt.js';
import { parseFindings } from '../../../src/core/codeReview/findings.js';
import { reviewOutcome } from '../../../src/core/codeReview/reviewOutcome.js';
import { commitRange } from '../../../src/core/context/attachment.js';

const block = (json: string) => `Review.\n\n\`\`\`findings\n${json}\n\`\`\`\n`;

describe('a review of a diff (several files)', () => {
	it('reads each finding’s path (path or file), and counts the same line of two files as two findings', () => {
		const a = parseFindings(
			block('[{"path": "src/a.ts", "line": 3, "severity": "error", "message": "eval of input"}]'),
		);
		const b = parseFindings(
			block('[{"file": "src/b.ts", "line": 3, "severity": "error", "message": "eval of input"}]'),
		);
		expect(a).toEqual([
			{
				path: 'src/a.ts',
				line: 3,
				endLine: 3,
				severity: 'high',
				title: 'eval of input',
				message: 'eval of input',
			},
		]);
		expect(b[0]!.path).toBe('src/b.ts');
		expect(sameFinding(a[0]!, b[0]!)).toBe(false);
		expect(sameFinding(a[0]!, { ...b[0]!, path: 'src/a.ts' })).toBe(true);
		const merged = mergeFindings({
			winner: 'x',
			final: a,
			answers: [
				{ agentId: 'x', findings: a },
				{ agentId: 'y', findings: b },
			],
		});
		expect(merged.map((f) => [f.path, f.agents])).toEqual([
			['src/a.ts', ['x']],
			['src/b.ts', ['y']],
		]);
	});

	it('reviewOutcome: findings with every agent that raised them, out of every agent that answered; one agent’s apart', () => {
		const finding =
			'[{"path": "a.ts", "line": 2, "severity": "warning", "message": "Division by zero when n is 0"}]';
		const naming = '[{"path": "a.ts", "line": 9, "severity": "high", "message": "The name n says nothing"}]';
		const outcome = reviewOutcome({
			winner: { agentId: 'one', label: 'agent1.1' },
			finalAnswer: block(finding),
			answers: [
				{ agentId: 'one', label: 'agent1.1', content: block(finding) },
				{ agentId: 'two', label: 'agent2.1', content: block(finding) },
				{ agentId: 'three', label: 'agent3.1', content: `Looks fine. ${block(naming)}` },
			],
		} as Parameters<typeof reviewOutcome>[0]);
		expect(outcome.of).toBe(3);
		expect(outcome.agreed).toEqual([
			expect.objectContaining({ path: 'a.ts', line: 2, agents: ['one', 'two'], inWinner: true }),
		]);
		expect(outcome.single).toEqual([
			expect.objectContaining({ path: 'a.ts', line: 9, agents: ['three'], inWinner: false }),
		]);
		// The gate reads the agreed findings only: the single high finding does not raise it.
		expect(outcome.highestAgreed).toBe('medium');
	});

	it('asks for a review, not a rewrite: findings with paths, severity, title; the diff is not in it', () => {
		expect(diffReviewQuestion('main..HEAD')).toContain('from `main` to `HEAD` (`git diff main..HEAD`)');
		expect(diffReviewQuestion('staged')).toContain('`git diff --cached`');
		const question = diffReviewQuestion('working-tree');
		expect(question).toContain('This is a code review, not a rewrite');
		expect(question).toContain('Do not restyle, restructure or rewrite the changes.');
		expect(question).toContain('`severity` is `high`, `medium`, `low`');
		const example = /```findings\n(.*)\n```/.exec(question)![1]!;
		expect(parseFindings(`\`\`\`findings\n${example}\n\`\`\``)).toEqual([
			{
				path: 'src/app.ts',
				line: 12,
				endLine: 14,
				severity: 'medium',
				title: 'A few words naming the problem',
				message: 'What is wrong and why, in one or two sentences.',
			},
		]);
		// The diff travels once, as the run's attachment in the shared prefix, not in the question.
		expect(question).not.toMatch(/^[+-]{3} [ab]\//m);
	});
});

describe('commitRange', () => {
	it('takes two plain revisions and refuses options, three dots, more parts and shell text', () => {
		for (const ok of ['main..HEAD', 'HEAD~3..HEAD', 'v1.2.0..origin/main', 'a1b2c3d..HEAD^2']) {
			expect(commitRange(ok), ok).toBe(ok);
		}
		for (const bad of [
			'HEAD',
			'main...HEAD',
			'--output=x..HEAD',
			'HEAD..-p',
			'a..b..c',
			'..HEAD',
			'HEAD..',
			'a b..c',
			'HEAD..$(x)',
			'HEAD@{1}..HEAD',
			':/x..HEAD',
		]) {
			expect(commitRange(bad), bad).toBeUndefined();
		}
	});
});
