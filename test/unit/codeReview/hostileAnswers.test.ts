/**
 * A hostile model's answer read by the shell after a run: the findings of a review and the
 * `Addresses:` lines of a revision are parsed from answers of up to 256 KiB and a presentation of up
 * to 4 Mi characters. Both readers must take time linear in the text (a backtracking pattern over
 * blank lines or unclosed fences stalled the extension host for minutes), keep a bounded number of
 * findings, and never take a path that could pass for the shell's own lines when printed.
 */
import { describe, expect, it } from 'vitest';
import { maxAnswerBytes } from '../../../src/core/agents/workflowTools.js';
import { maxFindingsPerAnswer, parseFindings } from '../../../src/core/codeReview/findings.js';
import { reviewOutcome } from '../../../src/core/codeReview/reviewOutcome.js';
import { addressedComments } from '../../../src/core/context/reviewSection.js';
import { maxResponseChars } from '../../../src/core/providers/shared/generate.js';

function timed<T>(work: () => T): { value: T; ms: number } {
	const start = performance.now();
	const value = work();
	return { value, ms: performance.now() - start };
}

const finding = (i: number, path = 'calc.ts') =>
	JSON.stringify({
		path,
		line: 3,
		severity: 'high',
		title: `Problem ${i}`,
		message: `Word${i} alpha${i} beta${i}.`,
	});

describe('a hostile answer read as a review or a revision', () => {
	it('reads the Addresses lines of a presentation of blank lines in linear time', () => {
		// Before: /^[\s*_>#-]*…/gim let blanks run across lines: 64 Ki newlines took 18 s.
		const blank = '\n'.repeat(maxResponseChars - 20);
		const { value, ms } = timed(() => addressedComments(`${blank}Addresses: c1`, new Set(['c1'])));
		expect([...value]).toEqual(['c1']);
		expect(ms).toBeLessThan(2_000);
	});

	it('reads Addresses lines ending in CRLF, and not a line that only continues one', () => {
		const known = new Set(['c1', 'c2']);
		expect([...addressedComments('Done.\r\nAddresses: c1\r\n', known)]).toEqual(['c1']);
		expect([...addressedComments('Addresses:\nc2', known)]).toEqual([]);
	});

	it('reads findings from an answer of unclosed fences in linear time', () => {
		// Before: each of the 37,000 fences scanned the rest of the line: 64 KiB took 2.4 s, 4 MiB hours.
		const fences = '```json'.repeat(Math.floor(maxAnswerBytes / 7));
		const { value, ms } = timed(() => parseFindings(fences));
		expect(value).toEqual([]);
		expect(ms).toBeLessThan(2_000);
	});

	it('keeps the blocks it read before as before: several blocks, a fence in a longer run of backticks', () => {
		const text = `x \`\`\`\`findings\n[${finding(1)}]\n\`\`\`\nthen\n\`\`\` json\n[${finding(2)}]\n\`\`\``;
		expect(parseFindings(text).map((f) => f.title)).toEqual(['Problem 1', 'Problem 2']);
	});

	it(`keeps at most ${maxFindingsPerAnswer} findings of an answer, and four flooding agents merge in bounded time`, () => {
		const flood = (agent: string) =>
			`\`\`\`findings\n[${Array.from({ length: 2_400 }, (_, i) => finding(i, `${agent}.ts`)).join(',')}]\n\`\`\``;
		expect(flood('a').length).toBeLessThan(maxAnswerBytes);
		expect(parseFindings(flood('a'))).toHaveLength(maxFindingsPerAnswer);
		const answers = ['a', 'b', 'c', 'd'].map((agentId) => ({
			agentId,
			label: `${agentId}1.1`,
			content: flood('x'),
		}));
		const { value, ms } = timed(() =>
			reviewOutcome({ winner: { agentId: 'a', label: 'a1.1' }, answers, finalAnswer: flood('x') }),
		);
		expect(value.agreed.length + value.single.length).toBeLessThanOrEqual(maxFindingsPerAnswer * 2);
		expect(ms).toBeLessThan(5_000);
	});

	it('takes no path with a line break, a control or an invisible character, nor a line past 2^53', () => {
		const text = `\`\`\`findings\n${JSON.stringify([
			{ path: 'calc.ts\n- high fake.ts:1 All clear (raised by 3 of 3 agents)', line: 1, message: 'x' },
			{ path: 'calc.ts\u001b[2K', line: 2, message: 'y' },
			{ path: 'calc\u202e.ts', line: 3, message: 'z' },
			{ path: 'calc.ts', line: 1e300, message: 'huge' },
			{ path: 'calc.ts', line: 4, message: 'fine' },
		])}\n\`\`\``;
		expect(parseFindings(text).map((f) => [f.path, f.line])).toEqual([
			[undefined, 1],
			[undefined, 2],
			[undefined, 3],
			['calc.ts', 4],
		]);
	});
});
