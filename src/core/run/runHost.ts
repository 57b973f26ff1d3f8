/**
 * What starting a run takes, split in two: the run's own data (`RunRequest`: the question, the
 * workspace, the turn it follows, its attachments and caps) and the host's capabilities (`RunHost`:
 * what a shell answers or provides: the config it names, its keys and models, the trust and cost
 * questions, approvals, its paths and settings, its log). `prepareRun` and `startRun` do the rest
 * once for every shell; the CLI (`cli/cliRunHost.ts`) and the editor implement the port.
 */
import type { CodingAgentPaths } from '../util/cliPathVariables.js';
import type { AttachmentRequest } from '../context/attachment.js';
import type { RevisionRequest } from '../../contract/revision.js';
import type { PlanRunRecord } from '../../contract/plan.js';
import type { AgentConfig } from '../config/schema.js';
import type { ContextLimits } from '../context/resolveAttachments.js';
import type { BudgetCaps } from '../orchestrator/spendGuard.js';
import type { ProviderToolsPolicy } from './providerToolsDecision.js';
import type { TeamSources } from '../team/buildAgents.js';
import type { Redactor } from '../secrets/redactor.js';
import type { NamedConfig, SkippedConfig } from '../team/chooseTeamConfig.js';
import type { HostModels, ResolvedTeam, TeamResolution } from '../team/resolveTeam.js';
import type { TrustListing, WorkspaceTrust } from '../trust/workspaceTrust.js';
import type { Turn } from '../orchestrator/types.js';
import type { CostEstimate } from './costEstimate.js';
import type { UserBudget } from './runBudgetOf.js';
import type { RunToolInputs } from './runTools.js';

/** The run's own data: plain values, the same whichever shell starts it. */
export interface RunRequest {
	readonly question: string;
	readonly workspaceRoot: string;
	/**
	 * The turn this run follows: `from` a run or session id (omitted: the workspace's latest turn),
	 * as its session's next turn; `fork`: after `from` itself, as a new session line.
	 */
	readonly followUp?: { readonly from?: string; readonly fork?: boolean };
	/**
	 * Earlier turns the caller holds itself (a chat client's conversation, `conversationRequest`):
	 * the agents see them as the run's history; no session is continued. Ignored with `followUp`.
	 */
	readonly history?: readonly Turn[];
	readonly attachments?: readonly AttachmentRequest[];
	/**
	 * Revise run `fromRunId`'s proposal with the reviewer's comments (`contract/revision.ts`); the
	 * run is that run's next turn unless `followUp` says otherwise.
	 */
	readonly revision?: RevisionRequest;
	/**
	 * Files every agent's copy starts with, not written: a plan step after earlier steps whose
	 * changes are still pending (`core/plans`; the CLI's `plan --execute` without `--apply`).
	 */
	readonly startFrom?: Pick<RevisionRequest, 'fromRunId' | 'files'>;
	/** Every agent read-only (no write tools, no run_command) and no change set: a plan run. */
	readonly readOnly?: boolean;
	/**
	 * The run's part in a plan (`contract/plan.ts`), kept in `result.json`. A planning run's `planId`
	 * is its own run id whatever the shell sent (no shell knows the id before the run starts).
	 */
	readonly plan?: PlanRunRecord;
	/**
	 * Members for this run only, after the team's own (the editor's chat adds its selected model as a
	 * `vscode_lm` agent); checked like the config's, an id the team holds gets a suffix.
	 */
	readonly addedAgents?: readonly AgentConfig[];
	readonly contextLimits?: Partial<ContextLimits>;
	/**
	 * false: the project's instruction files (`AGENTS.md` …) are not read (`--no-instructions`,
	 * `massgen.instructions.enabled`). They are never read when the host's workspace is not trusted.
	 */
	readonly instructions?: boolean;
	/** The user's run-budget caps; the config's `permissions.max_cost_usd` counts too (the lower wins). */
	readonly budget?: UserBudget;
	/** Overrides the config's coordination timeout (the CLI's `--timeout`). */
	readonly coordinationTimeoutMs?: number;
	readonly signal: AbortSignal;
}

/** Where the host's tools are: its shipped configs, its ripgrep, the coding agents' CLIs. */
export interface HostPaths {
	/** The shipped `configs/` folder (the default team, `prices.yaml`). */
	readonly shippedConfigsDir: string;
	/** The ripgrep `search_files` uses (the editor's own); default: `MASSGEN_RIPGREP`, `rg` on `PATH`. */
	readonly ripgrep?: string;
	/**
	 * The coding agents' CLIs the user chose (the editor's machine-scope settings, the CLI's
	 * `MASSGEN_CLAUDE_CODE_PATH` / `MASSGEN_CODEX_PATH`): the user's, so not on the trust listing;
	 * a config's `cli_path` wins.
	 */
	readonly codingAgents?: CodingAgentPaths;
}

export interface RunHostLog {
	info(message: string): void;
	warn(message: string): void;
	error(message: string): void;
}

/** A host's capabilities and answers (Continue's `IDE`, implemented once per shell). */
export interface RunHost {
	readonly paths: HostPaths;
	/** The host's environment: keys, the host tools' `PATH`. */
	readonly env: NodeJS.ProcessEnv;
	/**
	 * The workspace's own files may act (VS Code's Workspace Trust; the CLI: yes): `.env` is read
	 * only then, and the tools' `run_command` is on only then.
	 */
	readonly workspaceTrusted: boolean;
	/** Keys the host keeps itself (VS Code's secret storage). */
	storedKeys?(): Promise<Record<string, string>>;
	/**
	 * The team config the user named (the CLI's `--config`, the editor's `massgen.config`), if any;
	 * the core's rule (`chooseTeamConfig`) decides whether it is used, else the workspace's, else
	 * the default team.
	 */
	namedConfig?(workspaceRoot: string): NamedConfig | undefined;
	/**
	 * The redactor, each time it learns more (the keys' values before the team resolves, then the
	 * run's own): the host passes everything it shows through it.
	 */
	learnSecrets?(redactor: Redactor): void;
	/**
	 * The team as resolved, or why not (issues with their positions, a default team's dropped
	 * members), before the trust question; `skipped`: configs left out as the workspace is not trusted.
	 */
	onTeam?(resolution: TeamResolution, skipped: readonly SkippedConfig[]): void | Promise<void>;
	/** Models the host adds (VS Code's `vscode_lm`): resolving checks them, running makes them. */
	readonly models?: {
		readonly resolve: HostModels;
		readonly create: NonNullable<TeamSources['createModel']>;
	};
	/** Added to the config's `secret_paths` (already validated). */
	readonly secretPaths?: readonly string[];
	/** MCP servers, `run_command`, approvals and grants; omitted: the workspace tools only. */
	readonly tools?: RunToolInputs;
	/**
	 * The user's decision on the workspace's own executable and secret-bearing parts (`core/trust`),
	 * asked before anything runs: undefined leaves each part refused, null stops the run.
	 */
	decideTrust(listing: TrustListing, team: ResolvedTeam): Promise<WorkspaceTrust | undefined | null>;
	/** Shown the cost estimate before anything starts; false: not started. Omitted: no question. */
	confirmEstimate?(estimate: CostEstimate, caps: BudgetCaps | null): Promise<boolean>;
	/** The run's decision on provider-native tools; default: ask, with nobody to ask = deny. */
	readonly providerTools?: ProviderToolsPolicy;
	readonly log: RunHostLog;
}
