import * as vscode from 'vscode';
import { type CommandId, commandIds } from './common/commandIds.js';
import { askTeam } from './commands/askTeam.js';
import { openRunLog } from './commands/openRunLog.js';
import { revertRunCommand } from './changes/revertRunCommand.js';
import { selectTeamConfig } from './commands/selectTeamConfig.js';
import { setApiKey } from './commands/setApiKey.js';
import { tryDemoTeam } from './commands/tryDemoTeam.js';
import { addContext } from './context/addContext.js';
import type { ContextPickerDeps } from './context/contextPicker.js';
import { askTeamToFix } from './context/fixCodeActions.js';
import type { ChangeReview } from './changes/changeReview.js';
import { DisposableStore, type IDisposable } from './common/lifecycle.js';
import type { Engine } from './run/loadEngine.js';
import type { RunController } from './run/runController.js';
import { cancelRun } from './commands/cancelRun.js';
import { finishNow, sendMessageToTeam } from './commands/steerTeam.js';
import { askSeveralTeams } from './compare/askSeveralTeams.js';
import type { TeamComparisons } from './compare/teamComparisons.js';
import type { OtherPlans } from './plans/otherPlans.js';
import type { PlanDocuments } from './plans/planDocuments.js';
import { planWithTeam } from './plans/planWithTeam.js';
import type { SelectionReview } from './codeReview/selectionReview.js';
import type { DiffReview } from './codeReview/diffReview.js';
import type { FindingThreads } from './codeReview/findingThreads.js';
import type { ReviewLoop } from './reviewLoop/reviewLoop.js';
import type { KeyStore } from './common/secrets.js';
import type { RunsView } from './pastRuns/runsView.js';
import type { TeamView } from './team/teamView.js';
import type { PanelHost } from './panel/panelHost.js';
import type { WalkthroughProgress } from './walkthroughProgress.js';
import type { PlanExecutions } from './plans/planExecutions.js';
import { executePlan } from './plans/executePlan.js';
import { errorMessage } from '../core/util/errorMessage.js';
import { errorDetail } from './common/log.js';

export type CommandHandler = (...args: unknown[]) => unknown;

export interface CommandDeps {
	readonly log: vscode.LogOutputChannel;
	readonly panel: PanelHost;
	readonly runs: RunController;
	readonly keys: KeyStore;
	/** The extension's `configs/` folder (shipped presets). */
	readonly configsDir: string;
	/** Accept/Reject Changes and File, Next/Previous Changed File, Review Changes. */
	readonly changes: ChangeReview;
	/** Review Selection. */
	readonly selection: SelectionReview;
	/** Review Changes and its findings list. */
	readonly diffReview: DiffReview;
	/** Dismiss Finding, Clear Review Comments. */
	readonly findingThreads: FindingThreads;
	/** Comment for the Team, Send to Team and the comment threads' actions. */
	readonly reviewLoop: ReviewLoop;
	/** What Add Context's pickers read besides VS Code's APIs (terminal history, redaction). */
	readonly picker: ContextPickerDeps;
	/** The Runs view's row and title actions. */
	readonly runsView: Pick<RunsView, 'handlers'>;
	/** The Team view's row and title actions, and Build Team. */
	readonly teamView: Pick<TeamView, 'handlers'>;
	/** The run engine (`dist/engine.js`), for what needs the config loader outside a run (Revert Run). */
	readonly engine: () => Promise<Pick<Engine, 'loadConfigText'>>;
	/** Runs each command (the first-use walkthrough waits while one of ours is running). */
	readonly around: <T>(command: () => Promise<T>) => Promise<T>;
	/** The walkthrough's steps, completed on success (a team written or chosen). */
	readonly progress: Pick<WalkthroughProgress, 'teamChosen'>;
	/** Ask Several Teams and its comparison page's links. */
	readonly comparisons: TeamComparisons;
	/** Execute Plan. */
	readonly plans: PlanExecutions;
	/** Plan with Team's documents, and a plan document's runner-up plans. */
	readonly planDocuments: PlanDocuments;
	readonly otherPlans: OtherPlans;
}

