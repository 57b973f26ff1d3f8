/**
 * What the Runs view's rows do: open in the panel, continue, fork, re-run, open the log, reveal
 * the changed files, delete, pin. Each takes the row (and, for delete, the selection) the menu passes.
 */
import { isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { deleteRuns } from '../../core/runStore/pruneRuns.js';
import { runDirOf } from '../../contract/runLayout.js';
import type { TurnSummary } from '../../core/sessions/sessionTypes.js';
import { errorMessage } from '../../core/util/errorMessage.js';
import { commandIds } from '../common/commandIds.js';
import type { ChangeActions, RunRequest, RunService } from '../run/runTypes.js';
import { liveOf } from './liveRunActions.js';
import { recordedAttachments, rerunAttachments } from './rerunRequest.js';
import type { RunsNode, SessionNode, TurnNode } from './runsTreeModel.js';
import type { SessionPins } from './sessionPins.js';
import { runName } from '../common/runName.js';

export interface RunsActionDeps {
	readonly runs: Pick<RunService, 'start'>;
	/** Shows a run in the panel (as its past-runs list does). */
	readonly openInPanel: (runId: string) => Promise<void>;
	readonly changes: Pick<ChangeActions, 'pendingRunIds'>;
	readonly pins: SessionPins;
	readonly log: vscode.LogOutputChannel;
	/** The view shows the runs again (after a delete or a pin). */
	readonly refresh: () => void;
	/** A modal yes/no (default: a modal warning with `button`); in-host tests answer it themselves. */
	readonly confirm?: (message: string, button: string) => Promise<boolean>;
}

export class RunsActions {
	private readonly _confirm: (message: string, button: string) => Promise<boolean>;

	constructor(private readonly _deps: RunsActionDeps) {
		this._confirm = _deps.confirm ?? modalConfirm;
	}

	/** A turn, or a live run that has started (a queued one has nothing to show yet). */
	async open(node: unknown): Promise<void> {
		const runId = turnOf(node)?.turn.runId ?? liveOf(node)?.runId;
		if (runId) await this._deps.openInPanel(runId);
	}

	/** A follow-up after the session's last turn. `question` (a command argument) skips the input box. */
	async continue(node: unknown, question?: unknown): Promise<void> {
		const last = lastTurnOf(node);
		if (!last) return;
		const asked = await questionFrom(question, vscode.l10n.t('Continue: {0}', last.turn.question));
		if (asked) await this._start(last.root, { question: asked, kind: 'ask', continueFrom: last.turn.runId });
	}

	/** A follow-up after this very turn, as a new session line. */
	async fork(node: unknown, question?: unknown): Promise<void> {
		const turn = turnOf(node);
		if (!turn) return;
		const asked = await questionFrom(question, vscode.l10n.t('Fork from: {0}', turn.turn.question));
		if (!asked) return;
		await this._start(turn.root, { question: asked, kind: 'ask', continueFrom: turn.turn.runId, fork: true });
	}

	/** The same question and attachments, with the same history (a sibling of the turn). */
	async rerun(node: unknown): Promise<void> {
		const turn = turnOf(node);
		if (!turn) return;
		// A planted question would be asked as the user's own, as a planted turn would be continued.
		if (!turn.turn.madeHere) {
			void vscode.window.showErrorMessage(
				vscode.l10n.t(
					'MassGen: the run {0} was not made on this machine, so it is not re-run: a cloned repository can ship run folders.',
					runName(turn.turn.question),
				),
			);
			return;
		}
		// The listing keeps a cut question; the run's own record has it whole.
		const { readTurn } = await import('../../core/sessions/readSessions.js');
		const whole = await readTurn(turn.root, turn.turn.runId, new Set([turn.turn.runId]));
		const question = 'reason' in whole ? turn.turn.question : whole.question;
		const runDir = runDirOf(turn.root, turn.turn.runId);
		const { requests, leftOut } = rerunAttachments(await recordedAttachments(runDir).catch(() => []));
		if (leftOut.length) {
			void vscode.window.showWarningMessage(
				vscode.l10n.t(
					'MassGen: re-running without {0} (its text is not kept in the run).',
					leftOut.join(', '),
				),
			);
		}
		const parent = turn.turn.parentRunId;
		await this._start(turn.root, {
			question,
			kind: 'ask',
			...(parent ? { continueFrom: parent, fork: true } : {}),
			...(requests.length ? { attachments: requests } : {}),
		});
	}

	async openLog(node: unknown): Promise<void> {
		const turn = turnOf(node);
		if (turn) {
			await vscode.commands.executeCommand(commandIds.openRunLog, runDirOf(turn.root, turn.turn.runId));
		}
	}

	/** A quick pick of the files the run's change set touches; the picked one opens. */
	async revealChanges(node: unknown): Promise<void> {
		const turn = turnOf(node);
		if (!turn) return;
		const paths = await changedPaths(runDirOf(turn.root, turn.turn.runId));
		if (paths.length === 0) {
			void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: this run proposed no changes.'));
			return;
		}
		const picked = await vscode.window.showQuickPick(
			paths.map((path) => ({ label: path })),
			{
				title: vscode.l10n.t('MassGen: files changed for {0}', runName(turn.turn.question)),
				placeHolder: vscode.l10n.t('Open which file?'),
			},
		);
		if (!picked) return;
		const uri = vscode.Uri.file(join(turn.root, picked.label));
		try {
			await vscode.window.showTextDocument(uri, { preview: true });
		} catch {
			void vscode.window.showInformationMessage(
				vscode.l10n.t('MassGen: {0} does not exist in the workspace now.', picked.label),
			);
		}
	}

	/**
	 * A turn's report, or a session's (every turn up to its last), as an untitled Markdown
	 * document: the user decides whether and where to save it. Run directories are redacted.
	 */
	async exportMarkdown(node: unknown): Promise<void> {
		const session = sessionOf(node);
		const turn = turnOf(node);
		const root = session?.root ?? turn?.root;
		if (!root) return;
		const { exportRunMarkdown, exportSessionMarkdown } =
			await import('../../core/sessions/exportMarkdown.js');
		const content = session
			? await exportSessionMarkdown(root, session.session.turns.at(-1)!.runId)
			: await exportRunMarkdown(root, turn!.turn.runId);
		const document = await vscode.workspace.openTextDocument({ language: 'markdown', content });
		await vscode.window.showTextDocument(document, { preview: false });
	}

	/**
	 * Deletes the selected runs (a session row stands for all its turns) after a confirmation, and
	 * a second, explicit one when some of them still have changes waiting for Accept or Reject.
	 */
	async delete(node: unknown, selection?: unknown): Promise<void> {
		const nodes = Array.isArray(selection) && selection.includes(node) ? selection : [node];
		const turns = uniqueTurns(nodes.flatMap(turnsOf));
		if (turns.length === 0) return;
		const what =
			turns.length === 1
				? vscode.l10n.t('the run "{0}"', turns[0]!.turn.question.split('\n')[0])
				: vscode.l10n.t('{0} runs', turns.length);
		const sure = await this._confirm(
			vscode.l10n.t(
				'Delete {0}? Its run directory (log, answers, proposed changes) is removed from .massgen/runs/.',
				what,
			),
			'Delete',
		);
		if (!sure) return;
		const pendingRunIds = new Set(this._deps.changes.pendingRunIds());
		const pending = turns.filter((t) => isPending(t.turn) || pendingRunIds.has(t.turn.runId));
		if (pending.length > 0) {
			const anyway = await this._confirm(
				pending.length === 1
					? vscode.l10n.t('One run has changes that were never accepted or rejected. Delete them too?')
					: vscode.l10n.t(
							'{0} runs have changes that were never accepted or rejected. Delete them too?',
							pending.length,
						),
				vscode.l10n.t('Delete Anyway'),
			);
			if (!anyway) return;
		}
		try {
			for (const [root, ids] of groupByRoot(turns)) await deleteRuns(root, ids);
			this._deps.log.info(`runs view: deleted ${turns.map((t) => t.turn.runId).join(', ')}`);
		} catch (error) {
			void vscode.window.showErrorMessage(vscode.l10n.t('MassGen: cannot delete: {0}', errorMessage(error)));
		} finally {
			this._deps.refresh();
		}
	}

	async pin(node: unknown, pinned: boolean): Promise<void> {
		const session = sessionOf(node);
		if (!session) return;
		await this._deps.pins.set(session.session.id, pinned);
		this._deps.refresh();
	}

	/** A run in the folder of the runs it follows (`root`), whichever folder the editor is in. */
	private async _start(root: string, request: RunRequest): Promise<void> {
		await this._deps.runs.start({ ...request, folder: vscode.Uri.file(root) });
	}
}

/** Changes still waiting on the user (a partly accepted set has files left). */
export function isPending(turn: TurnSummary): boolean {
	return turn.changes === 'pending' || turn.changes === 'partly-accepted';
}

async function modalConfirm(message: string, button: string): Promise<boolean> {
	return (await vscode.window.showWarningMessage(message, { modal: true }, button)) === button;
}

function askFollowUp(title: string): Thenable<string | undefined> {
	return vscode.window
		.showInputBox({
			title: vscode.l10n.t('MassGen: {0}', title.split('\n')[0]!.slice(0, 80)),
			prompt: vscode.l10n.t('The follow-up question; the team sees the earlier turns.'),
			ignoreFocusOut: true,
			validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('Type a question.')),
		})
		.then((value) => value?.trim() || undefined);
}

