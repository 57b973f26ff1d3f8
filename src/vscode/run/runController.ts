import * as vscode from 'vscode';
import { AttachmentError } from '../../core/context/attachment.js';
import type { Turn } from '../../core/orchestrator/types.js';
import type { ApprovalBroker } from '../../core/permissions/approvalBroker.js';
import type { PermissionStore } from '../../core/permissions/permissionEngine.js';
import { EstimateDeclinedError } from '../../core/run/estimateDeclinedError.js';
import type { FinishOutcome, SteerMessage, SteerOutcome } from '../../core/run/runControl.js';
import type { RunHandle } from '../../core/run/startRun.js';
import type { RunState } from '../../protocol/runState.js';
import { abortSignalFromToken } from '../common/cancellation.js';
import { contextKeys } from '../common/commandIds.js';
import { Disposable, toDisposable } from '../common/lifecycle.js';
import { lmMember } from '../lm/lmMember.js';
import type { SessionSecrets } from '../common/log.js';
import type { KeyStore } from '../common/secrets.js';
import type { ShownQuestions } from '../common/shownQuestions.js';
import type { ConfigDiagnostics } from '../config/configDiagnostics.js';
import {
	onDidChangeSettings,
	readInstructionsEnabled,
	readMaxConcurrent,
	settings,
} from '../common/settings.js';
import { WorkspaceConsent } from '../trust/workspaceConsent.js';
import { DayCap, type GoingInfo } from './dayCap.js';
import { editorRunHost } from './editorRunHost.js';
import { ConversationMemory } from './conversationMemory.js';
import { LiveRun, type RunEventBatch } from './liveRun.js';
import { RecentStates } from './recentStates.js';
import { RunQueue } from './runQueue.js';
import type { Engine } from './loadEngine.js';
import type { NoModelChoice } from './noModelOffer.js';
import { reportAttachmentProblem, reportUnexpected } from './runMessages.js';
import { cancelled, dequeued, queueFull, reportPrepareRefusal } from './runRefusals.js';
import { runFolderFor } from './runFolderChoice.js';
import type { RunStatusBar } from './runStatusBar.js';
import type {
	ActiveRunInfo,
	FinishedRun,
	RunRequest,
	RunService,
	StartOutcome,
	StartedRun,
} from './runTypes.js';
import { ToolNotices } from './toolNotices.js';

export interface RunControllerDeps {
	readonly log: vscode.LogOutputChannel;
	/** What runs resolved as secret: the log, notifications and panel redact it (omitted: notifications are not redacted). */
	readonly secrets?: SessionSecrets;
	readonly keys: KeyStore;
	readonly diagnostics: ConfigDiagnostics;
	readonly statusBar: RunStatusBar;
	/** The extension's `configs/` folder. */
	readonly shippedConfigsDir: string;
	/** Environment keys are read from here (the extension host's environment). */
	readonly env?: NodeJS.ProcessEnv;
	/** Coalescing interval of the live event batches. */
	readonly batchMs?: number;
	/** The run engine (`dist/engine.js`, see `engineLoader`), loaded at the first run. */
	readonly engine: () => Promise<Engine>;
	/**
	 * Tools beyond the workspace (MCP, `run_command`) behind the permission engine: the one broker
	 * of the extension (the panel's cards and the notifications answer it) and the "always allow"
	 * grants of this workspace. Omitted = the agents get the workspace tools only.
	 */
	readonly approvals?: { readonly broker: ApprovalBroker; readonly store?: PermissionStore };
	/**
	 * The user's consent to a workspace's own programs and key hosts (`WorkspaceConsent` over the
	 * extension's globalState). Omitted: remembered by this controller only.
	 */
	readonly consent?: WorkspaceConsent;
	/** Workspace Trust (default: `vscode.workspace.isTrusted`; in-host tests stand in Restricted Mode). */
	readonly isTrusted?: () => boolean;
	/** Where the provider-tools question and the no-model offer are recorded when asked (the in-host tests read them). */
	readonly questions?: ShownQuestions;
	/** VS Code's chat models, for the no-model offer (default: `memberChatModels`). */
	readonly lmModels?: () => Promise<readonly unknown[]>;
	/** How many runs may go at once (default: `massgen.runs.maxConcurrent`); the rest wait in the queue. */
	readonly maxConcurrent?: () => number;
	/** Asked times (ms; default `Date.now`). */
	readonly now?: () => number;
}

