import { describe, expect, it } from 'vitest';
import { mergeFindings, messageSimilarity, sameFinding } from '../../../src/core/codeReview/agreement.js';
import type { Finding } from '../../../src/core/codeReview/findings.js';

const at = (
	path: string,
	line: number,
	endLine: number,
	title: string,
	message: string,
	severity: Finding['severity'] = 'medium',
): Finding => ({ path, line, endLine, severity, title, message });

describe('merging findings across agents by location and meaning', () => {
	const sqlA = at(
		'src/db.ts',
		14,
		16,
		'SQL injection',
		'The user id is concatenated into the query string, so a crafted id runs arbitrary SQL.',
		'high',
	);
	const sqlB = at(
		'src/db.ts',
		15,
		15,
		'Unsanitised input in query',
		'Building the SQL query by concatenating userId allows injection; use a parameterised query.',
		'high',
	);
	const leak = at(
		'src/db.ts',
		15,
		15,
		'Connection never released',
		'The pooled connection is not released when the query throws, so the pool runs dry.',
	);

	it('the same concern in other words on overlapping lines is one finding; another concern on the same line is not', () => {
		expect(sameFinding(sqlA, sqlB)).toBe(true);
		expect(sameFinding(sqlA, leak)).toBe(false);
		expect(sameFinding(sqlB, leak)).toBe(false);
		expect(sameFinding({ ...sqlA, line: 15, endLine: 15 }, leak)).toBe(false);
	});

	it('the same words in another file, or far from the lines, are another finding', () => {
		expect(sameFinding(sqlA, { ...sqlA, path: 'src/api.ts' })).toBe(false);
		expect(sameFinding(sqlA, { ...sqlA, line: 19, endLine: 19 })).toBe(false);
		expect(sameFinding(sqlA, { ...sqlA, line: 18, endLine: 18 })).toBe(true);
	});

	it('word forms meet (divides/dividing, injection/injected, values/value), a short title against a paragraph counts', () => {
		expect(messageSimilarity('Divides by zero', 'dividing by zero')).toBe(1);
		expect(messageSimilarity('input is injected', 'injection of inputs')).toBe(1);
		expect(
			messageSimilarity('eval of input', 'eval runs whatever the input holds: code injection'),
		).toBeGreaterThanOrEqual(0.5);
		expect(messageSimilarity('Unused import of lodash', 'Timeout is never cleared')).toBe(0);
	});

	it('merges across three agents, keeps the winning review’s place and words, each agent’s reason, and a concern one agent raised apart', () => {
		const merged = mergeFindings({
			winner: 'b',
			final: [sqlB],
			answers: [
				{ agentId: 'a', findings: [sqlA, leak] },
				{ agentId: 'b', findings: [sqlB] },
				{
					agentId: 'c',
					findings: [
						at(
							'src/db.ts',
							14,
							14,
							'Query built from user input',
							'userId goes into the SQL text unescaped: injection.',
							'medium',
						),
					],
				},
			],
		});
		expect(merged).toHaveLength(2);
		const [sql, pool] = merged;
		expect(sql).toMatchObject({
			path: 'src/db.ts',
			line: 15,
			endLine: 15,
			title: 'Unsanitised input in query',
			agents: ['b', 'a', 'c'],
			inWinner: true,
			// Two of three said high.
			severity: 'high',
		});
		expect(sql!.reasons.map((reason) => [reason.agentId, reason.severity, reason.line])).toEqual([
			['b', 'high', 15],
			['a', 'high', 14],
			['c', 'medium', 14],
		]);
		expect(sql!.reasons[1]!.message).toContain('crafted id');
		expect(pool).toMatchObject({ title: 'Connection never released', agents: ['a'], inWinner: false });
	});

	it('severity: what most agents said, a tie goes to the higher', () => {
		const low = { ...sqlA, severity: 'low' as const };
		const tie = mergeFindings({
			winner: null,
			final: [],
			answers: [
				{ agentId: 'a', findings: [low] },
				{ agentId: 'b', findings: [{ ...sqlB, severity: 'high' }] },
			],
		});
		expect(tie.map((finding) => [finding.severity, finding.agents.length])).toEqual([['high', 2]]);
		const most = mergeFindings({
			winner: null,
			final: [],
			answers: [
				{ agentId: 'a', findings: [low] },
				{ agentId: 'b', findings: [{ ...sqlB, severity: 'low' }] },
				{ agentId: 'c', findings: [{ ...sqlB, severity: 'high' }] },
			],
		});
		expect(most.map((finding) => finding.severity)).toEqual(['low']);
	});

	it('one agent’s two findings never count as two agents: a third agent’s joins the closer one', () => {
		const first = at('src/x.ts', 10, 10, 'Missing await', 'save() is not awaited, so errors are lost.');
		const second = at('src/x.ts', 11, 11, 'Missing await', 'flush() is not awaited either.');
		const merged = mergeFindings({
			winner: null,
			final: [],
			answers: [
				{ agentId: 'a', findings: [first, { ...second, title: 'Unawaited flush' }] },
				{ agentId: 'b', findings: [at('src/x.ts', 11, 11, 'Unawaited flush', 'flush() is not awaited.')] },
			],
		});
		expect(merged.map((finding) => [finding.line, finding.agents])).toEqual([
			[10, ['a']],
			[11, ['a', 'b']],
		]);
	});
});
