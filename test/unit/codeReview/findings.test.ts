import { describe, expect, it } from 'vitest';
import { mergeFindings, messageSimilarity, sameFinding } from '../../../src/core/codeReview/agreement.js';
import { type Finding, parseFindings } from '../../../src/core/codeReview/findings.js';
import { reviewQuestion } from '../../../src/core/codeReview/reviewPrompt.js';

const block = (json: string, tag = 'findings') => `Here is my review.\n\n\`\`\`${tag}\n${json}\n\`\`\`\n`;

describe('parseFindings', () => {
	it('reads the findings block, defaulting endLine and mapping severity words', () => {
		const text = block(
			'[{"line": 4, "severity": "error", "message": "Divides by zero when n is 0."}, {"line": "7", "end_line": 9, "severity": "nit", "message": "Name is unclear."}, {"line": 10, "message": "No severity."}]',
		);
		expect(parseFindings(text)).toEqual([
			{
				line: 4,
				endLine: 4,
				severity: 'high',
				title: 'Divides by zero when n is 0',
				message: 'Divides by zero when n is 0.',
			},
			{ line: 7, endLine: 9, severity: 'low', title: 'Name is unclear', message: 'Name is unclear.' },
			{ line: 10, endLine: 10, severity: 'medium', title: 'No severity', message: 'No severity.' },
		]);
	});

	it('accepts {findings: [...]} and json blocks of findings, and several blocks', () => {
		const text =
			block('{"findings": [{"line": 1, "severity": "info", "message": "a"}]}') +
			block('[{"line": 2, "severity": "warning", "message": "b"}]', 'json');
		expect(parseFindings(text).map((f) => f.message)).toEqual(['a', 'b']);
	});

	it('drops malformed entries and ignores broken JSON, other json blocks and plain text', () => {
		expect(
			parseFindings(block('[{"line": 0, "message": "x"}, {"line": 2}, {"line": 3, "message": "ok"}]')).map(
				(f) => f.line,
			),
		).toEqual([3]);
		expect(parseFindings(block('[{"line": 1, "message": "unterminated"'))).toEqual([]);
		expect(parseFindings(block('{"name": "package"}', 'json'))).toEqual([]);
		expect(parseFindings('No problems found on line 3.')).toEqual([]);
	});

	it('never reports an end before the start', () => {
		expect(parseFindings(block('[{"line": 8, "endLine": 3, "message": "x"}]'))[0]).toMatchObject({
			line: 8,
			endLine: 8,
		});
	});
});

const f = (
	line: number,
	message: string,
	severity: Finding['severity'] = 'medium',
	endLine = line,
): Finding => ({ line, endLine, severity, title: message, message });

describe('agreement', () => {
	it('matches findings on nearby lines with similar wording', () => {
		expect(
			messageSimilarity('Divides by zero when count is 0', 'Possible division by zero: count can be 0'),
		).toBeGreaterThanOrEqual(0.3);
		expect(
			sameFinding(f(4, 'Divides by zero when count is zero'), f(5, 'count may be zero: divides by zero')),
		).toBe(true);
		expect(
			sameFinding(f(4, 'Divides by zero when count is zero'), f(9, 'divides by zero when count is zero')),
		).toBe(false);
		expect(sameFinding(f(4, 'Divides by zero'), f(4, 'Variable name is unclear'))).toBe(false);
		expect(sameFinding(f(4, 'Unused import of lodash'), f(4, 'Timeout is never cleared'))).toBe(false);
		expect(
			sameFinding(f(4, 'Null check missing for user input'), f(4, 'input may be null; guard against it')),
		).toBe(true);
	});

	it('merges each concern across agents, the winner first, and keeps what one agent raised', () => {
		const merged = mergeFindings({
			winner: 'alice',
			final: [f(4, 'Divides by zero when count is zero', 'high'), f(12, 'Unused variable total', 'low')],
			answers: [
				{ agentId: 'alice', findings: [f(4, 'Division by zero if count is zero', 'high')] },
				{
					agentId: 'bob',
					findings: [
						f(5, 'count can be zero so this divides by zero', 'high'),
						f(20, 'Missing await on save()'),
					],
				},
				{
					agentId: 'carol',
					findings: [
						f(4, 'divides by zero when count is zero', 'high'),
						f(21, 'save() is not awaited; missing await'),
					],
				},
			],
		});
		expect(merged.map((a) => [a.line, a.agents, a.inWinner])).toEqual([
			[4, ['alice', 'bob', 'carol'], true],
			[12, ['alice'], true],
			[20, ['bob', 'carol'], false],
		]);
		expect(merged[0]!.reasons.map((reason) => [reason.agentId, reason.line])).toEqual([
			['alice', 4],
			['bob', 5],
			['carol', 4],
		]);
	});

	it('counts a concern the winning review repeats from its answer once', () => {
		const merged = mergeFindings({
			winner: 'w',
			final: [f(3, 'Off by one in the loop bound'), f(3, 'Loop bound is off by one')],
			answers: [
				{ agentId: 'w', findings: [f(3, 'The loop bound is off by one')] },
				{ agentId: 'x', findings: [f(30, 'Unrelated issue')] },
			],
		});
		expect(merged.map((a) => [a.line, a.agents])).toEqual([
			[3, ['w']],
			[30, ['x']],
		]);
	});
});

describe('reviewQuestion', () => {
	const lines = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`);

	it('numbers the selection and its context and asks for a findings block', () => {
		const question = reviewQuestion({
			path: 'src/app.ts',
			languageId: 'typescript',
			lines,
			startLine: 30,
			endLine: 32,
			context: 2,
		});
		expect(question).toContain('`src/app.ts` (lines 30-32)');
		expect(question).toContain('```findings');
		expect(question).toContain(
			'Context before (lines 28-29):\n```typescript\n28 | line 28\n29 | line 29\n```',
		);
		expect(question).toContain(
			'Selected code (lines 30-32):\n```typescript\n30 | line 30\n31 | line 31\n32 | line 32\n```',
		);
		expect(question).toContain('Context after (lines 33-34):');
	});

	it('stops the context at the file edges', () => {
		const question = reviewQuestion({
			path: 'a.ts',
			languageId: 'typescript',
			lines,
			startLine: 1,
			endLine: 2,
		});
		expect(question).not.toContain('Context before');
		expect(question).toContain('Context after (lines 3-22)');
	});
});
