/**
 * `massgen.maxCostUsdPerDay` at the run controller: the day's spend is the window's workspace
 * folders' runs finished today (`spentOnDay`, read through the engine bundle) plus what the runs
 * going now hold (`heldByGoing`: each its whole cost cap). A run is refused before it is prepared
 * when the finished runs alone reached the cap, and again when it leaves the queue if the held caps
 * leave nothing; one that starts gets the lower of its own cap and what is left. Admissions take
 * turns, so two runs leaving the queue together see each other's grant.
 */
import * as vscode from 'vscode';
import { dayBudget, type GoingRun } from '../../core/run/dayBudget.js';
import { formatUsd } from '../../core/run/costEstimate.js';
import { RunsDirError } from '../../core/runStore/runsDirGuard.js';
import type { UserBudget } from '../../core/run/runBudgetOf.js';
import type { RunState } from '../../protocol/runState.js';
import { readLowestNumber, settings } from '../common/settings.js';
import type { Engine } from './loadEngine.js';
import type { RunRefusal } from './runTypes.js';

/** A run of the window (queued ones hold nothing: no cap granted, nothing spent). */
export interface GoingInfo {
	readonly ticket: string;
	readonly runId: string | undefined;
	readonly state: RunState;
}

export class DayCap {
	/** The cost cap each going run was given here (before its `run-start` says it). */
	private readonly _granted = new Map<string, number>();
	private _turn: Promise<unknown> = Promise.resolve();

	constructor(
		private readonly _now: () => number,
		private readonly _log: vscode.LogOutputChannel,
	) {}

	/** Whether a day cap is set for runs in `folder`. */
	applies(folder: vscode.Uri): boolean {
		return perDay(folder) !== undefined;
	}

	/** Before a run is prepared: refused (and told) when today's finished runs reached the cap. */
	async check(folder: vscode.Uri, engine: Pick<Engine, 'spentOnDay'>): Promise<RunRefusal | undefined> {
		const perDayUsd = perDay(folder);
		if (perDayUsd === undefined) return undefined;
		const spentUsd = await this._spent(engine, new Set());
		return spentUsd >= perDayUsd ? this._refuse(perDayUsd, spentUsd, 0) : undefined;
	}

	/**
	 * When the run leaves the queue: its budget under the day's cap (`budget` itself when there is
	 * no day cap), or a refusal the user was told. `going()` is read in this admission's turn.
	 */
	admit(
		ticket: string,
		folder: vscode.Uri,
		budget: UserBudget,
		going: () => readonly GoingInfo[],
		engine: Pick<Engine, 'spentOnDay'>,
	): Promise<UserBudget | RunRefusal> {
		const turn = this._turn.then(async () => {
			const perDayUsd = perDay(folder);
			if (perDayUsd === undefined) return budget;
			const others = going().filter((run) => run.ticket !== ticket);
			const exclude = new Set(others.flatMap((run) => (run.runId ? [run.runId] : [])));
			const spentUsd = await this._spent(engine, exclude);
			// Read again after the await: a run that started meanwhile holds its cap too.
			const held: GoingRun[] = going()
				.filter((run) => run.ticket !== ticket)
				.map((run) => ({
					capUsd: run.state.budget?.maxCostUsd ?? this._granted.get(run.ticket) ?? null,
					spentUsd: spentOf(run.state),
				}));
			const verdict = dayBudget({
				perDayUsd,
				source: settings.maxCostUsdPerDay.key,
				spentUsd,
				going: held,
				perRun: budget.maxCostUsd,
			});
			if (!verdict.ok) return this._refuse(perDayUsd, verdict.spentUsd, verdict.heldUsd);
			const limit = verdict.maxCostUsd?.limit;
			if (typeof limit === 'number') this._granted.set(ticket, limit);
			return { ...budget, ...(verdict.maxCostUsd ? { maxCostUsd: verdict.maxCostUsd } : {}) };
		});
		this._turn = turn.catch(() => undefined);
		return turn;
	}

	/** The run ended (or never started). */
	release(ticket: string): void {
		this._granted.delete(ticket);
	}

	/** Today's finished runs of every folder of the window (a multi-root window shares one day). */
	private async _spent(engine: Pick<Engine, 'spentOnDay'>, exclude: ReadonlySet<string>): Promise<number> {
		const now = new Date(this._now());
		const roots = new Set((vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath));
		let usd = 0;
		for (const root of roots) {
			try {
				usd += (await engine.spentOnDay(root, now, { exclude })).usd;
			} catch (error) {
				// A folder whose `.massgen` is a link has no runs of ours to read (none can be written
				// there either): it counts nothing rather than stop every folder's runs.
				if (!RunsDirError.is(error)) throw error;
				this._log.warn(`day cap: ${root} counts nothing: ${error.message}`);
			}
		}
		return usd;
	}

	private _refuse(perDayUsd: number, spentUsd: number, heldUsd: number): RunRefusal {
		const reason = vscode.l10n.t(
			"today's spend reached {0} ({1}): {2} by today's finished runs, {3} held by the runs going now",
			formatUsd(perDayUsd),
			settings.maxCostUsdPerDay.key,
			formatUsd(spentUsd),
			formatUsd(heldUsd),
		);
		this._log.warn(`run not started: ${reason}`);
		void vscode.window.showWarningMessage(vscode.l10n.t('MassGen: the run was not started: {0}.', reason));
		return { refused: 'budget', reason };
	}
}

/** `massgen.maxCostUsdPerDay`, the lowest level that is set; undefined: no day cap. */
function perDay(folder: vscode.Uri): number | undefined {
	return readLowestNumber('maxCostUsdPerDay', folder, Number.MIN_VALUE);
}

/** What a run has spent so far: its lanes' priced calls. */
function spentOf(state: RunState): number {
	let usd = 0;
	for (const lane of Object.values(state.agents)) if (lane.costUsd !== null) usd += lane.costUsd;
	return usd;
}
