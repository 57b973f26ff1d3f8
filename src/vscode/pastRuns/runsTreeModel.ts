/**
 * The Runs view's tree as plain data (no `vscode`, so it is unit-tested as is): folders (only with
 * more than one), sessions, turns, and how each row looks. `runsTreeProvider` maps it to TreeItems.
 */
import * as vscode from 'vscode';
import type { SessionLine, TurnSummary } from '../../core/sessions/sessionTypes.js';
import { escapeMarkdown, questionLine } from '../common/runName.js';
import {
	liveGroupDescription,
	liveLook,
	type LiveGroupNode,
	type LiveRunNode,
	type RowLook,
} from './liveRunRows.js';
import { matchesFilter, type RunsFilter } from './runsFilter.js';
import { planRunName } from '../plans/planRunName.js';

export interface FolderSessions {
	readonly name: string;
	/** The folder's file system path. */
	readonly root: string;
	readonly sessions: readonly SessionLine[];
}

export interface FolderNode {
	readonly kind: 'folder';
	readonly id: string;
	readonly name: string;
	readonly root: string;
	readonly children: readonly SessionNode[];
}

export interface SessionNode {
	readonly kind: 'session';
	readonly id: string;
	readonly root: string;
	readonly session: SessionLine;
	readonly pinned: boolean;
	/** The turns the filter lets through, oldest first. */
	readonly children: readonly TurnNode[];
}

export interface TurnNode {
	readonly kind: 'turn';
	readonly id: string;
	readonly root: string;
	/** The turn's run (commands that take "a row with `runId`", such as Revert Run, read it). */
	readonly runId: string;
	readonly turn: TurnSummary;
	/** The last turn of its session line: a follow-up continues the line rather than forking it. */
	readonly isLast: boolean;
}

export type RunsNode = FolderNode | SessionNode | TurnNode | LiveGroupNode | LiveRunNode;

/**
 * The top level: the window's live runs (`liveRunRows`) under one "Running" group first, then
 * sessions (newest activity first), under one node per folder when there is more than one. A
 * session shows when one of its turns passes the filter, with those turns only.
 */
export function buildRunsTree(
	folders: readonly FolderSessions[],
	filter: RunsFilter,
	isPinned: (sessionId: string) => boolean,
	live: readonly LiveRunNode[] = [],
): RunsNode[] {
	const group: RunsNode[] = live.length > 0 ? [{ kind: 'live-group', id: 'live-group', children: live }] : [];
	return [...group, ...historyTree(folders, filter, isPinned)];
}

function historyTree(
	folders: readonly FolderSessions[],
	filter: RunsFilter,
	isPinned: (sessionId: string) => boolean,
): RunsNode[] {
	const perFolder = folders.map((folder): FolderNode => {
		const children = folder.sessions.flatMap((session): SessionNode[] => {
			const last = session.turns.at(-1)?.runId;
			const turns = session.turns
				.filter((turn) => matchesFilter(turn, filter))
				.map((turn): TurnNode => ({
					kind: 'turn',
					id: `${folder.root}#${turn.runId}`,
					root: folder.root,
					runId: turn.runId,
					turn,
					isLast: turn.runId === last,
				}));
			if (turns.length === 0) return [];
			const pinned = isPinned(session.id);
			const id = `${folder.root}#session:${session.id}`;
			return [{ kind: 'session', id, root: folder.root, session, pinned, children: turns }];
		});
		return { kind: 'folder', id: `folder:${folder.root}`, name: folder.name, root: folder.root, children };
	});
	if (perFolder.length === 1) return [...perFolder[0]!.children];
	return perFolder.filter((folder) => folder.children.length > 0);
}

export function childrenOf(node: RunsNode | undefined, top: readonly RunsNode[]): readonly RunsNode[] {
	if (!node) return top;
	return node.kind === 'turn' || node.kind === 'live' ? [] : node.children;
}

