/**
 * The Runs view's live rows as plain data: the window's runs that have not ended (the controller's
 * `active()`), and the ones that ended lately and still need the user (changes to review) or say
 * how they ended (failed, cancelled) until the history lists them. `runsTreeModel` puts them at the
 * top of the tree under one "Running" group; `runsTreeProvider` maps them to TreeItems.
 */
import * as vscode from 'vscode';
import { escapeMarkdown, questionLine } from '../common/runName.js';

/** What a live row says: each state has a word, an icon and its own menu (`contextValue`). */
export type LiveState = 'starting' | 'queued' | 'working' | 'approval' | 'changes' | 'failed' | 'cancelled';

/** A run of the window as the controller lists it (`ActiveRunInfo`, reduced to what the rows show). */
export interface ActiveRunLine {
	readonly ticket: string;
	readonly runId: string | undefined;
	readonly question: string;
	readonly folder: { readonly name: string };
	readonly phase: 'starting' | 'queued' | 'running';
}

/** A run of this window that ended: how it ended as far as the rows care. */
export interface EndedRunLine {
	readonly ticket: string;
	readonly runId: string;
	readonly question: string;
	readonly folder: { readonly name: string };
	readonly ended: 'changes' | 'failed' | 'cancelled' | 'done';
	/** Epoch ms. */
	readonly endedAt: number;
}

export interface LiveInputs {
	readonly active: readonly ActiveRunLine[];
	readonly ended: readonly EndedRunLine[];
	/** Approval requests waiting, per run id. */
	readonly approvals: (runId: string) => number;
	/** Runs whose change set waits for Accept or Reject. */
	readonly pendingChanges: ReadonlySet<string>;
	/** Run ids the history (the run directories) lists already. */
	readonly inHistory: ReadonlySet<string>;
	/** The workspace has more than one folder: each row names its folder. */
	readonly multiRoot: boolean;
	/** Epoch ms. */
	readonly now: number;
}

export interface LiveRunNode {
	readonly kind: 'live';
	/** Stable for the run's whole life in the view (its ticket), so selection and focus stay on it. */
	readonly id: string;
	readonly ticket: string;
	readonly runId: string | undefined;
	readonly question: string;
	readonly folderName: string | undefined;
	readonly state: LiveState;
	/** 1-based place in the queue (queued only), and how many wait. */
	readonly place?: { readonly at: number; readonly of: number };
	readonly approvals: number;
}

export interface LiveGroupNode {
	readonly kind: 'live-group';
	readonly id: 'live-group';
	readonly children: readonly LiveRunNode[];
}

/** How long a failed or cancelled run stays at the top when the history does not list it (no readable turn). */
export const endedRowMs = 120_000;

/** The live rows: going runs in the controller's order (running first, then the queue), then those that ended. */
export function liveRunRows(inputs: LiveInputs): LiveRunNode[] {
	const queued = inputs.active.filter((run) => run.phase === 'queued');
	const row = (run: ActiveRunLine | EndedRunLine, state: LiveState, approvals = 0): LiveRunNode => ({
		kind: 'live',
		id: `live:${run.ticket}`,
		ticket: run.ticket,
		runId: run.runId,
		question: run.question,
		folderName: inputs.multiRoot ? run.folder.name : undefined,
		state,
		approvals,
	});
	const going = inputs.active.map((run): LiveRunNode => {
		const approvals = run.runId ? inputs.approvals(run.runId) : 0;
		const state: LiveState = run.phase === 'running' ? (approvals > 0 ? 'approval' : 'working') : run.phase;
		const at = queued.indexOf(run);
		return {
			...row(run, state, approvals),
			...(at >= 0 ? { place: { at: at + 1, of: queued.length } } : {}),
		};
	});
	const ended = inputs.ended.flatMap((run): LiveRunNode[] => {
		const state = endedState(run, inputs);
		return state ? [row(run, state)] : [];
	});
	return [...going, ...ended];
}

/**
 * An ended run's row: "changes to review" while its change set waits; "failed" or "cancelled"
 * until the history lists the run (or for `endedRowMs` when it never does); none otherwise.
 */
function endedState(run: EndedRunLine, inputs: LiveInputs): LiveState | undefined {
	if (inputs.pendingChanges.has(run.runId)) return 'changes';
	if (run.ended !== 'failed' && run.ended !== 'cancelled') return undefined;
	if (inputs.inHistory.has(run.runId) || inputs.now - run.endedAt >= endedRowMs) return undefined;
	return run.ended;
}

