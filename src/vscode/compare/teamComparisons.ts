import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle.js';
import type { RunTeam } from '../run/runTeam.js';
import type { RunController } from '../run/runController.js';
import { changeUri } from '../changes/changeUri.js';
import type { Comparison, TeamRun } from './comparison.js';
import { type ChangeSetState, compareCommands, comparisonPage } from './comparisonPage.js';
import type { RunChangeSets } from './runChangeSets.js';

/** One team as the user picked it: its name in the comparison and its config (none: the folder's team). */
export interface AskedTeam {
	readonly label: string;
	readonly team?: RunTeam;
}

export interface TeamComparisonsDeps {
	readonly runs: Pick<RunController, 'tryStart'>;
	readonly changes: RunChangeSets;
	readonly log: vscode.LogOutputChannel;
}

interface Entry {
	readonly comparison: Comparison;
	/** What this comparison's Accept did to each run's change set. */
	readonly decided: Map<string, 'accepted' | 'discarded'>;
	panel: vscode.WebviewPanel | undefined;
}

/** How many comparisons of this window stay answerable (their links, their diffs). */
const keptComparisons = 5;

/**
 * Ask Several Teams: one question, one run per team (each a normal run through the run
 * controller, so the queue and its limit apply), then a read-only page comparing their outcomes,
 * from which one team's change set is accepted through the change review and the others' discarded.
 */
export class TeamComparisons extends Disposable {
	private readonly _entries = new Map<string, Entry>();
	private _count = 0;

	constructor(private readonly _deps: TeamComparisonsDeps) {
		super();
		this._register(_deps.changes.onDidChange(() => this._renderAll()));
		this._register({ dispose: () => this._entries.forEach((entry) => entry.panel?.dispose()) });
	}

	/**
	 * Runs the question on every team at once and opens the comparison when all have ended;
	 * resolves to the comparison's id (undefined when `token` cancelled it before any ended).
	 */
	async ask(
		question: string,
		teams: readonly AskedTeam[],
		token?: vscode.CancellationToken,
	): Promise<string> {
		this._deps.log.info(`compare: "${question}" on ${teams.map((team) => team.label).join(', ')}`);
		const outcomes = await Promise.all(
			teams.map((asked) =>
				this._deps.runs.tryStart(
					{ question, kind: 'ask', ...(asked.team ? { team: asked.team } : {}) },
					token,
				),
			),
		);
		const runs = outcomes.map((outcome, i): TeamRun =>
			'run' in outcome
				? { team: teams[i]!.label, result: outcome.run.result }
				: { team: teams[i]!.label, refused: outcome.reason },
		);
		const { buildComparison } = await import('./comparison.js');
		const id = `comparison-${++this._count}`;
		this._entries.set(id, {
			comparison: buildComparison(question, runs),
			decided: new Map(),
			panel: undefined,
		});
		for (const old of this._entries.keys()) {
			if (this._entries.size <= keptComparisons) break;
			this._entries.get(old)?.panel?.dispose();
			this._entries.delete(old);
		}
		this._show(id);
		return id;
	}

	/** A comparison as its page shows it (in-host tests). */
	view(id: string):
		| {
				readonly comparison: Comparison;
				readonly states: Record<string, ChangeSetState>;
				readonly html: string;
		  }
		| undefined {
		const entry = this._entries.get(id);
		if (!entry) return undefined;
		const states = Object.fromEntries(
			entry.comparison.outcomes.map((o) => [o.runId, this._state(entry, o.runId)]),
		);
		return { comparison: entry.comparison, states, html: this._page(id, entry) };
	}

	/**
	 * The page's "Accept This Team's Changes": the run's change set through the change review;
	 * once nothing of it is pending any more, the other teams' change sets are discarded. An
	 * accept the user cancels (or that leaves files to review) discards nothing.
	 */
	async accept(id: unknown, runId: unknown): Promise<void> {
		const entry = typeof id === 'string' ? this._entries.get(id) : undefined;
		const outcome = entry?.comparison.outcomes.find((o) => o.runId === runId);
		if (!entry || !outcome) {
			this._deps.log.warn('compare: that comparison or team is no longer known');
			return;
		}
		const { changes, log } = this._deps;
		if (!changes.pending(outcome.runId)) {
			void vscode.window.showInformationMessage(
				vscode.l10n.t('MassGen: the changes of team {0} are no longer pending.', outcome.team),
			);
			return;
		}
		await changes.accept(outcome.runId);
		if (changes.pending(outcome.runId)) {
			log.info(`compare: run ${outcome.runId} still has changes to review; the other teams' are kept`);
			this._renderAll();
			return;
		}
		entry.decided.set(outcome.runId, 'accepted');
		for (const other of entry.comparison.outcomes) {
			if (other.runId === outcome.runId || !changes.pending(other.runId)) continue;
			await changes.reject(other.runId);
			if (!changes.pending(other.runId)) entry.decided.set(other.runId, 'discarded');
		}
		log.info(`compare: accepted team ${outcome.team} (run ${outcome.runId})`);
		this._renderAll();
	}

	/** The page's "Compare": one file as team A's change set leaves it beside team B's. */
	async diff(id: unknown, a: unknown, b: unknown, path: unknown): Promise<void> {
		const entry = typeof id === 'string' ? this._entries.get(id) : undefined;
		const pair = entry?.comparison.differences.find((p) => p.a === a && p.b === b);
		const file = pair?.files.find((f) => f.path === path);
		if (!entry || !pair || !file) {
			this._deps.log.warn('compare: that file is not part of the comparison');
			return;
		}
		const name = (runId: string) => entry.comparison.outcomes.find((o) => o.runId === runId)?.team ?? runId;
		// A team that leaves the file alone shows it as the other team's run read it.
		const left =
			file.side === 'b' ? changeUri(pair.b, 'base', file.path) : changeUri(pair.a, 'final', file.path);
		const right =
			file.side === 'a' ? changeUri(pair.a, 'base', file.path) : changeUri(pair.b, 'final', file.path);
		const title = vscode.l10n.t('{0} ({1} ↔ {2})', file.path, name(pair.a), name(pair.b));
		await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
	}

	private _state(entry: Entry, runId: string): ChangeSetState {
		return entry.decided.get(runId) ?? (this._deps.changes.pending(runId) ? 'pending' : 'none');
	}

	private _page(id: string, entry: Entry): string {
		return comparisonPage({
			id,
			comparison: entry.comparison,
			changeSet: (runId) => this._state(entry, runId),
			nonce: randomBytes(16).toString('base64'),
		});
	}

	private _show(id: string): void {
		const entry = this._entries.get(id)!;
		const panel = vscode.window.createWebviewPanel(
			'massgen.comparison',
			vscode.l10n.t('MassGen: Team Comparison'),
			// A group of its own, the focus left where it is: the change review opens the runs' diffs in
			// the active group, so neither hides the other.
			{ viewColumn: vscode.ViewColumn.Two, preserveFocus: true },
			{ enableScripts: false, enableCommandUris: Object.values(compareCommands), localResourceRoots: [] },
		);
		entry.panel = panel;
		panel.onDidDispose(() => (entry.panel = undefined));
		panel.webview.html = this._page(id, entry);
	}

	private _renderAll(): void {
		for (const [id, entry] of this._entries) {
			if (entry.panel) entry.panel.webview.html = this._page(id, entry);
		}
	}
}
