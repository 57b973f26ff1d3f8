import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { ConfigIssue } from '../../core/config/configIssue.js';
import { commandIds } from '../common/commandIds.js';
import type { ResolvedTeam, TeamProblem } from './vscodeLmModels.js';
import type { FinishedRun } from './runTypes.js';
import { errorMessage } from '../../core/util/errorMessage.js';
import { errorDetail } from '../common/log.js';
import { runLabel } from '../common/runName.js';

/**
 * What the user is told about a run, as non-modal notifications with the next step as a button.
 * Never a stack trace: details go to the MassGen log. `redact` (the session's secrets) cleans
 * every text that carries a message from elsewhere (config issues, errors).
 */

type Redact = (text: string) => string;
const asIs: Redact = (text) => text;

/** Notification buttons, looked up in the display language when shown. */
const button = {
	get openConfig(): string {
		return vscode.l10n.t('Open Config');
	},
	get setApiKey(): string {
		return vscode.l10n.t('Set API Key');
	},
	get selectTeamConfig(): string {
		return vscode.l10n.t('Select Team Config');
	},
	get showPanel(): string {
		return vscode.l10n.t('Show Panel');
	},
	get openRunLog(): string {
		return vscode.l10n.t('Open Run Log');
	},
};

export interface TeamProblemReport {
	readonly problem: TeamProblem | 'no-config';
	readonly file: string;
	readonly issues: readonly ConfigIssue[];
	readonly message?: string;
}

/** Shows the team problem with its next steps; returns what was wrong (redacted). */
export function reportTeamProblem(report: TeamProblemReport, redact: Redact = asIs): string {
	const [message, actions] = teamProblemMessage(report);
	void ask(vscode.l10n.t('MassGen: {0}', message), actions, report, redact);
	return redact(message);
}

function teamProblemMessage(report: TeamProblemReport): [string, string[]] {
	const errors = report.issues.filter((issue) => issue.severity === 'error');
	const first = errors[0];
	const where = (issue: ConfigIssue) => `${basename(issue.file || report.file)}:${issue.line}:${issue.col}`;
	switch (report.problem) {
		case 'no-config':
			return [
				report.message ?? vscode.l10n.t('no team config at {0}', report.file),
				[button.selectTeamConfig],
			];
		case 'config': {
			const more = errors.length > 1 ? vscode.l10n.t(' (and {0} more; see Problems)', errors.length - 1) : '';
			const text = first ? `${first.message} (${where(first)})${more}` : vscode.l10n.t('it cannot be read');
			return [
				vscode.l10n.t('the team config {0} has errors: {1}', basename(report.file), text),
				[button.openConfig],
			];
		}
		case 'missing-key': {
			const keys = errors.filter((issue) => issue.code === 'missing-api-key');
			const text = keys.map((issue) => issue.message).join('; ');
			return [vscode.l10n.t('an API key is missing: {0}', text), [button.setApiKey, button.openConfig]];
		}
		case 'vscode-lm':
			return [errors.map((issue) => issue.message).join('; '), [button.openConfig]];
		case 'no-agents':
			return [
				vscode.l10n.t(
					'no team member is available. {0}. Set an API key, sign in to GitHub Copilot, or select a team config (the "demo" preset needs nothing).',
					first?.message ?? '',
				),
				[button.setApiKey, button.selectTeamConfig],
			];
	}
}

let lastTeamSummary = '';
const notesShown = new Set<string>();

/**
 * Says which agents a default team uses and who was left out (again only when that changes),
 * and each Workspace Trust note once per session (they stay in the log for every run).
 */
export function reportTeamNotes(team: ResolvedTeam, notes: readonly string[]): void {
	for (const note of notes) {
		if (notesShown.has(note)) continue;
		notesShown.add(note);
		void vscode.window.showWarningMessage(vscode.l10n.t('MassGen: {0}', note));
	}
	if (team.kind !== 'default') return;
	const used = team.config.agents.map((agent) => agent.id).join(', ');
	const left = team.dropped.map((d) => `${d.id} (${d.why})`).join('; ');
	const summary = left
		? vscode.l10n.t('MassGen default team: {0}. Left out: {1}.', used, left)
		: vscode.l10n.t('MassGen default team: {0}.', used);
	if (summary === lastTeamSummary) return;
	lastTeamSummary = summary;
	void vscode.window
		.showInformationMessage(summary, button.setApiKey, button.selectTeamConfig)
		.then(runChoice);
}

/** Where the run ended up on screen: whether a visible panel shows it, and how to show it (Show Panel). */
export interface EndedRunView {
	readonly shown: boolean;
	readonly show: () => void;
}

