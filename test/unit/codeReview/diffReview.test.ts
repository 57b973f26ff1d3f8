import { describe, expect, it } from 'vitest';
import { countAgreement, sameFinding } from '../../../src/core/codeReview/agreement.js';
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
			{ path: 'src/a.ts', line: 3, endLine: 3, severity: 'error', message: 'eval of input' },
		]);
		expect(b[0]!.path).toBe('src/b.ts');
		expect(sameFinding(a[0]!, b[0]!)).toBe(false);
		expect(sameFinding(a[0]!, { ...b[0]!, path: 'src/a.ts' })).toBe(true);
		const agreed = countAgreement({
			winner: 'x',
			final: a,
			answers: [
				{ agentId: 'x', findings: a },
				{ agentId: 'y', findings: b },
			],
		});
		expect(agreed.map((f) => [f.path, f.agents])).toEqual([['src/a.ts', ['x']]]);
	});

	it('reviewOutcome: the winner’s findings with every agent that raised them, out of every agent that answered', () => {
		const finding =
			'[{"path": "a.ts", "line": 2, "severity": "warning", "message": "Division by zero when n is 0"}]';
		const outcome = reviewOutcome({
			winner: { agentId: 'one', label: 'agent1.1' },
			finalAnswer: block(finding),
			answers: [
				{ agentId: 'one', label: 'agent1.1', content: block(finding) },
				{ agentId: 'two', label: 'agent2.1', content: block(finding) },
				{ agentId: 'three', label: 'agent3.1', content: 'Looks fine.' },
			],
		} as Parameters<typeof reviewOutcome>[0]);
		expect(outcome.of).toBe(3);
		expect(outcome.findings).toEqual([
			expect.objectContaining({ path: 'a.ts', line: 2, agents: ['one', 'two'], inWinner: true }),
		]);
	});

	it('asks for findings with paths, names what is reviewed, and forbids edits', () => {
		expect(diffReviewQuestion('main..HEAD')).toContain('from `main` to `HEAD` (`git diff main..HEAD`)');
		expect(diffReviewQuestion('staged')).toContain('`git diff --cached`');
		expect(diffReviewQuestion('working-tree')).toMatch(/"path": "src\/app\.ts"/);
		expect(diffReviewQuestion('working-tree')).toContain('do not change any file');
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