export type { RunEventBatch };

/** One run of this window that has not ended, as the controller keeps it. */
interface ActiveRun {
	readonly ticket: string;
	readonly request: RunRequest;
	readonly folder: vscode.WorkspaceFolder;
	readonly tokens: vscode.CancellationTokenSource;
	readonly live: LiveRun;
	phase: ActiveRunInfo['phase'];
	readonly askedAt: number;
	startedAt: number | undefined;
}

/**
 * The one place runs start (Ask team, the panel's question box, Review selection, Chat, the LM
 * tool, the model picker): the window's runs, each with its own state, cancellation, approvals and
 * change set, at most `maxConcurrent` at once (`RunQueue`; the rest wait in order). It coordinates
 * the rest — the folder (`runFolderFor`), the core's `prepareRun`/`startRun` over `editorRunHost`,
 * each run's live state and batches (`LiveRun`), and the last answered ask (`ConversationMemory`).
 * It keeps no thread: a follow-up names the run it continues and its history is read back from the
 * run directories.
 */
export class RunController extends Disposable implements RunService {
	private readonly _onDidFinishRun = this._register(new vscode.EventEmitter<FinishedRun>());
	readonly onDidFinishRun = this._onDidFinishRun.event;
	private readonly _onDidStartRun = this._register(new vscode.EventEmitter<StartedRun>());
	/** A run's team is resolved, it left the queue and its first event is on the way (the panel shows it). */
	readonly onDidStartRun = this._onDidStartRun.event;
	private readonly _onDidEmitEvents = this._register(new vscode.EventEmitter<RunEventBatch>());
	/** Every run's live events, in batches (each batch is one run's: `runId`). */
	readonly onDidEmitEvents = this._onDidEmitEvents.event;
	private readonly _onDidChangeActive = this._register(new vscode.EventEmitter<void>());
	/** A run was asked, queued, moved, started or ended (`active()` changed; not for each event). */
	readonly onDidChangeActive = this._onDidChangeActive.event;

	private readonly _active = new Map<string, ActiveRun>();
	private readonly _queue: RunQueue;
	private _tickets = 0;
	/** The live state of the newest run that started, and of the last few that ended. */
	private _latest: LiveRun | undefined;
	private readonly _finished = new RecentStates();
	private readonly _memory = new ConversationMemory();
	/** Runs of this window on a shipped team the user picked (`RunRequest.preset`): their follow-ups keep it. */
	private readonly _presetRuns = new Map<string, NonNullable<RunRequest['preset']>>();
	private _runActiveKey = false;
	private readonly _now: () => number;

	private readonly _consent: WorkspaceConsent;
	private readonly _dayCap: DayCap;

	constructor(private readonly _deps: RunControllerDeps) {
		super();
		this._consent = _deps.consent ?? WorkspaceConsent.forgetful();
		this._now = _deps.now ?? Date.now;
		this._dayCap = new DayCap(this._now, _deps.log);
		this._queue = new RunQueue(_deps.maxConcurrent ?? readMaxConcurrent, () => this._changed());
		this._register(onDidChangeSettings(() => this._queue.refresh(), [settings.maxConcurrent.key]));
		// The window goes: queued runs leave the queue (their callers hear "cancelled"), running ones stop.
		this._register(toDisposable(() => [...this._active.keys()].forEach((ticket) => this.cancel(ticket))));
	}

	/** The state of the newest run that started (going or ended; null before any). */
	get state(): RunState | null {
		return this._latest?.state ?? null;
	}

	/** The live state of a run of this window that is going or ended lately; undefined otherwise. */
	stateOf(runId: string): RunState | undefined {
		for (const run of this._active.values()) if (run.live.runId === runId) return run.live.state;
		return this._finished.get(runId);
	}

