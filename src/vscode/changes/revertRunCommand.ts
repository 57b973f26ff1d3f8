import { realpath } from 'node:fs/promises';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { ownRunsFile, readOwnRuns } from '../../core/runStore/ownRuns.js';
import { isSafeRunId } from '../../contract/runId.js';
import { runDirOf, runFile } from '../../contract/runLayout.js';
import { pathExists } from '../../core/util/pathExists.js';
import { readRegularText } from '../../core/util/regularFile.js';
import { secretPaths } from '../../core/workspace/secretPaths.js';
import type { WritePolicy } from '../run/runTypes.js';
import { runName } from '../common/runName.js';
import { readSecretPathsSetting } from '../run/secretPathsSetting.js';
import { type RevertPrompts, windowRevertPrompts } from './changePrompts.js';
import type { RevertOutcome } from './revertAccepted.js';

type ReadChangeLog = typeof import('../../core/runStore/changeLog.js').readChangeLog;

interface RunRef {
	readonly folder: vscode.WorkspaceFolder;
	readonly runId: string;
	readonly runDir: string;
	/** The run by its question (`runName`): what the messages call it. */
	readonly name: string;
}

/**
 * "MassGen: Revert Run": undoes what Accept wrote for a run, from its record (`changes-log.jsonl`);
 * on a run whose accepted files are all reverted, re-applies them. `arg` is a run id (or an object
 * with `runId`: a Runs view row, the panel); without one, a pick of the runs that have an accept.
 */
export async function revertRunCommand(
	arg: unknown,
	deps: { readonly log: vscode.LogOutputChannel; readonly loadConfig: LoadConfigText },
	prompts: RevertPrompts = windowRevertPrompts,
): Promise<RevertOutcome | undefined> {
	const { log } = deps;
	// The record's schema (zod) and the diff library load at the first revert, not at activation.
	const engine = await import('./changeEngine.js');
	const run = await runOf(arg, engine.readChangeLog);
	if (!run) return undefined;
	// A changes log that came with the folder would write its `before` texts into the workspace.
	if (!(await readOwnRuns(run.folder.uri.fsPath)).has(run.runId)) {
		const record = await ownRunsFile(run.folder.uri.fsPath);
		log.warn(`revert run ${run.runId}: refused: not made on this machine (not in ${record})`);
		void vscode.window.showErrorMessage(
			vscode.l10n.t(
				'MassGen: the run {0} was not made on this machine, so it is not reverted: a cloned repository can ship run folders. If you made it (a moved or copied workspace), add the line {1} to {2}.',
				run.name,
				run.runId,
				record,
			),
		);
		return undefined;
	}
	// On top of the built-in policy: the accepts' recorded protected paths, the run's own config
	// (its `config.yaml`: protected and secret paths only the config names) and the setting.
	const config = await runConfig(run.runDir, deps.loadConfig, log);
	const policy: WritePolicy = {
		root: await realpath(run.folder.uri.fsPath),
		protectedPaths: [
			...engine.recordedProtectedPaths(await engine.readChangeLog(run.runDir)),
			...config.protectedPaths,
		],
		secretPaths: secretPaths([...config.secretPaths, ...readSecretPathsSetting(run.folder.uri).patterns]),
	};
	const outcome = await engine.revertAccepted({
		runId: run.runId,
		name: run.name,
		runDir: run.runDir,
		folder: run.folder.uri,
		policy,
		prompts,
	});
	report(run, outcome, log);
	return outcome;
}

/** The run's config text to its config (the engine's loader: zod and the schema stay out of activation). */
export type LoadConfigText = (
	text: string,
	file: string,
) => Promise<{ readonly config?: { readonly orchestrator: OrchestratorPaths } }>;

interface OrchestratorPaths {
	readonly protected_paths: readonly string[];
	readonly secret_paths: readonly string[];
}

/** The run's recorded config's paths; none when it has no readable config (said in the log). */
async function runConfig(
	runDir: string,
	load: LoadConfigText,
	log: vscode.LogOutputChannel,
): Promise<{ protectedPaths: readonly string[]; secretPaths: readonly string[] }> {
	const file = runFile(runDir, 'config');
	try {
		const { config } = await load(await readRegularText(file), file);
		if (config) {
			return {
				protectedPaths: config.orchestrator.protected_paths,
				secretPaths: config.orchestrator.secret_paths,
			};
		}
		log.warn(`revert: ${file} does not load; only the setting's secret paths apply`);
	} catch (error) {
		log.warn(
			`revert: cannot read ${file}: ${(error as Error).message}; only the setting's secret paths apply`,
		);
	}
	return { protectedPaths: [], secretPaths: [] };
}