/** How many runs need the user: approvals waiting or a change set to review (the view's badge). */
export function needsUserCount(
	approvalRunIds: Iterable<string>,
	pendingChanges: ReadonlySet<string>,
): number {
	return new Set([...approvalRunIds, ...pendingChanges]).size;
}

const stateLook: Record<LiveState, { icon: string; color?: string }> = {
	starting: { icon: 'loading~spin' },
	queued: { icon: 'clock' },
	working: { icon: 'sync~spin', color: 'charts.blue' },
	approval: { icon: 'shield', color: 'list.warningForeground' },
	changes: { icon: 'diff-multiple', color: 'charts.green' },
	failed: { icon: 'error', color: 'testing.iconFailed' },
	cancelled: { icon: 'circle-slash', color: 'disabledForeground' },
};

/** The state as the row says it: `working`, `queued (2 of 3)`, `needs approval`… */
export function stateText(node: Pick<LiveRunNode, 'state' | 'place' | 'approvals'>): string {
	switch (node.state) {
		case 'starting':
			return vscode.l10n.t('starting');
		case 'queued':
			return node.place
				? vscode.l10n.t('queued ({0} of {1})', node.place.at, node.place.of)
				: vscode.l10n.t('queued');
		case 'working':
			return vscode.l10n.t('working');
		case 'approval':
			return node.approvals > 1
				? vscode.l10n.t('needs approval ({0})', node.approvals)
				: vscode.l10n.t('needs approval');
		case 'changes':
			return vscode.l10n.t('changes to review');
		case 'failed':
			return vscode.l10n.t('failed');
		case 'cancelled':
			return vscode.l10n.t('cancelled');
	}
}

/** How a row looks: `icon` is a codicon id, `color` a theme color id (`NodeLook` adds how it folds). */
export interface RowLook {
	readonly label: string;
	readonly description: string;
	/** Markdown. */
	readonly tooltip: string;
	readonly icon: string;
	readonly color?: string;
	/**
	 * Space-separated words the menus' `when` clauses match (`viewItem =~ /\blive\b/`). A live run's:
	 * `live`, the state (`starting`, `queued`, `working`, `approval`, `changes`, `failed`,
	 * `cancelled`), `hasRun` once it has a run id (Open in Panel), `stoppable` while it goes, and for
	 * a queued run `canUp`/`canDown` when it can move that way.
	 */
	readonly contextValue: string;
}

export function liveLook(node: LiveRunNode): RowLook {
	const state = stateText(node);
	const going = node.state === 'starting' || node.state === 'working' || node.state === 'approval';
	const words = [
		'live',
		node.state,
		node.runId ? 'hasRun' : '',
		going ? 'stoppable' : '',
		node.place && node.place.at > 1 ? 'canUp' : '',
		node.place && node.place.at < node.place.of ? 'canDown' : '',
	].filter(Boolean);
	const tooltip = [
		`**${escapeMarkdown(questionLine(node.question))}**`,
		node.folderName ? vscode.l10n.t('{0} in {1}', state, node.folderName) : state,
		node.runId ? vscode.l10n.t('Run `{0}`', node.runId) : '',
	].filter(Boolean);
	return {
		label: questionLine(node.question),
		description: [state, node.folderName ?? ''].filter(Boolean).join(' · '),
		tooltip: tooltip.join('\n\n'),
		...stateLook[node.state],
		contextValue: words.join(' '),
	};
}

/** The group's description: `2 working · 1 queued · 1 needs approval`. */
export function liveGroupDescription(rows: readonly LiveRunNode[]): string {
	const count = (states: readonly LiveState[]) => rows.filter((row) => states.includes(row.state)).length;
	const parts: string[] = [];
	const working = count(['working', 'starting']);
	const waiting = count(['queued']);
	const approval = count(['approval']);
	const changes = count(['changes']);
	if (working) parts.push(vscode.l10n.t('{0} working', working));
	if (approval) parts.push(vscode.l10n.t('{0} needs approval', approval));
	if (waiting) parts.push(vscode.l10n.t('{0} queued', waiting));
	if (changes) parts.push(vscode.l10n.t('{0} to review', changes));
	return parts.join(' · ');
}