function reportFinished(run: FinishedRun, view: EndedRunView, redact: Redact): void {
	const { result } = run;
	// Several runs may go at once: each notification names its run (and folder in a multi-root workspace).
	const several = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
	const name = runLabel(run.request.question, several ? run.folder.name : undefined);
	const reveal = (choice: string | undefined) =>
		choice === button.showPanel ? view.show() : runChoice(choice, run.runDir);
	if (result.status === 'failed') {
		void vscode.window
			.showErrorMessage(
				redact(
					vscode.l10n.t(
						'MassGen {0}: the run failed: {1}',
						name,
						result.error ?? vscode.l10n.t('no agent produced an answer'),
					),
				),
				button.showPanel,
				button.openRunLog,
			)
			.then(reveal);
	} else if (result.status === 'timeout') {
		const what =
			result.finalAnswer !== null
				? vscode.l10n.t('the best available answer is shown')
				: vscode.l10n.t('no answer was ready');
		void vscode.window
			.showWarningMessage(
				redact(vscode.l10n.t('MassGen {0}: the run timed out; {1}.', name, what)),
				button.showPanel,
			)
			.then(reveal);
	} else if (!view.shown && result.changes.length === 0) {
		// With changes, the change review announces the run (Accept / Review / Reject).
		const winner = result.winner ? vscode.l10n.t(" {0}'s answer won.", result.winner.agentId) : '';
		void vscode.window
			.showInformationMessage(
				redact(vscode.l10n.t('MassGen {0}: the team has answered.{1}', name, winner)),
				button.showPanel,
			)
			.then(reveal);
	}
}

/**
 * A run ended: a status bar note when it was cancelled, else a notification when it failed or
 * timed out, or when it answered without changes and no visible panel shows it. A run with
 * changes is announced by the change review alone (Accept All · Review · Reject All).
 */
export function reportEnded(run: FinishedRun, view: EndedRunView, redact: Redact = asIs): void {
	if (run.result.status === 'cancelled') reportCancelled();
	else reportFinished(run, view, redact);
}

function reportCancelled(): void {
	vscode.window.setStatusBarMessage(vscode.l10n.t('MassGen: run cancelled; nothing was written'), 4000);
}

/** Returns the error's message (redacted). */
export function reportUnexpected(
	log: vscode.LogOutputChannel,
	error: unknown,
	redact: Redact = asIs,
): string {
	log.error(errorDetail(error));
	const message = errorMessage(error);
	void vscode.window
		.showErrorMessage(
			redact(
				vscode.l10n.t('MassGen: the run could not complete: {0}. See the MassGen log for details.', message),
			),
			vscode.l10n.t('Show Log'),
		)
		.then((choice) => choice && log.show(true));
	return redact(message);
}

/** An attachment the core refused (secret, missing, too large): no run started. Returns the reason (redacted). */
export function reportAttachmentProblem(
	log: vscode.LogOutputChannel,
	error: Error,
	redact: Redact = asIs,
): string {
	log.error(`attachment refused: ${error.message}`);
	void vscode.window.showErrorMessage(
		redact(vscode.l10n.t('MassGen: the run did not start: {0}', error.message)),
	);
	return redact(error.message);
}

async function ask(
	message: string,
	actions: readonly string[],
	report: TeamProblemReport,
	redact: Redact,
): Promise<void> {
	const choice = await vscode.window.showErrorMessage(redact(message), ...actions);
	if (choice === button.openConfig) await openIssue(report);
	else await runChoice(choice);
}

async function runChoice(choice: string | undefined, runDir?: string): Promise<void> {
	if (choice === button.setApiKey) await vscode.commands.executeCommand(commandIds.setApiKey);
	else if (choice === button.selectTeamConfig) {
		await vscode.commands.executeCommand(commandIds.selectTeamConfig);
	} else if (choice === button.showPanel) await vscode.commands.executeCommand(commandIds.showPanel);
	else if (choice === button.openRunLog) await vscode.commands.executeCommand(commandIds.openRunLog, runDir);
}

/** Opens the config at its first error (the user asked for it, so it may take focus). */
async function openIssue(report: TeamProblemReport): Promise<void> {
	const first = report.issues.find((issue) => issue.severity === 'error') ?? report.issues[0];
	const file = first?.file || report.file;
	const position = new vscode.Position(
		Math.max(0, (first?.line ?? 1) - 1),
		Math.max(0, (first?.col ?? 1) - 1),
	);
	await vscode.window.showTextDocument(vscode.Uri.file(file), {
		selection: new vscode.Range(position, position),
	});
}

/** Warnings about the run's tools (a server that did not start, a rule that did not parse, a trust refusal). */
export function reportToolNotices(log: vscode.LogOutputChannel, notices: readonly string[]): void {
	if (notices.length === 0) return;
	const more = notices.length > 1 ? vscode.l10n.t(' (and {0} more in the log)', notices.length - 1) : '';
	const showLog = vscode.l10n.t('Show Log');
	void vscode.window
		.showWarningMessage(vscode.l10n.t('MassGen: {0}{1}', notices[0], more), showLog)
		.then((choice) => {
			if (choice === showLog) log.show(true);
		});
}
