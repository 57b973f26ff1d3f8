import * as vscode from 'vscode';
import type { ParsedPlan } from '../../core/plans/parsePlan.js';
import { errorMessage } from '../../core/util/errorMessage.js';
import { commandIds } from '../common/commandIds.js';
import { Disposable } from '../common/lifecycle.js';
import { isPlanDocumentPath, planDocumentGlob, planDocumentRun } from './planDocumentRun.js';

/** Read-only virtual documents of the runner-up agents' plans: `massgen-plan:/<run id>/<agent id>.md?<folder uri>`. */
export const otherPlanScheme = 'massgen-plan';

/** A runner-up agent's plan of a planning run (`planAgreement(result).others`). */
export interface OtherPlan {
	readonly agentId: string;
	readonly label: string;
	readonly plan: ParsedPlan;
	readonly text: string;
}

/**
 * The runner-up plans one click away: a CodeLens at the top of each plan document
 * (`.massgen/plans/*.md`), "Other plans (2)", opens the other agents' plans of the run that made
 * it (its front matter's `run:`, read from that run's `result.json`) as read-only documents,
 * picking one first when there are several. Reading only: nothing runs from a plan document, so
 * it works the same in Restricted Mode.
 */
export class OtherPlans
	extends Disposable
	implements vscode.CodeLensProvider, vscode.TextDocumentContentProvider
{
	/** Per folder and run: a finished run's result does not change. */
	private readonly _read = new Map<string, Promise<readonly OtherPlan[]>>();

	constructor(private readonly _log: Pick<vscode.LogOutputChannel, 'warn'>) {
		super();
		this._register(
			vscode.languages.registerCodeLensProvider({ scheme: 'file', pattern: planDocumentGlob }, this),
		);
		this._register(vscode.workspace.registerTextDocumentContentProvider(otherPlanScheme, this));
	}

	async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
		const source = planSource(document.uri, document.getText());
		if (!source) return [];
		const others = await this._others(source).catch((error: unknown) => {
			this._log.warn(`other plans of ${document.uri.fsPath}: ${errorMessage(error)}`);
			return [];
		});
		if (others.length === 0) return [];
		return [
			new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
				title: vscode.l10n.t('Other plans ({0})', others.length),
				tooltip: vscode.l10n.t('The plans of the agents the team did not choose (read-only)'),
				command: commandIds.showOtherPlans,
				arguments: [document.uri],
			}),
		];
	}

	async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
		const [, runId, file] = /^\/([^/]+)\/([^/]+)\.md$/.exec(uri.path) ?? [];
		const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(uri.query));
		if (!runId || !file || !folder) return '';
		const agentId = decodeURIComponent(file);
		const others = await this._others({ root: folder.uri.fsPath, runId });
		const other = others.find((candidate) => candidate.agentId === agentId);
		if (!other) return vscode.l10n.t('The plan of {0} is no longer in run {1}.', agentId, runId);
		const note = vscode.l10n.t(
			'A plan the team did not choose: {0}’s (answer {1}), in run {2} (read-only).',
			other.agentId,
			other.label,
			runId,
		);
		return `> ${note}\n\n${other.text}\n`;
	}

	/**
	 * "Other plans": the runner-up plans of the plan document `arg` (its URI; else the active
	 * editor's), one opened read-only, picked first when there are several.
	 */
	async show(arg?: unknown): Promise<vscode.Uri | undefined> {
		const document = await planDocumentOf(arg);
		const source = document && planSource(document.uri, document.getText());
		if (!document || !source) {
			void vscode.window.showInformationMessage(
				vscode.l10n.t('MassGen: open a plan document (.massgen/plans/…) to see the other plans.'),
			);
			return undefined;
		}
		const others = await this._others(source);
		if (others.length === 0) {
			void vscode.window.showInformationMessage(
				vscode.l10n.t('MassGen: the run that made this plan has no other plans.'),
			);
			return undefined;
		}
		const picked =
			others.length === 1
				? others[0]
				: (
						await vscode.window.showQuickPick(
							others.map((other) => ({
								label: other.agentId,
								description: vscode.l10n.t(
									'answer {0} · {1}',
									other.label,
									stepCount(other.plan.steps.length),
								),
								detail: other.plan.title,
								other,
							})),
							{ title: vscode.l10n.t('MassGen: Other Plans'), placeHolder: vscode.l10n.t('Which plan?') },
						)
					)?.other;
		if (!picked) return undefined;
		const folder = vscode.workspace.getWorkspaceFolder(document.uri)!;
		const uri = vscode.Uri.from({
			scheme: otherPlanScheme,
			path: `/${source.runId}/${encodeURIComponent(picked.agentId)}.md`,
			query: folder.uri.toString(),
		});
		await vscode.window.showTextDocument(uri, { preview: true, viewColumn: vscode.ViewColumn.Beside });
		return uri;
	}

	private _others(source: PlanSource): Promise<readonly OtherPlan[]> {
		const key = `${source.root}\0${source.runId}`;
		const known = this._read.get(key);
		if (known) return known;
		const reading = readOtherPlans(source.root, source.runId);
		this._read.set(key, reading);
		// A failure is not kept: the next look tries again.
		reading.catch(() => this._read.delete(key));
		return reading;
	}
}

interface PlanSource {
	readonly root: string;
	readonly runId: string;
}

/** The folder and planning run of a plan document in a workspace folder; undefined for another file. */
function planSource(uri: vscode.Uri, text: string): PlanSource | undefined {
	if (uri.scheme !== 'file' || !isPlanDocumentPath(uri.fsPath)) return undefined;
	const folder = vscode.workspace.getWorkspaceFolder(uri);
	const runId = planDocumentRun(text);
	return folder && runId ? { root: folder.uri.fsPath, runId } : undefined;
}

async function planDocumentOf(arg: unknown): Promise<vscode.TextDocument | undefined> {
	if (arg instanceof vscode.Uri) return vscode.workspace.openTextDocument(arg);
	return vscode.window.activeTextEditor?.document;
}

/** The runner-up plans of run `runId` in `root`, from its `result.json` (the run store's guarded reader). */
async function readOtherPlans(root: string, runId: string): Promise<readonly OtherPlan[]> {
	const [{ checkedRunDir }, { readRunResult }, { planAgreement }] = await Promise.all([
		import('../../core/runStore/runsDirGuard.js'),
		import('../../core/runStore/readResult.js'),
		import('../../core/plans/planAgreement.js'),
	]);
	const read = await readRunResult(await checkedRunDir(root, runId), runId);
	if (!read.ok) throw new Error(read.reason);
	return planAgreement(read.result).others;
}

function stepCount(steps: number): string {
	return steps === 1 ? vscode.l10n.t('1 step') : vscode.l10n.t('{0} steps', steps);
}