/**
 * How a row looks; its `contextValue` words: `folder`, `session` + `pinned`/`unpinned`, `turn` +
 * `last` + `changes-<outcome>` when it proposed changes; `live-group`, and a live run's (`liveLook`).
 */
export interface NodeLook extends RowLook {
	readonly collapsed: 'none' | 'collapsed' | 'expanded';
}

const statusLook: Record<TurnSummary['status'], { icon: string; color: string }> = {
	completed: { icon: 'pass-filled', color: 'testing.iconPassed' },
	failed: { icon: 'error', color: 'testing.iconFailed' },
	timeout: { icon: 'watch', color: 'list.warningForeground' },
	cancelled: { icon: 'circle-slash', color: 'disabledForeground' },
};

/** '' for no changes, `changes pending`, `accepted`, `partly accepted`, `rejected`, `reverted`. */
function outcomeText(outcome: TurnSummary['changes']): string {
	if (outcome === 'none') return '';
	const words: Record<Exclude<TurnSummary['changes'], 'none'>, string> = {
		pending: vscode.l10n.t('changes pending'),
		accepted: vscode.l10n.t('accepted'),
		'partly-accepted': vscode.l10n.t('partly accepted'),
		rejected: vscode.l10n.t('rejected'),
		reverted: vscode.l10n.t('reverted'),
		superseded: vscode.l10n.t('superseded'),
	};
	return words[outcome];
}

export function lookOf(node: RunsNode, now: Date, newestSessionId?: string): NodeLook {
	switch (node.kind) {
		case 'folder':
			return {
				label: node.name,
				description: plural(node.children.length, 'session'),
				tooltip: node.root,
				icon: 'root-folder',
				contextValue: 'folder',
				collapsed: 'expanded',
			};
		case 'session':
			return sessionLook(node, now, newestSessionId);
		case 'turn':
			return turnLook(node, now);
		case 'live-group':
			return {
				label: vscode.l10n.t('Running'),
				description: liveGroupDescription(node.children),
				tooltip: vscode.l10n.t('The runs of this window that are going, waiting or need you'),
				icon: 'run-all',
				contextValue: 'live-group',
				collapsed: 'expanded',
			};
		case 'live':
			return { ...liveLook(node), collapsed: 'none' };
	}
}

function sessionLook(node: SessionNode, now: Date, newestSessionId: string | undefined): NodeLook {
	const { session } = node;
	const first = session.turns[0]!;
	const last = session.turns.at(-1)!;
	const foreign = session.turns.some((turn) => !turn.madeHere);
	const description = [
		foreign ? notMadeHere() : '',
		plural(session.turns.length, 'turn'),
		relativeTime(last.startedAt, now),
		session.forkedFrom ? vscode.l10n.t('fork') : '',
		node.pinned ? vscode.l10n.t('pinned') : '',
	].filter(Boolean);
	const name = first.plan ? planRunName(first.plan) : questionLine(first.question);
	const tooltip = [
		`**${escapeMarkdown(name)}**`,
		vscode.l10n.t('{0}, last {1}', plural(session.turns.length, 'turn'), fullDate(last.startedAt)),
		session.forkedFrom ? vscode.l10n.t('Forked from run `{0}`', session.forkedFrom) : '',
		node.pinned ? vscode.l10n.t('Pinned: kept by `massgen.runs.keep`') : '',
		foreign ? notMadeHereTooltip() : '',
	].filter(Boolean);
	return {
		label: name,
		description: description.join(' · '),
		tooltip: tooltip.join('\n\n'),
		icon: node.pinned ? 'pinned' : session.forkedFrom ? 'repo-forked' : 'comment-discussion',
		contextValue: `session ${node.pinned ? 'pinned' : 'unpinned'}`,
		collapsed: session.id === newestSessionId ? 'expanded' : 'collapsed',
	};
}