function isNode(value: unknown): value is RunsNode {
	return typeof value === 'object' && value !== null && 'kind' in value && 'id' in value;
}

function turnOf(node: unknown): TurnNode | undefined {
	return isNode(node) && node.kind === 'turn' ? node : undefined;
}

function sessionOf(node: unknown): SessionNode | undefined {
	return isNode(node) && node.kind === 'session' ? node : undefined;
}

/** A session row's last turn; a turn row (the menu offers Continue on the last one only) itself. */
function lastTurnOf(node: unknown): { root: string; turn: TurnSummary } | undefined {
	const session = sessionOf(node);
	const last = session?.session.turns.at(-1);
	if (session && last) return { root: session.root, turn: last };
	return turnOf(node);
}

/** The command argument when it is a question, else the user's answer in an input box. */
async function questionFrom(arg: unknown, title: string): Promise<string | undefined> {
	if (typeof arg === 'string' && arg.trim()) return arg.trim();
	return askFollowUp(title);
}

function turnsOf(node: unknown): TurnNode[] {
	if (!isNode(node)) return [];
	if (node.kind === 'turn') return [node];
	if (node.kind === 'live' || node.kind === 'live-group') return [];
	if (node.kind === 'session') {
		return node.session.turns.map((turn) => ({
			kind: 'turn',
			id: `${node.root}#${turn.runId}`,
			root: node.root,
			runId: turn.runId,
			turn,
			isLast: turn === node.session.turns.at(-1),
		}));
	}
	return node.children.flatMap(turnsOf);
}

function uniqueTurns(turns: TurnNode[]): TurnNode[] {
	return [...new Map(turns.map((turn) => [turn.id, turn])).values()];
}

function groupByRoot(turns: readonly TurnNode[]): Map<string, string[]> {
	const groups = new Map<string, string[]>();
	for (const { root, turn } of turns) groups.set(root, [...(groups.get(root) ?? []), turn.runId]);
	return groups;
}

/** The paths of the change set `result.json` records. */
async function changedPaths(runDir: string): Promise<string[]> {
	const { readProposedChanges } = await import('../../core/runStore/readResult.js');
	// Workspace-relative as recorded; anything reaching outside the folder is left out.
	return (await readProposedChanges(runDir)).paths.filter(
		(path) => !isAbsolute(path) && !path.split(/[\\/]/).includes('..'),
	);
}
