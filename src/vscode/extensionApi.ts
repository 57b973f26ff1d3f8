import type { Turn } from '../core/orchestrator/types.js';
import type { RunState } from '../protocol/runState.js';
import type { DiffReview } from './codeReview/diffReview.js';
import type { FindingThread } from './codeReview/findingThreads.js';
import type { TeamThreadInfo } from './reviewLoop/teamComments.js';
import type { RunStarter } from './run/runStarter.js';
import type { ActiveRunInfo, ChangeActions, RunService } from './run/runTypes.js';
import type { RunsView } from './pastRuns/runsView.js';
import type { TeamView } from './team/teamView.js';
import type { TeamComparisons } from './compare/teamComparisons.js';
import type { PlanProgressSource } from './plans/planProgress.js';
import type { PlanDocuments } from './plans/planDocuments.js';

/** One surface of the panel as the host sees it. */
export interface PanelSurfaceState {
	/** Rendered into (the view resolved, the tab open). */
	readonly open: boolean;
	readonly visible: boolean;
	/** Visible with the keyboard focus (the view: as its page reported it). */
	readonly focused: boolean;
	/** The run it shows. */
	readonly runId: string | undefined;
}

/**
 * What `activate()` returns: a small, typed surface for the in-host tests (and other
 * extensions). It starts nothing by itself.
 */
export interface MassGenApi {
	readonly runs: RunService & {
		/** A run by ticket or run id; none: the only one going. */
		cancel(id?: string): boolean;
		readonly isRunning: boolean;
		/** The window's runs not ended: running first, then the queue. */
		active(): readonly ActiveRunInfo[];
		startNow(ticket: string): boolean;
		moveQueued(ticket: string, delta: number): boolean;
		tryStart: RunStarter['tryStart'];
	};
	/** The current run's state, or the last run's; null before any run. */
	lastState(): RunState | null;
	/** The conversation follow-ups from the panel continue (question + final answer per turn). */
	conversation(): readonly Turn[];
	/** The change review: the pending change set, its hunk selection, accept and reject. */
	readonly changes: ChangeActions;
	/** Review Selection's and Review Changes' finding threads (Comments API threads cannot be listed otherwise). */
	findingThreads(): readonly FindingThread[];
	/** Review Changes: the last review's findings (where each is shown) and its list. */
	readonly diffReview: Pick<DiffReview, 'findings' | 'reveal'>;
	/** The reviewer's comment threads for the team (all, or one run's): the review loop. */
	teamThreads(runId?: string): readonly TeamThreadInfo[];
	/** What the extension last set in the UI: the `massgen.runActive` context key, the status bar text, the panel. */
	ui(): {
		readonly runActive: boolean;
		readonly statusBar: string | undefined;
		readonly statusTooltip: string | undefined;
		readonly panelOpen: boolean;
	};
	/** The Runs view: its tree (`provider.getChildren`), its live rows and badge, a refresh, and retention as after a run. */
	readonly runsView: Pick<RunsView, 'provider' | 'prune' | 'view' | 'setFilter' | 'live'>;
	/** The Team view: its tree (`provider.snapshot`, `getChildren`) and the builder's steps as they show. */
	readonly teamView: Pick<TeamView, 'provider' | 'view' | 'onDidShowBuilderStep'>;
	/** The run the panel shows (live, opened or restored after a reload); undefined when none. */
	panelRunId(): string | undefined;
	/**
	 * The panel's surfaces: the side bar view, the editor tab with the keyboard else the newest (not
	 * `open` when there is none), and every editor tab (one per run: Open in Editor), oldest first.
	 */
	panelSurfaces(): {
		readonly view: PanelSurfaceState;
		readonly editor: PanelSurfaceState;
		readonly editors: readonly PanelSurfaceState[];
	};
	/** Ask Several Teams: start a comparison, read one as its page shows it. */
	readonly compare: Pick<TeamComparisons, 'ask' | 'view'>;
	/** Execute Plan's progress, as the panel shows it (each plan executing or ended lately). */
	readonly plans: PlanProgressSource;
	/** Plan with Team: each plan run's document (or why there is none). */
	readonly planDocuments: Pick<PlanDocuments, 'outcome'>;
	/** Milliseconds `activate()` took (module load excluded). */
	readonly activationMs: number;
}