function turnLook(node: TurnNode, now: Date): NodeLook {
	const { turn } = node;
	const cost = formatCost(turn.costUsd);
	const outcome = outcomeText(turn.changes);
	// What a user looks for first: who won, how many files, what became of them, when; the cost on hover.
	const description = [
		turn.madeHere ? '' : notMadeHere(),
		turn.winner ? turn.winner.agentId : '',
		turn.files ? fileCount(turn.files) : '',
		outcome,
		relativeTime(turn.startedAt, now),
	].filter(Boolean);
	const facts = [
		vscode.l10n.t('Status: {0}', turn.status),
		turn.winner
			? vscode.l10n.t('Winner: {0} ({1})', turn.winner.agentId, turn.winner.label)
			: vscode.l10n.t('No winner'),
		vscode.l10n.t('Cost: {0}', cost || vscode.l10n.t('no price')),
	];
	const name = turn.plan ? planRunName(turn.plan) : questionLine(turn.question);
	const tooltip = [
		`**${escapeMarkdown(name)}**`,
		facts.join(' · '),
		vscode.l10n.t('Started {0}', fullDate(turn.startedAt)),
		turn.changes === 'none'
			? vscode.l10n.t('No changes proposed')
			: vscode.l10n.t('Changes: {0}', turn.changes),
		vscode.l10n.t('Run `{0}`', turn.runId),
		turn.madeHere ? '' : notMadeHereTooltip(),
	].filter(Boolean);
	// A foreign run offers no Revert Run (its change words drive that menu); the command refuses it too.
	// A plan's run offers Execute Plan (`plan`): the plan document is in the run's folder.
	const words = turn.madeHere
		? ['turn', ...(node.isLast ? ['last'] : []), ...changeWords(turn.changes), ...(turn.plan ? ['plan'] : [])]
		: ['turn', 'foreign', ...(node.isLast ? ['last'] : [])];
	return {
		label: name,
		description: description.join(' · '),
		tooltip: tooltip.join('\n\n'),
		...statusLook[turn.status],
		contextValue: words.join(' '),
		collapsed: 'none',
	};
}

/** A run this machine did not make: it came with the folder (`ownRuns.ts`). */
function notMadeHere(): string {
	return vscode.l10n.t('not made on this machine');
}

function notMadeHereTooltip(): string {
	return vscode.l10n.t(
		'Not made on this machine: it came with the folder (a clone or a copy), so MassGen does not continue or revert it.',
	);
}

function changeWords(outcome: TurnSummary['changes']): string[] {
	return outcome === 'none' ? [] : [`changes-${outcome}`];
}

/** `just now`, `5m ago`, `3h ago`, `2d ago`, then the date. */
export function relativeTime(iso: string, now: Date): string {
	const at = Date.parse(iso);
	if (Number.isNaN(at)) return iso;
	const minutes = Math.floor((now.getTime() - at) / 60_000);
	if (minutes < 1) return vscode.l10n.t('just now');
	if (minutes < 60) return vscode.l10n.t('{0}m ago', minutes);
	const hours = Math.floor(minutes / 60);
	if (hours < 24) return vscode.l10n.t('{0}h ago', hours);
	const days = Math.floor(hours / 24);
	if (days < 30) return vscode.l10n.t('{0}d ago', days);
	return new Date(at).toISOString().slice(0, 10);
}

/** USD as the panel shows it; '' without a price. */
export function formatCost(usd: number | null): string {
	if (usd === null) return '';
	if (usd === 0) return '$0';
	return `$${usd < 0.01 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

function fullDate(iso: string): string {
	const at = new Date(iso);
	return Number.isNaN(at.getTime()) ? iso : at.toLocaleString();
}

function fileCount(count: number): string {
	return count === 1 ? vscode.l10n.t('1 file') : vscode.l10n.t('{0} files', count);
}

function plural(count: number, one: 'session' | 'turn'): string {
	if (one === 'session') {
		return count === 1 ? vscode.l10n.t('1 session') : vscode.l10n.t('{0} sessions', count);
	}
	return count === 1 ? vscode.l10n.t('1 turn') : vscode.l10n.t('{0} turns', count);
}