	/** The window's runs that have not ended: running first (oldest first), then the queue in order. */
	active(): readonly ActiveRunInfo[] {
		const waiting = this._queue.waiting;
		const rank = (run: ActiveRun) => (run.phase === 'queued' ? 1 + waiting.indexOf(run.ticket) : 0);
		return [...this._active.values()]
			.sort((a, b) => rank(a) - rank(b) || a.askedAt - b.askedAt)
			.map((run) => ({
				ticket: run.ticket,
				runId: run.live.runId,
				request: run.request,
				folder: run.folder,
				phase: run.phase,
				state: run.live.state,
				askedAt: run.askedAt,
				startedAt: run.startedAt,
			}));
	}

	get isRunning(): boolean {
		return this._active.size > 0;
	}

	/** What the `massgen.runActive` context key was last set to. */
	get runActiveContext(): boolean {
		return this._runActiveKey;
	}

	/** The last answered ask's thread as its run was given it, plus that turn; oldest first. */
	get conversation(): readonly Turn[] {
		return this._memory.conversation;
	}

	/** Stop agent (a lane's button): false when the run is not going or the agent cannot be stopped now. */
	stopAgent(runId: string, agentId: string): boolean {
		const run = this._find(runId);
		const stopped = run?.live.stopAgent(agentId) ?? false;
		this._deps.log.info(
			`stop agent ${agentId} of run ${runId}: ${stopped ? 'stopped' : 'not running in coordination'}`,
		);
		return stopped;
	}

	/** A message to the team of run `runId` (a ticket or run id); the outcome's reason says why not. */
	steer(runId: string, message: SteerMessage): SteerOutcome {
		const run = this._find(runId);
		const outcome = run ? run.live.steer(message) : { ok: false as const, reason: notLive() };
		this._deps.log.info(
			`message to ${message.agentId ?? 'every agent'} of run ${runId}${message.noteOnly ? ' (note only)' : ''}: ${
				outcome.ok ? `reaches ${outcome.agents.join(', ')}` : `refused: ${outcome.reason}`
			}`,
		);
		return outcome;
	}

	/** Finish now for run `runId` (a ticket or run id); the outcome's reason says why not. */
	finishNow(runId: string): FinishOutcome {
		const run = this._find(runId);
		const outcome = run ? run.live.finishNow() : { ok: false as const, reason: notLive() };
		this._deps.log.info(`finish now, run ${runId}: ${outcome.ok ? 'asked' : `refused: ${outcome.reason}`}`);
		return outcome;
	}

	/**
	 * Cancels a run (its ticket or run id; none: the only one): a queued run leaves the queue, a
	 * running one stops and its pending approval requests are denied. False when there is no such run.
	 */
	cancel(id?: string): boolean {
		const run = id === undefined ? this._only() : this._find(id);
		if (!run) return false;
		this._deps.log.info(`cancelling run ${run.live.runId ?? run.ticket}`);
		const runId = run.live.runId;
		if (runId) this._deps.approvals?.broker.cancelRun(runId);
		run.tokens.cancel();
		if (run.phase === 'queued') this._queue.release(run.ticket);
		return true;
	}

	/** Starts a queued run now, past the limit; false when it is not queued. */
	startNow(ticket: string): boolean {
		return this._queue.startNow(ticket);
	}

	/** Moves a queued run `delta` places (negative: sooner); false when it is not queued. */
	moveQueued(ticket: string, delta: number): boolean {
		return this._queue.move(ticket, delta);
	}

	/**
	 * Starts a run; `token` (optional, for callers that have one, e.g. a `withProgress` task)
	 * cancels it the way Cancel Run does.
	 */
	async start(request: RunRequest, token?: vscode.CancellationToken): Promise<FinishedRun | undefined> {
		const outcome = await this.tryStart(request, token);
		return 'run' in outcome ? outcome.run : undefined;
	}