function report(run: RunRef, outcome: RevertOutcome, log: vscode.LogOutputChannel): void {
	const { status } = outcome;
	const { runId } = run;
	if (status === 'none') {
		void vscode.window.showInformationMessage(
			vscode.l10n.t('MassGen: the run {0} has no accepted changes to revert.', run.name),
		);
		return;
	}
	if (status === 'cancelled' || status === 'refused') {
		log.info(`revert run ${runId}: ${status}; nothing was written`);
		if (status === 'refused') {
			void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: the revert was not applied.'));
		}
		return;
	}
	if (status === 'unsafe') {
		const reasons = outcome.unsafe.map((refusal) => refusal.reason);
		log.warn(`revert run ${runId}: nothing was written: ${reasons.join('; ')}`);
		void vscode.window.showErrorMessage(
			vscode.l10n.t('MassGen: nothing was written. {0}', reasons.join(' ')),
		);
		return;
	}
	const names = (paths: readonly string[]) => paths.map((path) => basename(path)).join(', ');
	const parts = [written(outcome)];
	if (outcome.merged.length) parts.push(vscode.l10n.t('your later edits kept in {0}', names(outcome.merged)));
	if (outcome.marked.length) {
		parts.push(vscode.l10n.t('resolve the conflict markers in {0}', names(outcome.marked)));
	}
	if (outcome.kept.length) parts.push(vscode.l10n.t('left as you have them: {0}', names(outcome.kept)));
	log.info(`revert run ${runId}: ${parts.join('; ')} (${outcome.written.join(', ') || 'nothing written'})`);
	if (outcome.unrecorded !== undefined) {
		log.warn(`revert run ${runId}: not recorded: ${outcome.unrecorded}`);
		parts.push(
			vscode.l10n.t(
				'it could not be recorded ({0}), so Revert Run cannot undo it; Undo still can',
				outcome.unrecorded,
			),
		);
	}
	void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: {0}: {1}.', run.name, parts.join('; ')));
}

function written({ mode, written: paths }: RevertOutcome): string {
	if (mode === 'reapply') {
		return paths.length === 1
			? vscode.l10n.t('re-applied 1 file')
			: vscode.l10n.t('re-applied {0} files', paths.length);
	}
	return paths.length === 1
		? vscode.l10n.t('reverted 1 file')
		: vscode.l10n.t('reverted {0} files', paths.length);
}

/** The run named by `arg`, looked up in every workspace folder, else picked from those with an accept. */
async function runOf(arg: unknown, readLog: ReadChangeLog): Promise<RunRef | undefined> {
	const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
	if (folders.length === 0) {
		void vscode.window.showInformationMessage(
			vscode.l10n.t('MassGen: open a folder first; runs live in its .massgen/runs/.'),
		);
		return undefined;
	}
	const runId = typeof arg === 'string' ? arg : runIdProperty(arg);
	if (runId !== undefined) {
		for (const folder of isSafeRunId(runId) ? folders : []) {
			const runDir = runDirOf(folder.uri.fsPath, runId);
			if (await pathExists(runDir)) return { folder, runId, runDir, name: runName(await questionOf(runDir)) };
		}
		void vscode.window.showErrorMessage(vscode.l10n.t('MassGen: that run is not in this workspace.'));
		return undefined;
	}
	return pickRun(folders, readLog);
}

/** The run's question, from `result.json`, else its first event; '' when neither is readable. */
async function questionOf(runDir: string): Promise<string> {
	const [{ readResultSummary }, { readRunStart }] = await Promise.all([
		import('../../core/runStore/readResult.js'),
		import('../../core/runStore/readRunEvents.js'),
	]);
	return ((await readResultSummary(runDir)) ?? (await readRunStart(runDir)))?.question ?? '';
}

function runIdProperty(arg: unknown): string | undefined {
	if (typeof arg !== 'object' || arg === null) return undefined;
	const value = (arg as { runId?: unknown }).runId;
	return typeof value === 'string' ? value : undefined;
}

async function pickRun(
	folders: readonly vscode.WorkspaceFolder[],
	readLog: ReadChangeLog,
): Promise<RunRef | undefined> {
	const items: (vscode.QuickPickItem & { ref: RunRef })[] = [];
	const { listRuns } = await import('../../core/runStore/listRuns.js');
	for (const folder of folders) {
		for (const run of await listRuns(folder.uri.fsPath)) {
			const runDir = runDirOf(folder.uri.fsPath, run.runId);
			const entries = await readLog(runDir);
			const accept = entries.findLast((entry) => entry.kind === 'accept');
			if (!accept) continue;
			const last = entries[entries.length - 1]!;
			items.push({
				label: run.question.split('\n')[0]!.slice(0, 120),
				description: `${last.kind === 'revert' ? (last.mode === 'revert' ? 'reverted' : 're-applied') : 'accepted'} ${new Date(last.at).toLocaleString()}`,
				detail: `${accept.files.map((file) => file.path).join(', ')}${folders.length > 1 ? ` · ${folder.name}` : ''}`,
				ref: { folder, runId: run.runId, runDir, name: runName(run.question) },
			});
		}
	}
	if (items.length === 0) {
		void vscode.window.showInformationMessage(
			vscode.l10n.t('MassGen: no run in this workspace has accepted changes.'),
		);
		return undefined;
	}
	const picked = await vscode.window.showQuickPick(items, {
		title: vscode.l10n.t('MassGen: Revert Run'),
		placeHolder: vscode.l10n.t('Which run’s accepted changes?'),
		matchOnDetail: true,
	});
	return picked?.ref;
}
