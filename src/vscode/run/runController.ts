import * as vscode from 'vscode';
import { AttachmentError } from '../../core/context/attachment.js';
import type { Turn } from '../../core/orchestrator/types.js';
import type { ApprovalBroker } from '../../core/permissions/approvalBroker.js';
import type { PermissionStore } from '../../core/permissions/permissionEngine.js';
import { EstimateDeclinedError } from '../../core/run/estimateDeclinedError.js';
import type { PrepareRefusal } from '../../core/run/prepareRun.js';
import type { RunHandle } from '../../core/run/startRun.js';
import { initialRunState, type RunState } from '../../protocol/runState.js';
import { abortSignalFromToken } from '../common/cancellation.js';
import { contextKeys } from '../common/commandIds.js';
import { Disposable } from '../common/lifecycle.js';
import { lmMember } from '../lm/lmMember.js';
import type { SessionSecrets } from '../common/log.js';
import type { KeyStore } from '../common/secrets.js';
import type { ShownQuestions } from '../common/shownQuestions.js';
import type { ConfigDiagnostics } from '../config/configDiagnostics.js';
import { missingConfigMessage } from '../config/teamConfigSetting.js';
import { WorkspaceConsent } from '../trust/workspaceConsent.js';
import { editorRunHost } from './editorRunHost.js';
import { ConversationMemory } from './conversationMemory.js';
import { LiveRun, type RunEventBatch } from './liveRun.js';
import type { Engine } from './loadEngine.js';
import { type NoModelChoice, noModelReason, offerNoModel } from './noModelOffer.js';
import { reportAttachmentProblem, reportTeamProblem, reportUnexpected } from './runMessages.js';
import { runFolderFor } from './runFolderChoice.js';
import type { RunStatusBar } from './runStatusBar.js';
import type { FinishedRun, RunRefusal, RunRequest, RunService, StartOutcome } from './runTypes.js';
import { ToolNotices } from './toolNotices.js';
import { memberChatModels } from '../lm/memberChatModels.js';

const cancelled = (): RunRefusal => ({
	refused: 'cancelled',
	reason: vscode.l10n.t('the run was cancelled before it started'),
});
const runActive = (): RunRefusal => ({
	refused: 'run-active',
	reason: vscode.l10n.t('another MassGen run is in progress'),
});

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
}

export type { RunEventBatch };

interface ActiveRun {
	readonly request: RunRequest;
	readonly tokens: vscode.CancellationTokenSource;
	readonly done: Promise<unknown>;
}

/**
 * The one place runs start (Ask team, the panel's question box, Review selection): owns the active
 * run, its cancellation and the one-run-at-a-time prompt, and coordinates the rest — the folder
 * (`runFolderFor`), the core's `prepareRun`/`startRun` over `editorRunHost`, the live state and its
 * batches (`LiveRun`), and the last answered ask (`ConversationMemory`). It keeps no thread: a
 * follow-up names the run it continues and its history is read back from the run directories.
 */
export class RunController extends Disposable implements RunService {
	private readonly _onDidFinishRun = this._register(new vscode.EventEmitter<FinishedRun>());
	readonly onDidFinishRun = this._onDidFinishRun.event;
	private readonly _onDidStartRun = this._register(new vscode.EventEmitter<RunRequest>());
	/** A run's team is resolved and the run is about to start (the panel shows it). */
	readonly onDidStartRun = this._onDidStartRun.event;
	private readonly _live: LiveRun;
	readonly onDidEmitEvents: vscode.Event<RunEventBatch>;

	private _active: ActiveRun | undefined;
	private readonly _memory = new ConversationMemory();
	/** Runs of this window on a shipped team the user picked (`RunRequest.preset`): their follow-ups keep it. */
	private readonly _presetRuns = new Map<string, NonNullable<RunRequest['preset']>>();
	private _runActiveKey = false;

	private readonly _consent: WorkspaceConsent;

