import { describe, expect, it } from 'vitest';
import type { FileChange } from '../../../src/contract/fileChange';
import type { RunResult } from '../../../src/contract/runResult';
import { buildComparison, compareChangeSets, teamOutcome } from '../../../src/vscode/compare/comparison';
import { comparisonPage } from '../../../src/vscode/compare/comparisonPage';

const change = (path: string, base: string | null, content: string | null): FileChange => ({
	path,
	kind: base === null ? 'add' : content === null ? 'delete' : 'modify',
	baseHash: base === null ? null : 'h',
	base,
	content,
});

function result(overrides: Partial<RunResult> & Pick<RunResult, 'runId'>): RunResult {
	return {
		question: 'Q?',
		status: 'completed',
		winner: { agentId: 'a', label: 'agent1.1' },
		answers: [],
		votes: [],
		finalAnswer: 'done',
		changes: [],
		usage: [],
		durationMs: 1000,
		...overrides,
	};
}

const usage = (agentId: string, costUsd: number | null, inputTokens = 10, outputTokens = 5) => ({
	agentId,
	calls: 1,
	inputTokens,
	outputTokens,
	costUsd,
});

const vote = (voter: string, votedFor: string) => ({
	voter,
	votedFor,
	votedForLabel: `${votedFor}.1`,
	reason: '',
});

describe('the team comparison, from run results', () => {
	it("sums the agents' cost and tokens; an unpriced call makes the cost unknown", () => {
		const priced = teamOutcome(
			'cheap',
			result({ runId: 'r1', usage: [usage('a', 0.01, 100, 20), usage('b', 0.02, 50, 5)] }),
		);
		expect(priced.costUsd).toBeCloseTo(0.03);
		expect(priced.tokens).toEqual({ input: 150, output: 25 });
		expect(
			teamOutcome('x', result({ runId: 'r2', usage: [usage('a', 0.01), usage('b', null)] })).costUsd,
		).toBeNull();
	});

	it("agreement counts each voter's last vote for the winner; no votes: none", () => {
		const outcome = teamOutcome(
			't',
			result({
				runId: 'r',
				votes: [vote('b', 'c'), vote('c', 'a'), vote('b', 'a'), vote('a', 'c')],
			}),
		);
		// b switched to a; c voted a; a voted c: 2 of 3 voters back the winner a.
		expect(outcome.agreement).toEqual({ forWinner: 2, voters: 3 });
		expect(teamOutcome('solo', result({ runId: 's' })).agreement).toBeNull();
	});

	it('counts added and removed lines per file, added and deleted files included', () => {
		const outcome = teamOutcome(
			't',
			result({
				runId: 'r',
				changes: [
					change('a.ts', 'one\ntwo\nthree\n', 'one\n2\nthree\nfour\n'),
					change('new.ts', null, 'x\ny\n'),
					change('old.ts', 'gone\n', null),
				],
			}),
		);
		expect(outcome.files).toEqual([
			{ path: 'a.ts', kind: 'modify', added: 2, removed: 1 },
			{ path: 'new.ts', kind: 'add', added: 2, removed: 0 },
			{ path: 'old.ts', kind: 'delete', added: 0, removed: 1 },
		]);
	});

	it("says per file what one team changes that the other doesn't", () => {
		const a = [
			change('both.ts', 'b\n', 'A\n'),
			change('onlyA.ts', 'x\n', 'y\n'),
			change('same.ts', 's\n', 'S\n'),
		];
		const b = [
			change('both.ts', 'b\n', 'B\n'),
			change('onlyB.ts', null, 'n\n'),
			change('same.ts', 's\n', 'S\n'),
		];
		expect(compareChangeSets(a, b)).toEqual([
			{ path: 'both.ts', side: 'both' },
			{ path: 'onlyA.ts', side: 'a' },
			{ path: 'onlyB.ts', side: 'b' },
			{ path: 'same.ts', side: 'same' },
		]);
	});

	it('lists finished teams and refused ones; pairs only finished teams with changes', () => {
		const comparison = buildComparison('Q?', [
			{ team: 'A', result: result({ runId: 'ra', changes: [change('f.ts', 'a\n', 'b\n')] }) },
			{ team: 'B', result: result({ runId: 'rb' }) },
			{ team: 'C', refused: 'config problem' },
			{ team: 'D', result: result({ runId: 'rd' }) },
		]);
		expect(comparison.outcomes.map((o) => o.team)).toEqual(['A', 'B', 'D']);
		expect(comparison.refused).toEqual([{ team: 'C', reason: 'config problem' }]);
		// B and D change nothing: their pair says nothing.
		expect(comparison.differences.map((p) => `${p.a}-${p.b}`)).toEqual(['ra-rb', 'ra-rd']);
		expect(comparison.differences[0]!.files).toEqual([{ path: 'f.ts', side: 'a' }]);
	});
});

describe('the comparison page', () => {
	const hostile = '<img src=x onerror=alert(1)>"\'.ts';
	const comparison = buildComparison('Why <b>?', [
		{
			team: 'A<script>',
			result: result({ runId: 'ra', changes: [change(hostile, 'a\n', 'b\n')], usage: [usage('a', 0.5)] }),
		},
		{
			team: 'B',
			result: result({
				runId: 'rb',
				changes: [change(hostile, 'a\n', 'c\n')],
				status: 'failed',
				error: 'boom',
			}),
		},
	]);
	const page = (states: Record<string, 'pending' | 'accepted' | 'discarded' | 'none'>) =>
		comparisonPage({
			id: 'comparison-1',
			comparison,
			changeSet: (runId) => states[runId]!,
			nonce: 'abcdefghijklmnop0123',
		});

	it('runs no script and escapes every text a run or repository chose', () => {
		const html = page({ ra: 'pending', rb: 'pending' });
		const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/
			.exec(html)![1]!
			.replace(/&#39;/g, "'");
		expect(csp).toBe(
			"default-src 'none'; style-src 'nonce-abcdefghijklmnop0123'; base-uri 'none'; form-action 'none'",
		);
		expect(html).toContain('<style nonce="abcdefghijklmnop0123">');
		expect(html).not.toMatch(/<script|<img|onerror=alert\(1\)>/);
		expect(html).toContain('A&lt;script&gt;');
		expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;.ts');
		expect(html).toContain('Why &lt;b&gt;?');
	});

	it("shows each team's figures and links Accept for a pending change set only", () => {
		const html = page({ ra: 'pending', rb: 'discarded' });
		const row = (runId: string) => html.split('\n').find((line) => line.includes(`data-run="${runId}"`))!;
		expect(row('ra')).toContain('$0.5000');
		expect(row('ra')).toContain('a (agent1.1)');
		expect(row('ra')).toContain('+1</span> <span class="del">−1');
		const accept = `command:massgen.compare.accept?${encodeURIComponent(JSON.stringify(['comparison-1', 'ra']))}`;
		expect(row('ra')).toContain(`href="${accept}"`);
		expect(row('rb')).toContain('failed: boom');
		expect(row('rb')).toContain('discarded');
		expect(row('rb')).not.toContain('massgen.compare.accept');
	});

	it('links a diff for a file both teams change differently', () => {
		const html = page({ ra: 'none', rb: 'none' });
		const args = encodeURIComponent(JSON.stringify(['comparison-1', 'ra', 'rb', hostile]));
		expect(html).toContain('data-side="both"');
		expect(html).toContain(`command:massgen.compare.diff?${args.replace(/'/g, '&#39;')}`);
	});
});
