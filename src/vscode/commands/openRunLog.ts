import { pathExists } from '../../core/util/pathExists.js';
import * as vscode from 'vscode';
import { runDirOf, runFile, type RunFile, runFileNames, runsDir } from '../../contract/runLayout.js';
import { isSafeRunId } from '../../contract/runId.js';
import { chooseRunFolder, fileFolders, folderOfRun } from '../common/runFolders.js';
import { runName } from '../common/runName.js';

interface FileItem extends vscode.QuickPickItem {
	readonly file?: RunFile;
	readonly reveal?: boolean;
}

/**
 * "MassGen: Open Run Log": pick a past run (or pass its directory or id), then one of its files
 * (final answer, events, result, patch, config), opened as a preview editor; or reveal the folder.
 */
export async function openRunLog(arg?: unknown): Promise<void> {
	const named = typeof arg === 'string' && arg ? arg : undefined;
	const run = named ? namedRun(named) : await pickRunIn(await chooseRunFolder());
	if (!run) {
		if (named) {
			void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: that run is not in this workspace.'));
		}
		return;
	}
	const { runDir } = run;
	const candidates: FileItem[] = [
		{ label: vscode.l10n.t('Final Answer'), description: runFileNames.finalAnswer, file: 'finalAnswer' },
		{
			label: vscode.l10n.t('Result'),
			description: vscode.l10n.t('result.json: status, winner, votes, changes, usage'),
			file: 'result',
		},
		{
			label: vscode.l10n.t('Events'),
			description: vscode.l10n.t('events.jsonl: every event of the run'),
			file: 'events',
		},
		{ label: vscode.l10n.t('Proposed Changes'), description: runFileNames.patch, file: 'patch' },
		{
			label: vscode.l10n.t('Config'),
			description: vscode.l10n.t('config.yaml (secrets redacted)'),
			file: 'config',
		},
	];
	const present = (
		await Promise.all(
			candidates.map(async (c) => ((await pathExists(runFile(runDir, c.file!))) ? c : undefined)),
		)
	).filter((c): c is FileItem => c !== undefined);
	const picked = await vscode.window.showQuickPick<FileItem>(
		[...present, { label: vscode.l10n.t('$(folder) Reveal in Explorer'), description: runDir, reveal: true }],
		{ title: run.name ? vscode.l10n.t('MassGen: {0}', run.name) : vscode.l10n.t('MassGen: Open Run Log') },
	);
	if (!picked) return;
	if (picked.reveal) {
		await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(runDir));
		return;
	}
	await vscode.window.showTextDocument(vscode.Uri.file(runFile(runDir, picked.file!)), { preview: true });
}

/** A run's directory, and its name (`runName`) when it was picked by its question. */
interface PickedRun {
	readonly runDir: string;
	readonly name?: string;
}

/** A run id (in whichever folder has it) or a run directory inside a folder's `.massgen/runs/`. */
function namedRun(arg: string): PickedRun | undefined {
	if (isSafeRunId(arg)) {
		const folder = folderOfRun(arg);
		return folder && { runDir: runDirOf(folder.uri.fsPath, arg) };
	}
	return fileFolders().some((folder) => arg.startsWith(runsDir(folder.uri.fsPath)))
		? { runDir: arg }
		: undefined;
}

async function pickRunIn(
	folder: vscode.WorkspaceFolder | 'none' | undefined,
): Promise<PickedRun | undefined> {
	if (folder === 'none') {
		void vscode.window.showInformationMessage(
			vscode.l10n.t('MassGen: open a folder first; run logs live in its .massgen/runs/.'),
		);
	}
	return typeof folder === 'object' ? pickRun(folder.uri.fsPath) : undefined;
}

async function pickRun(root: string): Promise<PickedRun | undefined> {
	const { listRuns } = await import('../../core/runStore/listRuns.js');
	const runs = await listRuns(root);
	if (runs.length === 0) {
		void vscode.window.showInformationMessage(
			vscode.l10n.t('MassGen: no runs yet in this workspace. Run "MassGen: Ask Team" first.'),
		);
		return undefined;
	}
	const picked = await vscode.window.showQuickPick(
		runs.map((run) => ({
			label: run.question.split('\n')[0]!.slice(0, 120),
			description: run.winner
				? vscode.l10n.t('{0} · winner {1}', run.status, run.winner.agentId)
				: run.status,
			detail: new Date(run.startedAt).toLocaleString(),
			runId: run.runId,
			question: run.question,
		})),
		{
			title: vscode.l10n.t('MassGen: Open Run Log'),
			placeHolder: vscode.l10n.t('Which run?'),
			matchOnDetail: true,
		},
	);
	return picked && { runDir: runDirOf(root, picked.runId), name: runName(picked.question) };
}