	constructor(private readonly _deps: RunControllerDeps) {
		super();
		this._consent = _deps.consent ?? new WorkspaceConsent(memoryState());
		this._live = this._register(new LiveRun(_deps.statusBar, _deps.batchMs));
		this.onDidEmitEvents = this._live.onDidEmitEvents;
	}

	/** The state of the current run, or of the last one (null before any). */
	get state(): RunState | null {
		return this._live.state;
	}

	get isRunning(): boolean {
		return this._active !== undefined;
	}

	/** What the `massgen.runActive` context key was last set to. */
	get runActiveContext(): boolean {
		return this._runActiveKey;
	}

	/** The last answered ask's thread as its run was given it, plus that turn; oldest first. */
	get conversation(): readonly Turn[] {
		return this._memory.conversation;
	}

	/** Stop agent (the panel's lane button): false when no run is going or the agent cannot be stopped now. */
	stopAgent(agentId: string): boolean {
		const stopped = this._live.stopAgent(agentId);
		this._deps.log.info(`stop agent ${agentId}: ${stopped ? 'stopped' : 'not running in coordination'}`);
		return stopped;
	}

	/** Cancels the active run (its pending approval requests are denied); false when there is none. */
	cancel(): boolean {
		if (!this._active) return false;
		this._deps.log.info('cancelling the run');
		const runId = this._live.state?.runId;
		if (runId) this._deps.approvals?.broker.cancelRun(runId);
		this._active.tokens.cancel();
		return true;
	}

	/**
	 * Starts a run; `token` (optional, for callers that have one, e.g. a `withProgress` task)
	 * cancels it the way Cancel Run does.
	 */
	async start(request: RunRequest, token?: vscode.CancellationToken): Promise<FinishedRun | undefined> {
		const outcome = await this.tryStart(request, token);
		return 'run' in outcome ? outcome.run : undefined;
	}

	/** As `start`, and says why when the run did not start (for callers that show it themselves). */
	async tryStart(asked: RunRequest, token?: vscode.CancellationToken): Promise<StartOutcome> {
		const request = this._keepPreset(asked);
		if (token?.isCancellationRequested) return cancelled();
		if (this._active) {
			const replace = vscode.l10n.t('Cancel It and Start');
			const choice = await vscode.window.showWarningMessage(
				vscode.l10n.t('A MassGen run is in progress. Cancel it and start the new one?'),
				{ modal: true },
				replace,
			);
			if (choice !== replace || !this._active) return runActive();
			const previous = this._active;
			this.cancel();
			await previous.done;
			if (token?.isCancellationRequested) return cancelled();
			if (this._active) return runActive();
		}
		const folder = await runFolderFor(request, this._memory.followedRun(request));
		if ('refused' in folder) return folder;
		if (token?.isCancellationRequested) return cancelled();
		if (this._active) return runActive();
		const tokens = new vscode.CancellationTokenSource();
		let finish!: () => void;
		const done = new Promise<void>((resolve) => (finish = resolve));
		const active: ActiveRun = { request, tokens, done };
		this._active = active;
		const caller = token?.onCancellationRequested(() => {
			if (this._active === active) this.cancel();
		});
		this._setRunActive(true);
		this._deps.statusBar.start();
		try {
			return await this._run(request, folder, tokens.token);
		} catch (error) {
			return { refused: 'error', reason: reportUnexpected(this._deps.log, error, this._redact) };
		} finally {
			caller?.dispose();
			tokens.dispose();
			this._active = undefined;
			this._deps.statusBar.stop();
			this._setRunActive(false);
			finish();
		}
	}