	/**
	 * As `start`, and says why when the run did not start (for callers that show it themselves);
	 * `follow` gets this run's live event batches (a chat's progress lines).
	 */
	async tryStart(
		asked: RunRequest,
		token?: vscode.CancellationToken,
		follow?: (batch: RunEventBatch) => void,
	): Promise<StartOutcome> {
		const request = this._keepPreset(asked);
		if (token?.isCancellationRequested) return cancelled();
		const folder = await runFolderFor(request, this._memory.followedRun(request));
		if ('refused' in folder) return folder;
		if (token?.isCancellationRequested) return cancelled();
		const ticket = `run-${++this._tickets}`;
		const live = new LiveRun((batch) => {
			this._deps.statusBar.update(this.active());
			follow?.(batch);
			this._onDidEmitEvents.fire(batch);
		}, this._deps.batchMs);
		const run: ActiveRun = {
			ticket,
			request,
			folder,
			tokens: new vscode.CancellationTokenSource(),
			live,
			phase: 'starting',
			askedAt: this._now(),
			startedAt: undefined,
		};
		this._active.set(ticket, run);
		const caller = token?.onCancellationRequested(() => this.cancel(ticket));
		this._changed();
		try {
			return await this._run(run);
		} catch (error) {
			return { refused: 'error', reason: reportUnexpected(this._deps.log, error, this._redact) };
		} finally {
			caller?.dispose();
			run.tokens.dispose();
			this._active.delete(ticket);
			this._dayCap.release(ticket);
			const runId = live.runId;
			if (runId) this._finished.keep(runId, live.state);
			this._queue.release(ticket);
			this._changed();
		}
	}

	private async _run(run: ActiveRun): Promise<StartOutcome> {
		const { request, folder } = run;
		const token = run.tokens.token;
		const { log } = this._deps;
		const root = folder.uri.fsPath;
		const engine = await this._deps.engine();
		// No await without a day cap: runs asked together keep their order into the queue.
		const overDay = this._dayCap.applies(folder.uri) && (await this._dayCap.check(folder.uri, engine));
		if (overDay) return overDay;
		const abort = abortSignalFromToken(token);
		try {
			const host = editorRunHost({
				...this._deps,
				...(request.preset ? { preset: request.preset } : {}),
				...(request.team ? { team: request.team } : {}),
				engine,
				folder,
				// Read once: the team config choice, `.env` and the tools all see the same answer.
				trusted: this._deps.isTrusted?.() ?? vscode.workspace.isTrusted,
				consent: this._consent,
				signal: abort.signal,
			});
			const from = request.kind === 'ask' ? this._memory.followedRun(request) : undefined;
			// Prepared before it queues: the trust and cost questions come while the user is asking.
			const prepared = await engine.prepareRun(
				{
					question: request.question,
					workspaceRoot: root,
					...(from ? { followUp: { from, fork: request.fork === true } } : {}),
					...(!from && request.history?.length ? { history: request.history } : {}),
					...(request.attachments?.length ? { attachments: request.attachments } : {}),
					...(request.addModel ? { addedAgents: [lmMember(request.addModel)] } : {}),
					...(request.kind === 'ask' && request.revision ? { revision: request.revision } : {}),
					...(request.kind === 'plan' ? { readOnly: true } : {}),
					...(request.plan ? { plan: request.plan } : {}),
					// Never read untrusted either: the core checks the host's trust (`startRun`).
					...(readInstructionsEnabled(folder.uri) ? {} : { instructions: false }),
					budget: host.budget,
					signal: abort.signal,
				},
				host,
			);
			if (!prepared.ok) {
				return reportPrepareRefusal(prepared, {
					...this._deps,
					redact: this._redact,
					runChosen: (choice) => void this._runChosen(request, choice),
				});
			}
			if (token.isCancellationRequested) return cancelled();
			run.phase = 'queued';
			this._changed();
			const exit = await this._queue.enter(run.ticket);
			if (exit === 'full') return queueFull(this._queue.waiting.length, this._deps.log);
			if (exit === 'removed' || token.isCancellationRequested) {
				return token.isCancellationRequested ? cancelled() : dequeued();
			}
			const budget = await this._dayCap.admit(
				run.ticket,
				folder.uri,
				host.budget,
				() => this._going(),
				engine,
			);
			if ('refused' in budget) return budget;
			if (token.isCancellationRequested) return cancelled();
			run.phase = 'running';
			run.startedAt = this._now();
			this._latest = run.live;
			this._changed();
			const { followUp } = prepared.run;
			const history = followUp?.history ?? request.history ?? [];
			if (request.kind === 'ask' && !followUp) this._memory.forget();
			const ready =
				budget === host.budget
					? prepared.run
					: { ...prepared.run, request: { ...prepared.run.request, budget } };
			return await this._follow(run, engine.startRun(ready, host), history);
		} catch (error) {
			if (EstimateDeclinedError.is(error)) {
				return { refused: 'cancelled', reason: vscode.l10n.t('not started at its cost estimate') };
			}
			if (!AttachmentError.is(error)) throw error;
			return { refused: 'attachment', reason: reportAttachmentProblem(log, error, this._redact) };
		} finally {
			abort.dispose();
		}
	}

