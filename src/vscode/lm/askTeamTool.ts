import * as vscode from 'vscode';
import type { AttachmentRequest } from '../../core/context/attachment.js';
import { changeLines, runEnding, voteSummary } from '../chat/runSummary.js';
import type { RunStarter } from '../run/runStarter.js';
import type { FinishedRun } from '../run/runTypes.js';
import { defaultFolder } from '../common/runFolders.js';
import { escapeMarkdown } from '../common/runName.js';
import { readConfigSetting } from '../common/settings.js';

/** The tool's name, as `contributes.languageModelTools` declares it. */
export const askTeamToolName = 'massgen_askTeam';

/** The input `inputSchema` in package.json describes. */
export interface AskTeamInput {
	readonly question: string;
	/** Workspace-relative (or absolute) paths of files or folders the team should read first. */
	readonly files?: readonly string[];
}

/** What the tool needs of the run controller. */
export type AskTeamRuns = Pick<RunStarter, 'tryStart'>;

/**
 * `massgen_askTeam` (docs/context.md): Copilot agent mode, or any extension through `vscode.lm.invokeTool`,
 * asks the team a question. The run is an ordinary run (panel, run log, notifications); the tool
 * returns the final answer and lists the proposed changes, which stay in the review flow: the tool
 * writes nothing. Problems are returned as text the calling model can read, never thrown.
 */
export class AskTeamTool implements vscode.LanguageModelTool<AskTeamInput> {
	constructor(private readonly _runs: AskTeamRuns) {}

	prepareInvocation(
		options: vscode.LanguageModelToolInvocationPrepareOptions<AskTeamInput>,
	): vscode.PreparedToolInvocation {
		const team = teamName(readConfigSetting(defaultFolder()?.uri));
		return {
			invocationMessage: vscode.l10n.t('Asking {0}…', team),
			confirmationMessages: {
				title: vscode.l10n.t('Ask {0}?', team),
				message: new vscode.MarkdownString(confirmationText(options.input, team)),
			},
		};
	}

	async invoke(
		options: vscode.LanguageModelToolInvocationOptions<AskTeamInput>,
		token: vscode.CancellationToken,
	): Promise<vscode.LanguageModelToolResult> {
		const text = await this._answer(options.input, token);
		return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
	}

	private async _answer(input: AskTeamInput, token: vscode.CancellationToken): Promise<string> {
		const question = typeof input.question === 'string' ? input.question.trim() : '';
		if (!question) return 'Error: massgen_askTeam needs a non-empty `question`.';
		const attachments: AttachmentRequest[] = (input.files ?? []).map((path) => ({ kind: 'path', path }));
		const outcome = await this._runs.tryStart({ question, kind: 'ask', attachments }, token);
		if (token.isCancellationRequested) return 'The MassGen run was cancelled.';
		if (!('run' in outcome)) return `Error: the MassGen run did not start: ${outcome.reason}.`;
		return describeRun(outcome.run);
	}
}

/** The tool's answer: the final answer, the vote, and the proposed changes (not applied). */
export function describeRun(run: Pick<FinishedRun, 'result'>): string {
	const { result } = run;
	if (result.finalAnswer === null) return runEnding(result);
	const changes = changeLines(result);
	const parts = [
		result.status === 'completed' ? '' : `${runEnding(result)} The best answer so far:\n`,
		result.finalAnswer,
		'',
		`Vote: ${voteSummary(result)}`,
		changes.length
			? `Proposed changes (not applied; the user reviews and accepts them in VS Code):\n${changes.map((line) => `- ${line}`).join('\n')}`
			: 'No file changes were proposed.',
	];
	return parts.filter((part, i) => i > 0 || part).join('\n');
}

/** The team as the confirmation names it: the `massgen.config` file when one is set (reading the setting is cheap; resolving the team is not). */
export function teamName(configSetting: string): string {
	const file = configSetting.split(/[\\/]/).at(-1);
	return file ? vscode.l10n.t('the MassGen team of {0}', file) : vscode.l10n.t('your MassGen team');
}

/**
 * The confirmation's Markdown: the question, the attached files, and that nothing is written. The
 * calling model writes the question and the files, and this is the user's consent: each line of
 * the question is quoted with its Markdown escaped (no link, image or heading of the model's; every
 * line break Markdown knows starts a quoted line, so none ends the quote), and each file is one
 * code span whose fence is longer than any backtick run in its name.
 */
export function confirmationText(input: AskTeamInput, team: string): string {
	const question = String(input.question ?? '')
		.split(/\r\n|\r|\n/)
		.map((line) => `> ${escapeMarkdown(line)}`)
		.join('\n');
	const files = input.files?.length
		? vscode.l10n.t('\n\nAttached: {0}', input.files.map((file) => codeSpan(String(file))).join(', '))
		: '';
	return vscode.l10n.t(
		'Question for {0}:\n\n{1}{2}\n\nProposed edits wait for your review; nothing is written.',
		escapeMarkdown(team),
		question,
		files,
	);
}

/** One line in a code span: line breaks as spaces, fenced past its longest backtick run. */
function codeSpan(text: string): string {
	const line = text.replace(/[\r\n]+/g, ' ');
	const fence = '`'.repeat(Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length)) + 1);
	const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : '';
	return `${fence}${pad}${line}${pad}${fence}`;
}

/** Registers the tool; the name must match `contributes.languageModelTools`. */
export function registerAskTeamTool(runs: AskTeamRuns): vscode.Disposable {
	return vscode.lm.registerTool(askTeamToolName, new AskTeamTool(runs));
}
