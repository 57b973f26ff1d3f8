import type { CaseOutcome } from './runCase.js';

/**
 * The eval's report: one row per case (case, decision expected, decision made, requests the
 * servers saw, pass/FAIL), then each failed case's reasons and its agents' policy decisions.
 */
export function evalTable(outcomes: readonly CaseOutcome[]): string {
	const rows = outcomes.map((o) => [
		o.name,
		o.expected,
		o.made,
		`${o.requests} (${Object.values(o.perAgent).join('+')})`,
		o.failures.length ? 'FAIL' : 'pass',
	]);
	const header = ['case', 'decision expected', 'decision made', 'requests', 'result'];
	const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
	const line = (cells: readonly string[]) =>
		cells
			.map((cell, i) => cell.padEnd(widths[i]!))
			.join(' | ')
			.trimEnd();
	const table = [line(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line)];
	const details = outcomes
		.filter((o) => o.failures.length)
		.flatMap((o) => [
			'',
			`${o.name} FAILED:`,
			...o.failures.map((f) => `  - ${f}`),
			...Object.entries(o.decisions)
				.filter(([, steps]) => steps.length > 0)
				.map(([agent, steps]) => `  ${agent}: ${steps.join(' → ')}`),
		]);
	return [...table, ...details].join('\n');
}
