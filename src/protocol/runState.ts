/**
 * RunState: everything the panel, the CLI display and the extension host show about one run,
 * folded from RunEvents by `reduceRun`. Plain JSON only (no undefined, Map or Date) so it can be
 * posted to the webview, persisted with `setState` and compared in tests.
 */
import type {
	AttachmentRecord,
	ChangeKind,
	ChecklistCriterion,
	CoordinationEndReason,
	CoordinationSaving,
	InstructionRecord,
	Phase,
	RunStatus,
	SandboxMode,
	VoteScores,
} from '../contract/runEvents.js';

/** The webview sees the core's vocabulary only through `src/protocol`. */
export type {
	AttachmentRecord,
	ChecklistCriterion,
	CoordinationEndReason,
	CoordinationSaving,
	InstructionRecord,
	VoteScores,
};

/** Overall run status; `idle` before `run-start`, `running` until `run-end`. */
export type RunStateStatus = 'idle' | 'running' | RunStatus;

/** What an agent lane is doing right now. */
export type AgentLaneState =
	'idle' | 'streaming' | 'answered' | 'voted' | 'presenting' | 'error' | 'killed' | 'done';

/** Streamed text kept per lane; older text is dropped (counted in `textDropped`). */
export const MAX_STREAM_CHARS = 20_000;
/** Tool calls kept per lane (the oldest are dropped). */
export const MAX_TOOL_CALLS = 200;
/** The user's messages kept per lane (the oldest are dropped). */
export const MAX_USER_MESSAGES = 50;

/** A message the user sent the team while it ran (`steer`), as one lane shows it. */
export interface UserMessageView {
	readonly id: number;
	readonly text: string;
	/** Sent to every agent (else to this one only). */
	readonly toAll: boolean;
	/** The agent's vote stood (else it was withdrawn). */
	readonly noteOnly: boolean;
	readonly t: number;
	/** It went into this agent's next request (`steer-delivered`); false while it waits for that call. */
	readonly delivered: boolean;
}

export interface ToolCallView {
	readonly callId: string;
	readonly name: string;
	readonly args: Record<string, unknown>;
	readonly phase: Phase;
	/** The lane's round when the call was made (0 = before any round-start). */
	readonly round: number;
	readonly t: number;
	/** null while the call is running. */
	readonly result: {
		readonly isError: boolean;
		readonly text: string;
		readonly t: number;
		/** Planning mode: described, not run. */
		readonly planned?: true;
	} | null;
}

export interface AnswerView {
	/** `agentN.k`: the k-th accepted answer of anonymous agent N. */
	readonly label: string;
	readonly content: string;
	readonly round: number;
	readonly t: number;
}

export interface LaneError {
	/** `workflow` for workflow-tool validation errors, else the provider error kind. */
	readonly kind: string;
	readonly message: string;
	readonly t: number;
}

export interface AgentLane {
	/** Config id. */
	readonly agentId: string;
	readonly anonId: string;
	readonly provider: string;
	readonly model: string;
	/** From `run-start` (`RunAgentInfo.role`); absent without one. */
	readonly role?: string;
	readonly state: AgentLaneState;
	/** 1-based execution count; 0 before the first round-start. */
	readonly round: number;
	/** Answer labels in the current round's frozen snapshot (plus injected updates). */
	readonly snapshot: readonly string[];
	/** Streamed text of the current round (or of the presentation), last MAX_STREAM_CHARS. */
	readonly text: string;
	/** Characters of `text` dropped from the front of the current round. */
	readonly textDropped: number;
	readonly reasoning: string;
	readonly reasoningDropped: number;
	readonly toolCalls: readonly ToolCallView[];
	readonly answers: readonly AnswerView[];
	/** Rounds started after the first (the agent was restarted on newer answers). */
	readonly restarts: number;
	/** Updates injected mid-generation (inject-and-continue). */
	readonly updates: number;
	readonly workflowErrors: number;
	readonly lastError: LaneError | null;
	readonly killedReason: string | null;
	/** The user stopped this agent (Stop agent): `state` is `killed`, shown as stopped. */
	readonly stopped?: true;
	/** The user's messages that reach this agent, oldest first; absent: none. */
	readonly userMessages?: readonly UserMessageView[];
	readonly inputTokens: number;
	readonly outputTokens: number;
	readonly reasoningTokens: number;
	readonly cachedInputTokens: number;
	/** Model calls that reported usage or ended early. */
	readonly calls: number;
	/** Calls that ended early: dropped to be re-issued with new answers, or stopped. */
	readonly abortedCalls: number;
	/** USD summed over calls; null ("no price") as soon as one call had no known price. */
	readonly costUsd: number | null;
	/** `t` of this agent's first and latest event (latency and activity). */
	readonly firstEventT: number | null;
	readonly lastEventT: number | null;
}

export interface VoteView {
	readonly voter: string;
	/** Answer label voted for (`agentN.k`). */
	readonly votedFor: string;
	/** Config id of the agent voted for. */
	readonly votedForAgent: string;
	readonly reason: string;
	readonly t: number;
	/** With a checklist: the voter's scores of every answer it saw. */
	readonly scores?: VoteScores;
}

