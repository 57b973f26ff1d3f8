// The extension's command ids, context keys and view types (setting keys: settings.ts). No `vscode` import, so unit tests can read it.
// package.json `contributes.commands` must list exactly these ids (test/unit/vscode/contributes.test.ts).

export const commandIds = {
	askTeam: 'massgen.askTeam',
	reviewSelection: 'massgen.reviewSelection',
	/** Review Changes: a git diff (working tree, staged, a range, a pull request) reviewed by the team. */
	reviewGitChanges: 'massgen.reviewGitChanges',
	/** The last Review Changes' findings in a quick pick. */
	showReviewFindings: 'massgen.showReviewFindings',
	/** The quick fix on a diagnostic (hidden from the palette: it needs the diagnostic). */
	askTeamToFix: 'massgen.askTeamToFix',
	/** The context pickers; their chips go to the panel's ask box. */
	addContext: 'massgen.addContext',
	showPanel: 'massgen.showPanel',
	/** Gives the panel's ask box the keyboard (its keybinding: Ctrl+Alt+M, Cmd+Alt+M on macOS). */
	focusAskBox: 'massgen.focusAskBox',
	/** The side bar view's title action: the run it shows in a wide editor tab. */
	openInEditor: 'massgen.openInEditor',
	cancelRun: 'massgen.cancelRun',
	/** A message to a running team, and Finish now (also the panel's message box and header button). */
	sendMessageToTeam: 'massgen.sendMessageToTeam',
	finishNow: 'massgen.finishNow',
	acceptChanges: 'massgen.acceptChanges',
	rejectChanges: 'massgen.rejectChanges',
	setApiKey: 'massgen.setApiKey',
	/** The scripted demo team on a sample question (the walkthrough, the Team view, the no-model offer's peer). */
	tryDemoTeam: 'massgen.tryDemoTeam',
	selectTeamConfig: 'massgen.selectTeamConfig',
	/** Plan with Team: the team plans a task read-only and votes; the plan is a document (src/vscode/plans). */
	planWithTeam: 'massgen.planWithTeam',
	/** A plan document's runner-up plans (its CodeLens passes the document's URI), read-only. */
	showOtherPlans: 'massgen.showOtherPlans',
	/** One question, several teams at once, their outcomes compared (src/vscode/compare). */
	askSeveralTeams: 'massgen.askSeveralTeams',
	/** The comparison page's links (command URIs; hidden from the palette). */
	compareAccept: 'massgen.compare.accept',
	compareDiff: 'massgen.compare.diff',
	openRunLog: 'massgen.openRunLog',
	/** Execute Plan (src/vscode/plans): a plan document's editor title, a plan run's row, the palette. */
	executePlan: 'massgen.executePlan',
	/** Undo (or redo) what Accept wrote for a run, from its record; takes a run id or a row with `runId`. */
	revertRun: 'massgen.revertRun',
	// Change review (src/vscode/changes) and selection review comments (src/vscode/codeReview).
	acceptFile: 'massgen.acceptFile',
	rejectFile: 'massgen.rejectFile',
	nextChangedFile: 'massgen.nextChangedFile',
	previousChangedFile: 'massgen.previousChangedFile',
	reviewChanges: 'massgen.reviewChanges',
	/** A hunk's Accept or Reject in the diff (its CodeLens passes the proposed document and the hunk id); hidden from the palette. */
	acceptHunk: 'massgen.acceptHunk',
	rejectHunk: 'massgen.rejectHunk',
	discardProposalEdit: 'massgen.discardProposalEdit',
	dismissFinding: 'massgen.dismissFinding',
	// The review loop (src/vscode/reviewLoop): comments on a proposal, sent back to the team.
	commentForTeam: 'massgen.commentForTeam',
	/** The panel's Comment on a hunk (`{ runId, path, hunkId }`); hidden from the palette. */
	commentOnHunk: 'massgen.commentOnHunk',
	sendToTeam: 'massgen.sendToTeam',
	/** A thread's and a comment's actions (the Comments API passes them); hidden from the palette. */
	editTeamComment: 'massgen.editTeamComment',
	saveTeamComment: 'massgen.saveTeamComment',
	cancelTeamComment: 'massgen.cancelTeamComment',
	deleteTeamComment: 'massgen.deleteTeamComment',
	deleteTeamThread: 'massgen.deleteTeamThread',
	resolveTeamThread: 'massgen.resolveTeamThread',
	reopenTeamThread: 'massgen.reopenTeamThread',
	clearReviewComments: 'massgen.clearReviewComments',
	// The Runs view (src/vscode/pastRuns): rows pass themselves; hidden from the palette but the filter ones.
	runsOpen: 'massgen.runs.open',
	runsContinue: 'massgen.runs.continue',
	runsFork: 'massgen.runs.fork',
	runsRerun: 'massgen.runs.rerun',
	runsOpenLog: 'massgen.runs.openLog',
	runsRevealChanges: 'massgen.runs.revealChanges',
	runsExport: 'massgen.runs.export',
	runsDelete: 'massgen.runs.delete',
	runsPin: 'massgen.runs.pin',
	runsUnpin: 'massgen.runs.unpin',
	runsFilter: 'massgen.runs.filter',
	runsClearFilter: 'massgen.runs.clearFilter',
	runsRefresh: 'massgen.runs.refresh',
	// The Runs view's live rows (the window's runs): Stop, Remove from Queue, Start Now, Move, Review Changes.
	runsStop: 'massgen.runs.stop',
	runsRemoveQueued: 'massgen.runs.removeQueued',
	runsStartNow: 'massgen.runs.startNow',
	runsMoveUp: 'massgen.runs.moveUp',
	runsMoveDown: 'massgen.runs.moveDown',
	runsReviewChanges: 'massgen.runs.reviewChanges',
	/** The team builder (palette, the Team view's "+", the walkthrough). */
	buildTeam: 'massgen.buildTeam',
	// The Team view (src/vscode/team): row actions get the row; hidden from the palette but refresh and open.
	teamRefresh: 'massgen.team.refresh',
	teamOpenConfig: 'massgen.team.openConfig',
	teamRemoveAgent: 'massgen.team.removeAgent',
	teamEditRole: 'massgen.team.editRole',
	teamChangeModel: 'massgen.team.changeModel',
	teamRunDemo: 'massgen.team.runDemo',
	/** The leaderboard of the folder's runs as a Markdown report (the Team view's Stats row opens it). */
	showTeamStats: 'massgen.showTeamStats',
	/** The cheapest team the user's own runs support, with its evidence; written only on consent. */
	suggestTeam: 'massgen.suggestTeam',
} as const;