/** Registers every contributed command exactly once. Returns one disposable for all of them. */
export function registerCommands(deps: CommandDeps): IDisposable {
	const { changes, selection, progress } = deps;
	const team = deps.teamView.handlers();
	// Every id has its handler: the type fails to compile when a command is added without one.
	const handlers: Record<CommandId, CommandHandler> = {
		[commandIds.askTeam]: (arg) => askTeam(deps, arg),
		[commandIds.reviewSelection]: () => selection.reviewSelection(),
		[commandIds.reviewGitChanges]: (arg) => deps.diffReview.review(arg),
		[commandIds.showReviewFindings]: () => deps.diffReview.showFindings(),
		[commandIds.askTeamToFix]: (uri, diagnostics) => askTeamToFix(deps.runs, uri, diagnostics),
		[commandIds.addContext]: (arg) => addContext(deps.picker, deps.panel, arg),
		[commandIds.showPanel]: () => deps.panel.show({ preserveFocus: false }),
		[commandIds.focusAskBox]: () => deps.panel.focusAskBox(),
		[commandIds.openInEditor]: () => deps.panel.openInEditor(),
		[commandIds.cancelRun]: (arg) => cancelRun(deps.runs, arg),
		[commandIds.sendMessageToTeam]: (arg) => sendMessageToTeam(deps.runs, arg),
		[commandIds.finishNow]: (arg) => finishNow(deps.runs, arg),
		[commandIds.acceptChanges]: (arg) => changes.acceptAll(arg),
		[commandIds.rejectChanges]: (arg) => changes.rejectAll(arg),
		[commandIds.setApiKey]: () => setApiKey(deps.keys),
		[commandIds.tryDemoTeam]: () => tryDemoTeam(deps.runs),
		[commandIds.selectTeamConfig]: async () => progress.teamChosen(await selectTeamConfig(deps.configsDir)),
		[commandIds.planWithTeam]: (arg) => planWithTeam({ runs: deps.runs, plans: deps.planDocuments }, arg),
		[commandIds.showOtherPlans]: (arg) => deps.otherPlans.show(arg),
		[commandIds.askSeveralTeams]: () => askSeveralTeams(deps.comparisons, deps.configsDir),
		[commandIds.compareAccept]: (id, runId) => deps.comparisons.accept(id, runId),
		[commandIds.compareDiff]: (id, a, b, path) => deps.comparisons.diff(id, a, b, path),
		[commandIds.openRunLog]: (arg) => openRunLog(arg),
		[commandIds.executePlan]: (arg) => executePlan(deps.plans, arg),
		[commandIds.revertRun]: (arg) =>
			revertRunCommand(arg, {
				log: deps.log,
				loadConfig: async (text, file) => (await deps.engine()).loadConfigText(text, file),
			}),
		[commandIds.acceptFile]: (arg) => changes.acceptFile(arg),
		[commandIds.rejectFile]: (arg) => changes.rejectFile(arg),
		[commandIds.nextChangedFile]: () => changes.step(1),
		[commandIds.previousChangedFile]: () => changes.step(-1),
		[commandIds.reviewChanges]: (arg) => changes.review(arg),
		[commandIds.acceptHunk]: (uri, id) => changes.selectHunkIn(uri, id, true),
		[commandIds.rejectHunk]: (uri, id) => changes.selectHunkIn(uri, id, false),
		[commandIds.discardProposalEdit]: (arg) => changes.discardEdit(arg),
		[commandIds.dismissFinding]: (thread) => deps.findingThreads.dismiss(thread),
		[commandIds.clearReviewComments]: () => deps.findingThreads.clear(),
		[commandIds.commentForTeam]: (arg) => deps.reviewLoop.commentForTeam(arg),
		[commandIds.commentOnHunk]: (arg) => deps.reviewLoop.commentOnHunk(arg),
		[commandIds.sendToTeam]: (arg) => deps.reviewLoop.sendToTeam(arg),
		[commandIds.editTeamComment]: (comment) => deps.reviewLoop.comments.edit(comment),
		[commandIds.saveTeamComment]: (comment) => deps.reviewLoop.comments.save(comment),
		[commandIds.cancelTeamComment]: (comment) => deps.reviewLoop.comments.cancelEdit(comment),
		[commandIds.deleteTeamComment]: (comment) => deps.reviewLoop.comments.delete(comment),
		[commandIds.deleteTeamThread]: (thread) => deps.reviewLoop.comments.deleteThread(thread),
		[commandIds.resolveTeamThread]: (thread) => deps.reviewLoop.comments.setResolved(thread, true),
		[commandIds.reopenTeamThread]: (thread) => deps.reviewLoop.comments.setResolved(thread, false),
		...deps.runsView.handlers(),
		...team,
		[commandIds.buildTeam]: async (...args) => progress.teamChosen(await team[commandIds.buildTeam](...args)),
	};
	const store = new DisposableStore();
	for (const [id, handler] of Object.entries(handlers)) {
		store.add(
			vscode.commands.registerCommand(id, (...args: unknown[]) =>
				deps.around(() => guarded(deps.log, id, handler, args)),
			),
		);
	}
	return store;
}

/** A command never surfaces a stack trace: failures are logged and shown as one line. */
async function guarded(
	log: vscode.LogOutputChannel,
	id: string,
	handler: CommandHandler,
	args: unknown[],
): Promise<unknown> {
	try {
		return await handler(...args);
	} catch (error) {
		log.error(`${id}: ${errorDetail(error)}`);
		void vscode.window.showErrorMessage(vscode.l10n.t('MassGen: {0}', errorMessage(error)));
		return undefined;
	}
}