	/** Follows the run live until it ends, then remembers an answered ask and tells who listens. */
	private async _follow(run: ActiveRun, handle: RunHandle, history: readonly Turn[]): Promise<StartOutcome> {
		const { log } = this._deps;
		const { request, folder } = run;
		const toolNotices = new ToolNotices(log, run.tokens.token);
		const outcome = await run.live.follow(handle, (event) => {
			// The team is known and the attachments are read: the run really starts (the panel
			// opens now, not for a config error or an attachment that cannot be given).
			if (event.type === 'run-start' && handle.started) {
				log.info(`run log: ${handle.started.runDir}`);
				if (request.preset) this._presetRuns.set(event.runId, request.preset);
				this._onDidStartRun.fire({ request, runId: event.runId, ticket: run.ticket });
			}
			toolNotices.onEvent(event);
		});
		const { result } = outcome;
		log.info(
			`run ${result.runId}: ${result.status}${result.winner ? `, winner ${result.winner.agentId} (${result.winner.label})` : ''} in ${result.durationMs} ms`,
		);
		if (
			request.kind === 'ask' &&
			result.finalAnswer !== null &&
			result.status !== 'cancelled' &&
			result.status !== 'failed'
		) {
			this._memory.remember(result.runId, history, {
				question: request.question,
				answer: result.finalAnswer,
			});
		}
		const finished: FinishedRun = {
			request,
			result,
			state: run.live.state,
			folder,
			writePolicy: {
				root: outcome.workspace.root,
				protectedPaths: outcome.workspace.protectedPaths,
				secretPaths: outcome.workspace.secretPaths,
			},
			runDir: outcome.runDir,
		};
		// Readable before the listeners run (the panel and the change review ask for it).
		this._finished.keep(result.runId, run.live.state);
		this._onDidFinishRun.fire(finished);
		return { run: finished };
	}

	private readonly _redact = (text: string): string => this._deps.secrets?.text(text) ?? text;

	/** The no-model offer's choice: the same question, on the demo team or as asked. */
	private async _runChosen(request: RunRequest, choice: NoModelChoice): Promise<void> {
		this._deps.log.info(
			`no model yet: running the question ${choice === 'demo' ? 'on the demo team' : 'again'}`,
		);
		await this.start(choice === 'demo' ? { ...request, preset: 'demo' } : request);
	}

	/** A follow-up of a run on a shipped team the user picked stays on that team. */
	private _keepPreset(request: RunRequest): RunRequest {
		if (request.preset || request.kind !== 'ask') return request;
		const followed = this._memory.followedRun(request);
		const preset = followed === undefined ? undefined : this._presetRuns.get(followed);
		return preset ? { ...request, preset } : request;
	}

	/**
	 * The window's runs for the day's cap: a queued one holds nothing, one just admitted its grant
	 * (its phase may not say `running` yet when the next admission takes its turn).
	 */
	private _going(): GoingInfo[] {
		return [...this._active.values()].map((run) => ({
			ticket: run.ticket,
			runId: run.live.runId,
			state: run.live.state,
		}));
	}

	private _find(id: string): ActiveRun | undefined {
		return this._active.get(id) ?? [...this._active.values()].find((run) => run.live.runId === id);
	}

	private _only(): ActiveRun | undefined {
		return this._active.size === 1 ? [...this._active.values()][0] : undefined;
	}

	/** The list changed: the status bar, the context key and who lists the runs hear of it. */
	private _changed(): void {
		const active = this.active();
		this._deps.statusBar.update(active);
		const value = active.length > 0;
		if (value !== this._runActiveKey) {
			this._runActiveKey = value;
			void vscode.commands.executeCommand('setContext', contextKeys.runActive, value);
		}
		this._onDidChangeActive.fire();
	}
}

/** A control for a run this window does not run (ended, or never was). */
function notLive(): string {
	return vscode.l10n.t('That run is not going in this window.');
}