/** `VoteHistoryEntry.invalidatedBy` of a vote the user's message withdrew (no answer label looks so). */
export const BY_USER_MESSAGE = '@user';

export interface VoteHistoryEntry extends VoteView {
	/**
	 * Label of the answer that invalidated this vote, or `BY_USER_MESSAGE`; null while it counts
	 * (or at the end).
	 */
	readonly invalidatedBy: string | null;
}

export interface ApprovalView {
	readonly requestId: string;
	readonly agentId: string;
	readonly action: string;
	readonly target: string;
	readonly reason: string;
	readonly t: number;
	/** null while the request waits for a decision. */
	readonly decision: 'allow' | 'deny' | null;
	readonly by: 'user' | 'rule' | 'timeout' | null;
}

export interface FileEditView {
	readonly path: string;
	readonly kind: ChangeKind;
	readonly agentId: string;
	readonly phase: Phase;
}

export interface WinnerView {
	readonly agentId: string;
	readonly label: string;
	readonly reason: 'votes' | 'tie-break' | 'no-votes';
}

export interface FinalAnswerView {
	readonly agentId: string;
	readonly label: string;
	readonly content: string;
}

export interface RunState {
	readonly runId: string | null;
	readonly question: string;
	readonly workspace: string;
	/** What the user attached to the question (`run-start`); absent when nothing. */
	readonly attachments?: readonly AttachmentRecord[];
	/** The project instruction files every agent got (`run-start`); absent when none. */
	readonly instructions?: readonly InstructionRecord[];
	readonly status: RunStateStatus;
	/** Seq of the last applied event; -1 before any. Events at or below it are ignored. */
	readonly lastSeq: number;
	/** `t` of the latest event (elapsed time while running). */
	readonly lastT: number;
	/** Config ids in run-start order (lanes created later are appended). */
	readonly agentOrder: readonly string[];
	readonly agents: Readonly<Record<string, AgentLane>>;
	/** Every accepted answer label → config id of its author. */
	readonly answerLabels: Readonly<Record<string, string>>;
	/** Votes that currently count, by voter config id. */
	readonly votes: Readonly<Record<string, VoteView>>;
	readonly voteHistory: readonly VoteHistoryEntry[];
	/** Votes received per config id: live from `votes`, then the orchestrator's tally at selection. */
	readonly tally: Readonly<Record<string, number>>;
	readonly winner: WinnerView | null;
	readonly presenter: string | null;
	readonly finalAnswer: FinalAnswerView | null;
	/** One entry per (agent, phase, path), latest kind wins. */
	readonly fileEdits: readonly FileEditView[];
	readonly approvals: readonly ApprovalView[];
	/** How `run_command` is contained this run; absent when no agent may run commands. */
	readonly commandSandbox?: {
		readonly mode: SandboxMode | 'off';
		readonly network: boolean;
		readonly notice: string;
		/** Commands run in a copy-on-write overlay of the workspace, or in a copy. */
		readonly scratch?: 'overlay' | 'copy';
	};
	/** `notice` events' messages, in order (what an agent will not see, e.g. the attached images); absent: none. */
	readonly notices?: readonly string[];
	/** Post-evaluation: the winner is checking its presented answer (`evaluation-start`, until its end). */
	readonly evaluating?: { readonly agentId: string; readonly attempt: number };
	/** Restarts by post-evaluation, oldest first (`attempt`: the attempt that started); absent: none. */
	readonly restarts?: readonly {
		readonly attempt: number;
		readonly reason: string;
		readonly instructions: string;
	}[];
	/** The run budget's caps (`run-start`) and why it ended the run; absent: no cap. Spent: the lanes' sums. */
	readonly budget?: {
		readonly maxCostUsd: number | null;
		readonly maxTokens: number | null;
		readonly reason: string | null;
	};
	/** Why coordination ended (`coordination-end`) and what a quorum stop saved; absent until then. */
	readonly coordinationEnd?: {
		readonly reason: CoordinationEndReason;
		readonly quorum?: { readonly required: number; readonly votes: number; readonly label: string };
		readonly saved?: CoordinationSaving;
	};
	/** The evaluation checklist in force (`checklist` events); absent when the run has none. */
	readonly checklist?: { readonly criteria: readonly ChecklistCriterion[]; readonly threshold: number };
	/** Set by `run-end`. */
	readonly durationMs: number | null;
	readonly error: string | null;
}

/** The state before any event. */
export function initialRunState(): RunState {
	return {
		runId: null,
		question: '',
		workspace: '',
		status: 'idle',
		lastSeq: -1,
		lastT: 0,
		agentOrder: [],
		agents: {},
		answerLabels: {},
		votes: {},
		voteHistory: [],
		tally: {},
		winner: null,
		presenter: null,
		finalAnswer: null,
		fileEdits: [],
		approvals: [],
		durationMs: null,
		error: null,
	};
}

/** The file changes of the final presentation (the run's change set as the panel lists it). */
export function presentationChanges(state: RunState): FileEditView[] {
	return state.fileEdits.filter((edit) => edit.phase === 'presentation');
}
