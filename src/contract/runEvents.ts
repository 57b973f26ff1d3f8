/**
 * RunEvent: the contract between the orchestrator and every consumer (panel, CLI, logs, tests),
 * and the words it is made of. Plain JSON data only. `agentId` is always the config id; anonymity
 * is for prompts only. Imports only the contract's own leaf types (`plan.ts`): every layer may
 * import it without forming a loop.
 */
import type { PlanRunRecord } from './plan.js';

/** Tokens of one model call as the provider reports them. */
export interface Usage {
	readonly inputTokens: number;
	readonly outputTokens: number;
	readonly reasoningTokens?: number;
	readonly cachedInputTokens?: number;
	readonly cacheWriteTokens?: number;
	/** Provider-side web searches the call ran (`enable_web_search`), priced per call in `configs/prices.yaml`. */
	readonly webSearchCalls?: number;
}

/** `bubblewrap` (Linux), `sandbox-exec` (macOS), or `none` (the user opted out of the wall). */
export type SandboxMode = 'bubblewrap' | 'sandbox-exec' | 'none';

/** One cap of the run budget and where it came from (the lower of the config's and the user's wins). */
export interface BudgetCap {
	readonly limit: number;
	/** `permissions.max_cost_usd`, `--max-cost`, `massgen.maxCostUsd`, … */
	readonly source: string;
}

/** The run budget (docs/protocol.md, rule 13): caps, spent so far, and why it ended the run. */
export interface BudgetRecord {
	readonly maxCostUsd: BudgetCap | null;
	readonly maxTokens: BudgetCap | null;
	/** Priced calls only (a call with no known price counts 0). */
	readonly spentUsd: number;
	/** Input plus output tokens of every call. */
	readonly spentTokens: number;
	readonly reason?: string;
}

export type RunStatus = 'completed' | 'cancelled' | 'timeout' | 'failed';

/**
 * Why coordination ended: every live agent voted (`consensus`), enough of them backed one answer
 * (`quorum`, `orchestrator.coordination.quorum`), the user said Finish now, or a limit ended it.
 */
export type CoordinationEndReason =
	'consensus' | 'quorum' | 'finished-by-user' | 'timeout' | 'budget' | 'exhausted' | 'cancelled';

/** A quorum stop's saving: who was not waited for, and what their unfinished calls would have cost. */
export interface CoordinationSaving {
	/** Model calls in flight when coordination ended (stopped; their reported tokens are counted). */
	readonly callsStopped: number;
	/** Live agents with no valid vote when coordination ended. */
	readonly agentsNotWaitedFor: string[];
	/** Each such agent's average cost per call so far; null when a price is unknown. */
	readonly estimatedCostUsd: number | null;
}

/** How coordination ended (the `coordination-end` event and `result.json`). */
export interface CoordinationRecord {
	readonly ended: CoordinationEndReason;
	/** A quorum stop: the votes it needed, the votes the answer had, and the answer. */
	readonly quorum?: { readonly required: number; readonly votes: number; readonly label: string };
	readonly saved?: CoordinationSaving;
}

/** A message the user sent to the team while it worked (`steer`): kept in the result and the session. */
export interface SteerRecord {
	readonly id: number;
	readonly text: string;
	/** The one agent it was for; absent: every live agent. */
	readonly targetAgentId?: string;
	/** True: the votes already cast stood. */
	readonly noteOnly: boolean;
	/** Run time (ms) it was sent. */
	readonly t: number;
}
export type Phase = 'coordination' | 'presentation';
export type ChangeKind = 'add' | 'modify' | 'delete';

interface EventBase {
	readonly runId: string;
	/** Monotonic per run, starting at 0. */
	readonly seq: number;
	/** Milliseconds since the run started. */
	readonly t: number;
}

/** One criterion of the evaluation checklist (`orchestrator.coordination.checklist_criteria_inline` and after). */
export interface ChecklistCriterion {
	/** `C1`, `C2`, … in the order criteria entered the checklist. */
	id: string;
	text: string;
	category: 'primary' | 'standard' | 'stretch';
	/** 0: given in the config or generated before coordination; n: proposed in its proposer's round n. */
	round: number;
	/** Config id of the agent that proposed it (`criteria_mode: bootstrap_inline`). */
	proposedBy?: string;
}

/** A vote's scores: per answer label (`agentN.k`), each criterion's score 1–10. */
export type VoteScores = { label: string; criteria: { id: string; score: number }[] }[];

export interface RunAgentInfo {
	readonly agentId: string;
	/** The anonymous id prompts use for this agent's answers (`agentN`), fixed for the run. */
	readonly anonId: string;
	readonly provider: string;
	readonly model: string;
	/** Its config `role` / `tools` in short (`read-only`, `tools: read_file, search_files`); absent without one. */
	readonly role?: string;
}