export type CommandId = (typeof commandIds)[keyof typeof commandIds];

/** Context keys used in package.json `when` clauses; set with `setContext`. */
export const contextKeys = {
	runActive: 'massgen.runActive',
	hasPendingChanges: 'massgen.hasPendingChanges',
	/** The active editor is a diff of the pending change set (drives the review keybindings). */
	changeDiffActive: 'massgen.changeDiffActive',
	/** The active editor is the multi-file diff of the pending change set (its title actions). */
	changesEditorActive: 'massgen.changesEditorActive',
	hasReviewComments: 'massgen.hasReviewComments',
	/** The reviewer has open comments for the team (Send to Team shows). */
	hasTeamComments: 'massgen.hasTeamComments',
	/** The Runs view has a status or text filter. */
	runsFiltered: 'massgen.runsFiltered',
	// The walkthrough's steps complete on these (`completionEvents` `onContext:`), set on success only.
	/** A key is stored, or VS Code has chat models (Copilot). */
	modelReady: 'massgen.walkthrough.modelReady',
	/** Build Team wrote a team, or Select Team Config chose one. */
	teamChosen: 'massgen.walkthrough.teamChosen',
	/** A run completed. */
	runCompleted: 'massgen.walkthrough.runCompleted',
	/** Accept wrote a change. */
	changeAccepted: 'massgen.walkthrough.changeAccepted',
} as const;

/** Views (package.json `contributes.views`): two trees and the team's panel (a webview view). */
export const viewIds = {
	team: 'massgen.team',
	runs: 'massgen.runs',
	teamPanel: 'massgen.teamPanel',
} as const;

/** Webview panel view types. */
export const viewTypes = {
	panel: 'massgen.panel',
} as const;