	private async _run(
		request: RunRequest,
		folder: vscode.WorkspaceFolder,
		token: vscode.CancellationToken,
	): Promise<StartOutcome> {
		const { log } = this._deps;
		const root = folder.uri.fsPath;
		const engine = await this._deps.engine();
		const abort = abortSignalFromToken(token);
		try {
			const host = editorRunHost({
				...this._deps,
				...(request.preset ? { preset: request.preset } : {}),
				engine,
				folder,
				// Read once: the team config choice, `.env` and the tools all see the same answer.
				trusted: this._deps.isTrusted?.() ?? vscode.workspace.isTrusted,
				consent: this._consent,
				signal: abort.signal,
			});
			const from = request.kind === 'ask' ? this._memory.followedRun(request) : undefined;
			const prepared = await engine.prepareRun(
				{
					question: request.question,
					workspaceRoot: root,
					...(from ? { followUp: { from, fork: request.fork === true } } : {}),
					...(!from && request.history?.length ? { history: request.history } : {}),
					...(request.attachments?.length ? { attachments: request.attachments } : {}),
					...(request.addModel ? { addedAgents: [lmMember(request.addModel)] } : {}),
					budget: host.budget,
					signal: abort.signal,
				},
				host,
			);
			if (!prepared.ok) return this._refused(prepared, request);
			if (token.isCancellationRequested) return cancelled();
			const { followUp } = prepared.run;
			const history = followUp?.history ?? request.history ?? [];
			if (request.kind === 'ask' && !followUp) this._memory.forget();
			this._live.reset();
			return await this._follow(request, folder, engine.startRun(prepared.run, host), history, token);
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

	/**
	 * Why the run did not start, told the user (the config's problem, a follow-up of no readable
	 * turn). No model at all is not a config problem: the user is offered one and the question waits.
	 */
	private _refused(refusal: PrepareRefusal, request: RunRequest): StartOutcome {
		switch (refusal.refused) {
			case 'config': {
				const report = {
					problem: 'no-config',
					file: refusal.file,
					message: missingConfigMessage(refusal.file),
					issues: [],
				} as const;
				return { refused: 'config', reason: reportTeamProblem(report, this._redact) };
			}
			case 'team': {
				const { problem, file, issues, kind } = refusal.resolution;
				if (problem === 'no-agents' && kind === 'default') {
					offerNoModel(
						{
							lmModels: this._deps.lmModels ?? memberChatModels,
							log: this._deps.log,
							...(this._deps.questions ? { questions: this._deps.questions } : {}),
						},
						(choice) => void this._runChosen(request, choice),
					);
					return { refused: 'config', reason: noModelReason() };
				}
				return { refused: 'config', reason: reportTeamProblem({ problem, file, issues }, this._redact) };
			}
			case 'follow-up':
				this._deps.log.error(refusal.message);
				void vscode.window.showErrorMessage(vscode.l10n.t('MassGen: {0}', this._redact(refusal.message)));
				return { refused: 'error', reason: this._redact(refusal.message) };
			case 'trust':
				return cancelled();
		}
		return refusal satisfies never;
	}

	/** Follows the run live until it ends, then remembers an answered ask and tells who listens. */
	private async _follow(
		request: RunRequest,
		folder: vscode.WorkspaceFolder,
		run: RunHandle,
		history: readonly Turn[],
		token: vscode.CancellationToken,
	): Promise<StartOutcome> {
		const { log } = this._deps;
		const toolNotices = new ToolNotices(log, token);
		const outcome = await this._live.follow(run, (event) => {
			// The team is known and the attachments are read: the run really starts (the panel
			// opens now, not for a config error or an attachment that cannot be given).
			if (event.type === 'run-start' && run.started) {
				log.info(`run log: ${run.started.runDir}`);
				if (request.preset) this._presetRuns.set(event.runId, request.preset);
				this._onDidStartRun.fire(request);
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
			state: this._live.state ?? initialRunState(),
			folder,
			writePolicy: {
				root: outcome.workspace.root,
				protectedPaths: outcome.workspace.protectedPaths,
				secretPaths: outcome.workspace.secretPaths,
			},
			runDir: outcome.runDir,
		};
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

	private _setRunActive(value: boolean): void {
		this._runActiveKey = value;
		void vscode.commands.executeCommand('setContext', contextKeys.runActive, value);
	}
}

/** A Memento that forgets with the controller (no consent store given). */
function memoryState(): Pick<vscode.Memento, 'get' | 'update'> {
	const values = new Map<string, unknown>();
	return {
		get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
		update: async (key: string, value: unknown) => void values.set(key, value),
	} as Pick<vscode.Memento, 'get' | 'update'>;
}
