/**
 * `massgen show RUN [--markdown]`: one run from its directory, as text for the terminal or as
 * the Markdown report the editor's Export Run writes.
 */
import { resolve } from 'node:path';
import { planRunLabel } from '../contract/plan.js';
import { runMarkdown, sessionMarkdown } from '../core/sessions/exportMarkdown.js';
import { coordinationText, reviewReport, steeringLines } from '../core/sessions/coordinationText.js';
import { SessionError, turnChain } from '../core/sessions/historyOf.js';
import {
	formatAttachment,
	formatChanges,
	formatCost,
	formatDuration,
	formatTime,
	formatChecklist,
	formatVotes,
} from '../core/sessions/reportFormat.js';
import { readRunReport, type RunReport } from '../core/sessions/runReport.js';
import type { CliCommand } from './args.js';
import type { CliIo } from './cliIo.js';
import { budgetLines } from './showBudget.js';

export async function showCommand(
	command: Extract<CliCommand, { kind: 'show' }>,
	io: CliIo,
): Promise<number> {
	const root = resolve(command.workspace);
	let reports: RunReport[];
	try {
		const runIds = command.session
			? (await turnChain(root, command.runId)).map((turn) => turn.runId)
			: [command.runId];
		reports = await Promise.all(runIds.map((runId) => readRunReport(root, runId)));
	} catch (error) {
		if (!SessionError.is(error)) throw error;
		io.stderr.write(`massgen: ${error.message} (massgen runs lists the runs)\n`);
		return 1;
	}
	if (!command.session) io.stdout.write(command.markdown ? runMarkdown(reports[0]!) : runText(reports[0]!));
	else if (command.markdown) io.stdout.write(sessionMarkdown(reports));
	else io.stdout.write(reports.map((report, i) => `══ turn ${i + 1} ══\n\n${runText(report)}`).join('\n'));
	return 0;
}

function runText(report: RunReport): string {
	const { result } = report;
	const models = new Map(report.agents.map((a) => [a.agentId, `${a.provider} ${a.model}`]));
	const section = (title: string, body: string) => `── ${title} ──\n${body.trimEnd()}`;
	const parts = [
		[
			`run       ${result.runId}`,
			`started   ${formatTime(report.startedAt)}`,
			`status    ${result.status} (${formatDuration(result.durationMs)})`,
			`winner    ${result.winner ? `${result.winner.agentId} (${result.winner.label})` : 'none'}`,
			`cost      ${formatCost(report.costUsd)}`,
			...budgetLines(result.budget),
			`changes   ${formatChanges(result.changes.length, report.changes)}`,
			...(result.coordination ? [`ended     ${coordinationText(result.coordination)}`] : []),
			...(result.plan ? [`plan      ${planRunLabel(result.plan)} (plan ${result.plan.planId})`] : []),
			`session   ${report.session.id}${report.session.parentRunId ? ` (follows up on ${report.session.parentRunId})` : ''}`,
			...(report.madeHere
				? []
				: ['origin    not made on this machine (it came with the folder; not continued or reverted)']),
			...(result.error ? [`error     ${result.error}`] : []),
		].join('\n'),
		section('question', result.question),
	];
	if (result.revision) {
		const title = `review comments on run ${result.revision.fromRunId}'s proposal`;
		parts.push(section(title, reviewReport(result.revision).join('\n') || '(none)'));
	}
	if (result.attachments?.length) {
		parts.push(section('attachments', result.attachments.map((a) => `- ${formatAttachment(a)}`).join('\n')));
	}
	for (const answer of result.answers) {
		const model = models.get(answer.agentId);
		parts.push(section(`${answer.agentId} ${answer.label}${model ? ` · ${model}` : ''}`, answer.content));
	}
	if (result.votes.length) {
		parts.push(section('votes', formatVotes(result.votes).join('\n')));
	}
	if (result.checklist) {
		parts.push(section('checklist (! below the threshold)', formatChecklist(result).join('\n')));
	}
	if (result.steering?.length) {
		parts.push(section('your messages to the team', steeringLines(result.steering).join('\n')));
	}
	parts.push(section('final answer', result.finalAnswer ?? '(none)'));
	if (report.patch.trim()) parts.push(section('changes', report.patch));
	if (result.usage.length) {
		const lines = result.usage.map(
			(u) =>
				`${u.agentId}: ${u.calls} call(s), ${u.inputTokens} input (${u.cachedInputTokens ?? 0} cached), ${u.outputTokens} output, ${formatCost(u.costUsd)}`,
		);
		parts.push(section('usage', lines.join('\n')));
	}
	return `${parts.join('\n\n')}\n`;
}