/** The conversation a run belongs to (docs/sessions.md): a new session's id is its first run's id. */
export interface SessionRecord {
	readonly id: string;
	/** The run this one follows up on (the previous turn, or the turn a fork starts from); null = first turn. */
	readonly parentRunId: string | null;
}

/** One attachment of the question (docs/context.md): what and how much, never its contents. */
/** A project instruction file every agent got (`AGENTS.md` …): no contents. */
export interface InstructionRecord {
	/** Workspace-relative. */
	readonly path: string;
	/** Size of what the agents were given (after any cut), and its sha256 (hex). */
	readonly bytes: number;
	readonly sha256: string;
	/** Cut to the instruction caps. */
	readonly truncated?: boolean;
}

export interface AttachmentRecord {
	readonly kind: 'file' | 'folder' | 'diff' | 'diagnostics' | 'terminal' | 'text' | 'image';
	/** Workspace-relative path, `working-tree` / `staged` for a diff, `stdin`, a terminal's name. */
	readonly source: string;
	readonly lines?: { readonly start: number; readonly end: number };
	readonly mediaType?: string;
	/** Size of what the agents were given (after any cut), and its sha256 (hex). */
	readonly bytes: number;
	readonly sha256: string;
	/** Cut to the context caps. */
	readonly truncated?: boolean;
}

