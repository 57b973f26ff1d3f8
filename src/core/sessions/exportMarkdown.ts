/**
 * A run as a self-contained Markdown report (docs/sessions.md: `massgen show RUN --markdown`, the
 * editor's Export Run): question, attachments, final answer, votes with reasons, every agent's
 * answer, the change set as a diff, usage and cost. Built only from the run directory, which is
 * redacted as it is written.
 */
import { readRunReport, type RunReport } from './runReport.js';
import {
	formatAttachment,
	formatChanges,
	formatCost,
	formatChecklist,
	formatDuration,
	formatTime,
	oneLine,
} from './reportFormat.js';
import { coordinationText, reviewReport, steeringLines } from './coordinationText.js';
import { turnChain } from './historyOf.js';

export async function exportRunMarkdown(workspaceRoot: string, runId: string): Promise<string> {
	return runMarkdown(await readRunReport(workspaceRoot, runId));
}

/** Every turn of the chain that ends at `runId`, oldest first, one report each. */
export async function exportSessionMarkdown(workspaceRoot: string, runId: string): Promise<string> {
	const chain = await turnChain(workspaceRoot, runId);
	return sessionMarkdown(await Promise.all(chain.map((turn) => readRunReport(workspaceRoot, turn.runId))));
}

/** The turns' reports under one title, oldest first. */
export function sessionMarkdown(reports: readonly RunReport[]): string {
	const title = `# MassGen session (${reports.length} turn(s))`;
	return [
		title,
		...reports.map((report, i) => runMarkdown(report, { level: 2, title: `Turn ${i + 1}` })),
	].join('\n\n');
}

/** `level` is the heading level of the report's title (its sections are one deeper). */
export function runMarkdown(report: RunReport, options: { level?: number; title?: string } = {}): string {
	const { result } = report;
	const h = (depth: number) => '#'.repeat(Math.min(6, (options.level ?? 1) + depth));
	const models = new Map(report.agents.map((a) => [a.agentId, `${a.provider} ${a.model}`]));
	const sections: string[] = [
		`${h(0)} ${options.title ? `${options.title}: ` : ''}MassGen run \`${result.runId}\``,
		quote(result.question),
		facts([
			['Status', `${result.status} (${formatDuration(result.durationMs)})`],
			['Started', formatTime(report.startedAt)],
			['Winner', result.winner ? `${result.winner.agentId} (${result.winner.label})` : 'none'],
			['Cost', formatCost(report.costUsd)],
			['Changes', formatChanges(result.changes.length, report.changes)],
			...(result.coordination ? [['Coordination', coordinationText(result.coordination)] as const] : []),
			...(report.session.parentRunId
				? [['Follows up on', `\`${report.session.parentRunId}\``] as const]
				: []),
			...(result.error ? [['Error', oneLine(result.error, 2000)] as const] : []),
		]),
	];
	if (result.attachments?.length) {
		sections.push(
			`${h(1)} Attachments`,
			result.attachments.map((a) => `- ${formatAttachment(a)}`).join('\n'),
		);
	}
	if (result.revision) {
		sections.push(
			`${h(1)} Review comments on run ${result.revision.fromRunId}'s proposal`,
			reviewReport(result.revision)
				.map((line) => `- ${line}`)
				.join('\n') || '_None._',
		);
	}
	if (result.steering?.length) {
		sections.push(
			`${h(1)} Your messages to the team`,
			steeringLines(result.steering)
				.map((line) => `- ${line}`)
				.join('\n'),
		);
	}
	sections.push(`${h(1)} Final answer`, result.finalAnswer?.trim() || '_No final answer._');
	if (result.votes.length) {
		const rows = result.votes.map((v) => [v.voter, `${v.votedFor} (${v.votedForLabel})`, v.reason]);
		sections.push(`${h(1)} Votes`, table(['Voter', 'For', 'Reason'], rows));
	}
	if (result.checklist) {
		sections.push(
			`${h(1)} Checklist (! below the threshold)`,
			formatChecklist(result)
				.map((line) => `- ${line}`)
				.join('\n'),
		);
	}
	if (result.answers.length) {
		sections.push(
			`${h(1)} Answers from the team`,
			result.answers
				.map((a) => {
					const about = [a.label, models.get(a.agentId), a.agentId === result.winner?.agentId ? 'winner' : '']
						.filter(Boolean)
						.join(' · ');
					return `<details><summary><b>${escapeHtml(a.agentId)}</b> — ${escapeHtml(about)}</summary>\n\n${a.content.trim()}\n\n</details>`;
				})
				.join('\n\n'),
		);
	}
	if (report.patch.trim()) sections.push(`${h(1)} Changes`, fenced(report.patch.trimEnd(), 'diff'));
	if (result.usage.length) {
		const rows = result.usage.map((u) => [
			u.agentId,
			models.get(u.agentId) ?? '',
			String(u.calls),
			String(u.inputTokens),
			String(u.cachedInputTokens ?? 0),
			String(u.outputTokens),
			String(u.reasoningTokens ?? 0),
			formatCost(u.costUsd),
		]);
		sections.push(
			`${h(1)} Usage`,
			table(['Agent', 'Model', 'Calls', 'Input', 'Cached input', 'Output', 'Reasoning', 'Cost'], rows),
		);
	}
	return `${sections.join('\n\n')}\n`;
}

function facts(rows: readonly (readonly [string, string])[]): string {
	return rows.map(([name, value]) => `- **${name}:** ${value}`).join('\n');
}

function quote(text: string): string {
	return text
		.trim()
		.split('\n')
		.map((line) => `> ${line}`.trimEnd())
		.join('\n');
}

/** A fence longer than any run of backticks inside, so the text cannot close it. */
export function fenced(text: string, language = ''): string {
	const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
	const fence = '`'.repeat(Math.max(3, longest + 1));
	return `${fence}${language}\n${text}\n${fence}`;
}

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
	const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
	return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

/** One table cell: no line breaks, no column separators. */
function cell(text: string): string {
	return oneLine(text, 2000).replace(/\|/g, '\\|');
}

function escapeHtml(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
