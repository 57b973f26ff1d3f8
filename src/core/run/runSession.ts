/**
 * One run, assembled once for both shells (the CLI's `runCommand` and the editor's `runEngine`):
 * agents with their keys, the redactor, the workspace with its run snapshot, the run log, the
 * tools and the orchestrator. Nothing is written to the workspace (the CLI's `--apply` and the
 * editor's Accept do that afterwards), and the log and tools close on every exit path.
 */
import { join } from 'node:path';
import type { ApiKeySources } from '../config/apiKeys.js';
import type { CodingAgentPaths } from '../util/cliPathVariables.js';
import { filesWithSecretValues } from '../changes/secretValues.js';
import { redactConfig } from '../config/redact.js';
import type { MassGenConfig } from '../config/schema.js';
import { toOrchestratorSettings, withRoles } from '../config/toSettings.js';
import type { AttachmentRequest } from '../context/attachment.js';
import { resolveAttachments, type ContextLimits } from '../context/resolveAttachments.js';
import { resolveRevision } from '../context/revision.js';
import { revisionRecord } from './revisionRecord.js';
import type { RevisionRequest } from '../../contract/revision.js';
import type { PlanRunRecord } from '../../contract/plan.js';
import { withStartingEdits } from '../workspace/seededWorkspace.js';
import { filesInPlay } from '../context/filesInPlay.js';
import {
	instructionRecord,
	noInstructions,
	readProjectInstructions,
	type InstructionLimits,
} from '../context/projectInstructions.js';
import { newRunId } from '../../contract/runId.js';
import { RunLogWriter } from '../runStore/runLog.js';
import { specSecrets } from '../mcp/mcpServerSpec.js';
import { readWorkspaceMcpServers } from '../mcp/workspaceMcpFiles.js';
import type { RunAgentInfo, RunEvent, SessionRecord } from '../../contract/runEvents.js';
import type { RunControl } from './runControl.js';
import { Orchestrator } from '../orchestrator/orchestrator.js';
import type { Turn } from '../orchestrator/types.js';
import type { RunResult } from '../../contract/runResult.js';
import { contextWindowFor, loadPriceTable, priceFor } from '../providers/spec/pricing.js';
import { redactEvents } from '../secrets/redactedEvents.js';
import { Redactor } from '../secrets/redactor.js';
import { buildAgents, type TeamSources } from '../team/buildAgents.js';
import { landingPath } from '../changes/landingPath.js';
import { trustGate } from '../trust/trustGate.js';
import { trustListing, type WorkspaceTrust } from '../trust/workspaceTrust.js';
import { AuditLedger } from '../permissions/auditLedger.js';
import { createModel as createSdkModel } from '../providers/createModel.js';
import {
	decideProviderTools,
	providerToolsAgents,
	recordProviderToolsVerdict,
	withoutProviderTools,
	type ProviderToolsPolicy,
} from './providerToolsDecision.js';
import { hostEnvironment } from '../util/hostPath.js';
import { ripgrepOnPath } from '../util/ripgrepBinary.js';
import { createWorkspace } from '../workspace/createWorkspace.js';
import { formatPatch } from '../workspace/patch.js';
import { secretPaths } from '../workspace/secretPaths.js';
import type { Workspace } from '../workspace/types.js';
import type { BudgetCaps } from '../orchestrator/spendGuard.js';
import type { CostEstimate } from './costEstimate.js';
import { EstimateDeclinedError } from './estimateDeclinedError.js';
import { estimateRun, runCaps, type UserBudget } from './runBudgetOf.js';
import { withEarlyNotices } from './earlyNotices.js';
import { runTools, type RunToolInputs } from './runTools.js';

export type { RunToolInputs } from './runTools.js';

/** The team a run uses: a checked config and the file it came from (is it the workspace's?). */
export interface RunTeam {
	readonly config: MassGenConfig;
	readonly file: string;
	/** `workspace`: the workspace chose it wherever it lies (VS Code's workspace `massgen.config`). */
	readonly kind?: string;
}