export type RunEventBody =
	| {
			type: 'run-start';
			question: string;
			workspace: string;
			agents: RunAgentInfo[];
			/** What the user attached to the question; absent when nothing. */
			attachments?: AttachmentRecord[];
			/** The project's instruction files the agents got (added by `runSession`); absent when none. */
			instructions?: InstructionRecord[];
			/** Added by `runSession`; absent in logs from before sessions (a one-turn session). */
			session?: SessionRecord;
			/** The run's spending caps (nothing spent yet); absent when the run has none. */
			budget?: BudgetRecord;
			/** The run's part in a plan (added by `runSession`): the panel names the run by it. */
			plan?: PlanRunRecord;
	  }
	| {
			type: 'round-start';
			agentId: string;
			/** 1-based count of executions this agent has started. */
			round: number;
			/** Answer labels (`agentN.k`) in this execution's frozen snapshot. */
			snapshot: string[];
	  }
	| { type: 'text-delta'; agentId: string; phase: Phase; text: string }
	| { type: 'reasoning-delta'; agentId: string; phase: Phase; text: string }
	| {
			type: 'tool-call';
			agentId: string;
			phase: Phase;
			callId: string;
			name: string;
			args: Record<string, unknown>;
	  }
	| {
			type: 'tool-result';
			agentId: string;
			phase: Phase;
			callId: string;
			name: string;
			isError: boolean;
			/** The result text (truncated for very large outputs). */
			text: string;
			/** Planning mode: the call was not run during coordination (the presenter may run it). */
			planned?: true;
	  }
	| {
			/**
			 * A provider-native tool ran on the provider's side (`enable_web_search`, `enable_code_execution`):
			 * a web search, a page fetch or code in the provider's sandbox, with its result. Shown like a tool
			 * call; nothing ran here and no permission was asked per call (the run's one decision covers it).
			 */
			type: 'provider-tool';
			agentId: string;
			phase: Phase;
			callId: string;
			kind: 'search' | 'fetch' | 'code';
			query?: string;
			code?: string;
			/** Pages it read, http/https links only. */
			sources?: { title: string; url: string }[];
			/** Code output, or the provider's error. */
			output?: string;
			isError: boolean;
	  }
	| {
			type: 'approval-request';
			agentId: string;
			requestId: string;
			action: string;
			target: string;
			reason: string;
	  }
	| {
			type: 'approval-result';
			agentId: string;
			requestId: string;
			decision: 'allow' | 'deny';
			by: 'user' | 'rule' | 'timeout';
	  }
	| {
			/** How the run's `run_command` calls are contained (once, when the tools are ready); `off`: not offered. */
			type: 'command-sandbox';
			mode: SandboxMode | 'off';
			network: boolean;
			/** Where commands run: a copy-on-write overlay of the workspace, or a copy (absent when off). */
			scratch?: 'overlay' | 'copy';
			/** What the user is told (with the reason when off or unsandboxed). */
			notice: string;
	  }
	| {
			/**
			 * What the user should know about the run: an agent's model cannot take the attached images, a
			 * provider refused its native tools, or (`source: 'tools'`) an MCP server did not start, a rule did
			 * not parse, the folder's trust refused a part. Said before the run directory existed: right after
			 * `run-start`.
			 */
			type: 'notice';
			/** The agent it is about; absent: the whole run. */
			agentId?: string;
			/** `tools`: the run's tools and trust said it (the CLI prints it as `massgen: …`, the editor notifies). */
			source?: 'tools';
			message: string;
	  }
	| { type: 'update-injected'; agentId: string; labels: string[] }
	| {
			/** The user's message to the team; each of `agents` gets it at its next model call (`steer-delivered`). */
			type: 'steer';
			id: number;
			text: string;
			agents: string[];
			targetAgentId?: string;
			/** False: the targeted agents' votes were removed (the task changed). */
			noteOnly: boolean;
	  }
	| { type: 'steer-delivered'; id: number; agentId: string; phase: Phase }
	| ({ type: 'coordination-end' } & CoordinationRecord)
	| { type: 'new-answer'; agentId: string; label: string; content: string }
	| {
			type: 'vote';
			agentId: string;
			/** Config id of the voter (same as agentId). */
			voter: string;
			/** Label of the answer version voted for (`agentN.k`). */
			votedFor: string;
			/** Config id of the agent voted for. */
			votedForAgent: string;
			reason: string;
			/** With a checklist: the voter's score (1–10) of every answer it saw on every criterion in force. */
			scores?: VoteScores;
	  }
	/** The evaluation checklist in force from now on (run start, and each time proposals merge). */
	| {
			type: 'checklist';
			criteria: ChecklistCriterion[];
			/** The score (1–10) a voted answer needs on every criterion. */
			threshold: number;
	  }
	| {
			type: 'votes-invalidated';
			/** Voters whose votes no longer count. */
			voters: string[];
			/** The new answer label that invalidated them. */
			byLabel: string;
	  }
	| { type: 'workflow-error'; agentId: string; attempt: number; message: string }
	| {
			type: 'agent-error';
			agentId: string;
			message: string;
			kind: string;
			retryable: boolean;
			/** Consecutive failures of this agent so far. */
			failures: number;
	  }
	| { type: 'agent-killed'; agentId: string; reason: string }
	/** The user stopped one agent (its answers stay; it no longer votes or is waited for). */
	| { type: 'agent-stopped'; agentId: string; reason: 'user' }
	/** A cap of the run budget was reached: no new model call starts, calls in flight are stopped. */
	| { type: 'budget-reached'; kind: 'cost' | 'tokens'; limit: number; spent: number; reason: string }
	| {
			type: 'winner-selected';
			agentId: string;
			label: string;
			/** Valid votes per config agent id. */
			tally: Record<string, number>;
			reason: 'votes' | 'tie-break' | 'no-votes';
	  }
	| { type: 'presentation-start'; agentId: string }
	| { type: 'file-edit'; agentId: string; phase: Phase; path: string; kind: ChangeKind }
	| { type: 'final-answer'; agentId: string; label: string; content: string }
	| {
			/** A model call ended early (counted; the provider may still bill its input). */
			type: 'call-aborted';
			agentId: string;
			phase: Phase;
			/** `stale`: dropped to be re-issued with new answers; `stopped`: the agent's turn or the run ended. */
			reason: 'stale' | 'stopped';
			elapsedMs: number;
			/** Whether anything had streamed (text, reasoning or a tool call); a stale drop never has. */
			hadOutput: boolean;
			/** Tokens the provider reported before the abort, when it reported any. */
			usage?: Usage;
	  }
	| {
			/** An agent's conversation was compacted to fit its model's context window (`ContextKeeper`). */
			type: 'compacted';
			agentId: string;
			phase: Phase;
			/** Estimated prompt tokens of the request before and after. */
			tokensBefore: number;
			tokensAfter: number;
			/** `summary`: the agent's model summarised the older messages; `truncation`: they were clipped. */
			how: 'summary' | 'truncation';
			/** How many older messages the summary (or the clipped text) replaced. */
			messagesSummarised: number;
	  }
	| {
			type: 'usage';
			agentId: string;
			usage: Usage;
			/** USD for this call; null when the model has no known price. */
			costUsd: number | null;
	  }
	| {
			/** Post-evaluation: the winner checks its presented answer (`max_orchestration_restarts`). */
			type: 'evaluation-start';
			agentId: string;
			attempt: number;
	  }
	| {
			type: 'evaluation-end';
			agentId: string;
			attempt: number;
			/** `auto`: no verdict (no call, a timeout or a failure): the answer stands. */
			verdict: 'submitted' | 'restart' | 'auto';
			reason?: string;
			instructions?: string;
	  }
	| {
			/** Coordination starts again, every agent afresh, with the evaluator's reasons. */
			type: 'attempt-start';
			attempt: number;
			reason: string;
			instructions: string;
	  }
	| {
			type: 'run-end';
			status: RunStatus;
			durationMs: number;
			/** A clear message when status is failed (or why a timeout ended without an answer). */
			error?: string;
			/** The caps, what was spent, and `reason` when a cap ended the run; absent without caps. */
			budget?: BudgetRecord;
	  };

export type RunEventType = RunEventBody['type'];
export type RunEvent = EventBase & RunEventBody;
export type RunEventOf<T extends RunEventType> = EventBase & Extract<RunEventBody, { type: T }>;