export interface RunSessionOptions {
	readonly team: RunTeam;
	readonly keys: ApiKeySources;
	readonly workspaceRoot: string;
	readonly question: string;
	readonly history?: readonly Turn[];
	/**
	 * The conversation this run continues (recorded in `run-start` and `result.json`). Omitted: a new
	 * session whose id is this run's id; `id` omitted with a `parentRunId`: a fork, a new session line
	 * (again named by this run's id) that follows up on another line's turn.
	 */
	readonly session?: { readonly id?: string; readonly parentRunId: string | null };
	/**
	 * Context for the question, read under the tools' path policy before the run starts: a request
	 * that cannot be attached (missing, secret, not a repository, too large) throws `AttachmentError`
	 * and no run directory is made.
	 */
	readonly attachments?: readonly AttachmentRequest[];
	readonly contextLimits?: Partial<ContextLimits>;
	/**
	 * Revise an earlier run's proposal (`core/context/revision.ts`): every agent starts from it and
	 * reads the comments. A proposal or comment that cannot be given throws `AttachmentError`.
	 */
	readonly revision?: RevisionRequest;
	/**
	 * Files every agent's copy starts with, not written (a plan step after earlier steps whose
	 * changes are still pending); checked as a revision's proposal is.
	 */
	readonly startFrom?: Pick<RevisionRequest, 'fromRunId' | 'files'>;
	/** Every agent read-only, and no change set (a plan run). */
	readonly readOnly?: boolean;
	/** The run's part in a plan, kept in `result.json`. */
	readonly plan?: PlanRunRecord;
	/**
	 * The project's instruction files (`AGENTS.md` …, `core/context/projectInstructions.ts`): read
	 * unless false (`--no-instructions`, `massgen.instructions.enabled`, an untrusted workspace).
	 */
	readonly instructions?: boolean;
	readonly instructionLimits?: InstructionLimits;
	readonly signal: AbortSignal;
	/** The shipped `configs/` folder (its `prices.yaml`). */
	readonly shippedConfigsDir: string;
	/** Models the host adds (the editor's `vscode_lm`); default: the core's SDK adapters. */
	readonly createModel?: TeamSources['createModel'];
	/** Overrides the config's coordination timeout (the CLI's `--timeout`). */
	readonly coordinationTimeoutMs?: number;
	/** Added to the config's `secret_paths` (already validated). */
	readonly secretPaths?: readonly string[];
	/** The ripgrep `search_files` uses (the editor's own); default: `ripgrepOnPath` (`MASSGEN_RIPGREP`, `rg` on `PATH`). */
	readonly ripgrep?: string;
	/** The host's coding-agent CLIs (the editor's settings, the CLI's variables); the config's `cli_path` wins. */
	readonly codingAgentPaths?: CodingAgentPaths;
	/** MCP servers, `run_command`, the permission engine (docs/tools-and-sandbox.md); omitted: workspace tools. */
	readonly tools?: RunToolInputs;
	/**
	 * Folder trust: the user's decision on the workspace's own executable and secret-bearing parts
	 * (`listWorkspaceTrust` lists them; `core/trust`). Omitted or not covering the run's listing:
	 * each part is refused with a reason naming it (no stdio server started, no host variable
	 * expanded, no agent with a workspace `cli_path` or key host). Nothing to list: not needed.
	 */
	readonly workspaceTrust?: WorkspaceTrust;
	/** The user's run-budget caps; the config's `permissions.max_cost_usd` counts too (the lower wins). */
	readonly budget?: UserBudget;
	/**
	 * Shown the cost estimate once the attachments are read, before anything starts; false throws
	 * `EstimateDeclinedError` (no run directory is made).
	 */
	readonly confirmEstimate?: (estimate: CostEstimate, caps: BudgetCaps | null) => Promise<boolean>;
	/** Given the running run's controls (Stop agent, steering, Finish now), once the orchestrator exists. */
	readonly onControl?: (control: RunControl) => void;
	/** The run's decision on provider-native tools (web search, code execution); default: ask, with nobody to ask = deny. */
	readonly providerTools?: ProviderToolsPolicy;
	/** Called for every event, already redacted and logged, in order, before the next one is read. */
	readonly onEvent: (event: RunEvent) => void;
	/** The run's redactor, once its secrets are known (before the first event and notice). */
	readonly onRedactor?: (redactor: Redactor) => void;
	/** The run directory exists (called before the first event). */
	readonly onRunDir?: (runDir: string, runId: string) => void;
	/** The log could not be finished or closed: the run's outcome stands. */
	readonly onLogError?: (error: unknown) => void;
}

export interface RunSessionOutcome {
	readonly result: RunResult;
	readonly runDir: string;
	readonly workspace: Workspace;
	/** The run's permission decisions (`permissions.jsonl`: the provider-tools verdict and the tools'); undefined without tools. */
	readonly ledger: AuditLedger | undefined;
}

/** Runs one team on one question; resolves when the run has ended and its log is closed. */
export async function runSession(options: RunSessionOptions): Promise<RunSessionOutcome> {
	// A plan run reads only: every agent gets the read-only role (no write tools, no run_command).
	const team = options.readOnly
		? { ...options.team, config: readOnlyTeam(options.team.config) }
		: options.team;
	const { config } = team;
	const root = options.workspaceRoot;
	// Host tools (bwrap, rg, the coding agents' CLIs) are found on a PATH the workspace cannot add to.
	const keys = { ...options.keys, env: hostEnvironment(options.keys.env, root) };
	const prices = await loadPriceTable(join(options.shippedConfigsDir, 'prices.yaml')).catch(() => undefined);
	// vscode_lm models are paid for by the user's subscription: no per-token price.
	const priceOf = (provider: string, model: string) =>
		provider === 'vscode_lm' || !prices ? undefined : (priceFor(provider, model, prices) ?? undefined);
	// Asked once, before any request would enable them; a denial leaves them out of every call.
	const toolAgents = providerToolsAgents(config);
	const policy = options.providerTools ?? { mode: 'ask', source: 'massgen.providerTools' };
	const verdict = toolAgents.length ? await decideProviderTools(policy, toolAgents) : undefined;
	const make = options.createModel ?? createSdkModel;
	// Read first: the trust listing covers them, and what their `${VAR}`s expand to is secret too
	// (the redactor must know it before any output).
	const workspaceMcp = options.tools?.readWorkspaceServers ? await readWorkspaceMcpServers(root) : undefined;
	const listing = trustListing({
		workspaceRoot: root,
		config,
		file: team.file,
		keys,
		...(workspaceMcp ? { workspaceServers: workspaceMcp.servers } : {}),
		chosenByWorkspace: team.kind === 'workspace',
	});
	const gate = trustGate(listing, options.workspaceTrust);
	const { agents, secrets } = buildAgents(config, {
		keys,
		priceOf,
		// A vscode_lm model's window is the editor's (Copilot's can be smaller than the vendor's API):
		// unknown here, so only its context-length error compacts.
		contextWindowOf: (provider, model) =>
			provider === 'vscode_lm' || !prices ? undefined : contextWindowFor(provider, model, prices),
		refuse: (agentId) => gate.agentRefusal(agentId),
		...(options.codingAgentPaths ? { codingAgentPaths: options.codingAgentPaths } : {}),
		createModel: (settings, opts) => {
			const model = make(settings, opts);
			if (!settings.providerTools || verdict?.allowed !== false) return model;
			return withoutProviderTools(model, `provider tools left out (${verdict.reason})`);
		},
	});
	const { env } = keys;
	const expand = { env, workspaceFolder: root, userHome: env['HOME'] ?? env['USERPROFILE'] };
	const redactor = new Redactor([
		...secrets,
		...(workspaceMcp?.servers ?? []).flatMap((spec) => specSecrets(spec, expand)),
	]);
	options.onRedactor?.(redactor);
	const secretFiles = secretPaths([...config.orchestrator.secret_paths, ...(options.secretPaths ?? [])]);
	const disk = await createWorkspace(root, {
		protectedPaths: config.orchestrator.protected_paths,
		secretPaths: secretFiles,
		ripgrep: options.ripgrep ?? ripgrepOnPath(env) ?? undefined,
	});
	const revision = options.revision && (await resolveRevision(options.revision, disk));
	// Checked as a revision's proposal is (paths, sizes), with no comments and no review section.
	const startFrom =
		options.startFrom &&
		(await resolveRevision({ ...options.startFrom, comments: [] }, disk, "the earlier plan steps' changes"));
	// The team revises the proposal (or goes on from earlier plan steps'): every agent's copy starts with it.
	const seed = revision ?? startFrom;
	const workspace = seed ? withStartingEdits(disk, seed.startingEdits) : disk;
	const attachments = await resolveAttachments(options.attachments ?? [], disk, {
		signal: options.signal,
		...(options.contextLimits ? { limits: options.contextLimits } : {}),
	});
	const instructions =
		options.instructions === false
			? noInstructions
			: await readProjectInstructions(
					disk,
					await filesInPlay(options.question, attachments, disk),
					options.instructionLimits,
					options.signal,
				);
	const instructionRecords = instructions.files.map(instructionRecord);
	const caps = runCaps(config, options.budget);
	const instructionChars = instructions.files.reduce((sum, file) => sum + file.text.length, 0);
	const estimate = estimateRun(options.question, attachments, agents, instructionChars);
	if (options.confirmEstimate && !(await options.confirmEstimate(estimate, caps))) {
		throw new EstimateDeclinedError('the run was not started at its cost estimate');
	}
	const started = new Date();
	// A fresh id per try: another run (another process) may have taken the first in this second.
	const log = await RunLogWriter.create(root, () => newRunId(started), {
		redactor,
		parentRunId: options.session?.parentRunId ?? null,
	});
	const { runId } = log;
	options.onRunDir?.(log.runDir, runId);
	// One ledger for the run's permission decisions: the provider-tools verdict and the tools'.
	const ledger = new AuditLedger(log.runDir, redactor.text);
	if (verdict) recordProviderToolsVerdict(ledger, runId, verdict);
	const session: SessionRecord = {
		id: options.session?.id ?? runId,
		parentRunId: options.session?.parentRunId ?? null,
	};
	try {
		const context = {
			...team,
			root,
			env,
			ledger,
			secretFiles,
			workspaceMcp,
			gate,
		};
		const prepared = options.tools && runTools(options.tools, { ...context, ripgrep: workspace.ripgrep });
		const skippedInstructions = instructions.skipped.map(({ reason }) => `project instructions: ${reason}`);
		const tools = withEarlyNotices(prepared?.tools, [...(prepared?.notices ?? []), ...skippedInstructions]);
		const orchestrator = new Orchestrator({
			runId,
			question: options.question,
			workspace,
			agents,
			settings: {
				...toOrchestratorSettings(config),
				...(options.coordinationTimeoutMs ? { coordinationTimeoutMs: options.coordinationTimeoutMs } : {}),
			},
			history: revision ? revising(options.history ?? []) : (options.history ?? []),
			attachments,
			...(instructions.files.length ? { instructions } : {}),
			...(revision ? { revision } : {}),
			signal: options.signal,
			...(tools ? { tools } : {}),
			...(caps ? { budget: caps } : {}),
		});
		options.onControl?.({
			stopAgent: (agentId) => orchestrator.stopAgent(agentId),
			steer: (message) => orchestrator.steer(message),
			finishNow: () => orchestrator.finishNow(),
		});
		// A planning run's plan is named by the run's own id, which no shell knows before the start.
		// Cut to what the run store reads back (runSchemas.ts): a longer task or title dropped the record.
		const plan =
			options.plan &&
			(options.plan.kind === 'planning'
				? { ...options.plan, planId: runId, task: options.plan.task.slice(0, 20_000) }
				: options.plan.kind === 'step'
					? { ...options.plan, title: options.plan.title.slice(0, 2_000) }
					: options.plan);
		let ranAgents: RunAgentInfo[] | undefined;
		for await (const raw of redactEvents(orchestrator.run(), redactor)) {
			const event: RunEvent =
				raw.type === 'run-start'
					? {
							...raw,
							...(instructionRecords.length ? { instructions: instructionRecords } : {}),
							session,
							...(plan ? { plan } : {}),
							agents: withRoles(raw.agents, config),
						}
					: raw;
			if (event.type === 'run-start') ranAgents = event.agents;
			log.append(event);
			options.onEvent(event);
		}
		const ended = orchestrator.result!;
		// Where each write really lands, for the flags of files other tools run (`executablePaths.ts`).
		const finished = {
			...ended,
			changes: ended.changes.map((change) => {
				const landsAt = landingPath(root, change.path);
				return landsAt === undefined ? change : { ...change, landsAt };
			}),
		};
		const secretValueFiles = filesWithSecretValues(finished.changes, redactor);
		const result: RunResult = {
			...finished,
			// A plan run's output is its plan: whatever a coding agent changed in its own copy is not offered.
			...(options.readOnly ? { changes: [], answerChanges: undefined } : {}),
			...(plan ? { plan } : {}),
			...(secretValueFiles.length > 0 ? { secretValueFiles } : {}),
			...(revision ? { revision: await revisionRecord(revision, finished, disk) } : {}),
			startedAt: started.toISOString(),
			session,
			// Who ran, as `run-start` said it: the stats read it without the event log.
			...(ranAgents ? { agents: ranAgents } : {}),
		};
		try {
			// Against the bases the agents read (the run snapshot), as the changes carry them.
			await log.finish({
				result,
				configYaml: redactConfig(config, redactor),
				patch: formatPatch(result.changes),
			});
		} catch (error) {
			options.onLogError?.(error);
		}
		// Each change carries its base (`FileChange.base`): the text the agents read, not the disk now.
		return { result, runDir: log.runDir, workspace: disk, ledger: options.tools ? ledger : undefined };
	} finally {
		// A coding agent's CLI and folder outlive its calls (`ChatModel.close`): they end with the run.
		await Promise.all(agents.map((agent) => agent.model.close?.()));
		await log.close().catch((error: unknown) => options.onLogError?.(error));
	}
}

/** The turn whose proposal a revision revises is the last; its changes are in every agent's copy now. */
function revising(history: readonly Turn[]): Turn[] {
	return history.map((turn, index) =>
		index === history.length - 1 && turn.changes === 'pending' ? { ...turn, changes: 'revising' } : turn,
	);
}

/** The same team with every agent read-only. */
function readOnlyTeam(config: MassGenConfig): MassGenConfig {
	return { ...config, agents: config.agents.map((agent) => ({ ...agent, role: 'read-only' as const })) };
}
