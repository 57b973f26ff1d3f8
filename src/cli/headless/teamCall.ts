/**
 * The team run for a shell that is not a terminal (`massgen serve`, `massgen mcp`): one question,
 * the run's events as they happen, then everything a client is told about the finished run, or
 * why no run started. It is `massgen run` without a terminal: `prepareRun` and `startRun` on the
 * CLI's run host, nobody to ask (approvals that need asking are denied, provider-side tools are
 * off, a cost estimate is printed, not asked, and the budgets still hold), the folder's own
 * servers, CLI paths and key hosts only where the user ran `massgen trust` in it. Nothing is
 * written to the workspace: the changes stay pending in the run directory.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Writable } from 'node:stream';
import type { RunEvent, RunStatus } from '../../contract/runEvents.js';
import { runFile } from '../../contract/runLayout.js';
import type { RunResult } from '../../contract/runResult.js';
import { formatIssue } from '../../core/config/configIssue.js';
import { AttachmentError, type AttachmentRequest } from '../../core/context/attachment.js';
import type { Turn } from '../../core/orchestrator/types.js';
import { EstimateDeclinedError } from '../../core/run/estimateDeclinedError.js';
import { prepareRun, type PrepareRefusal } from '../../core/run/prepareRun.js';
import type { RunRequest } from '../../core/run/runHost.js';
import type { UserBudget } from '../../core/run/runBudgetOf.js';
import { startRun } from '../../core/run/startRun.js';
import { readRunPatch } from '../../core/runStore/readPatch.js';
import { RunsDirError } from '../../core/runStore/runsDirGuard.js';
import type { Redactor } from '../../core/secrets/redactor.js';
import { seedRedactor } from '../../core/secrets/seedRedactor.js';
import { formatVotes, formatWinner } from '../../core/sessions/reportFormat.js';
import type { CliIo } from '../cliIo.js';
import { missingConfig } from '../cliHost.js';
import { shellWord } from '../shellWord.js';
import { cliRunHost } from '../cliRunHost.js';
import { trustHint } from '../trustPrompt.js';

export interface TeamCallInput {
	/** The folder the agents read (never written). */
	readonly workspaceRoot: string;
	readonly question: string;
	/** Earlier turns the client holds (`conversationRequest` makes them from chat messages). */
	readonly history?: readonly Turn[];
	/** Files, folders or images inside the workspace (`{ kind: 'path', path }`), as `--attach`. */
	readonly attachments?: readonly AttachmentRequest[];
	/** The team config the user named (`--config`); else the workspace's, else the default team. */
	readonly configFile?: string;
	/** Aborting cancels the run: it ends `cancelled`, its partial log stays in the run directory. */
	readonly signal: AbortSignal;
	/** The user's caps (`--max-cost`, `--max-tokens`); the config's `max_cost_usd` counts too. */
	readonly budget?: UserBudget;
	readonly coordinationTimeoutMs?: number;
	/** false: the agents get none of the project's instruction files (`--no-instructions`). */
	readonly instructions?: boolean;
	/** Every event, already redacted, in order (`formatEventLine` makes progress lines of them). */
	readonly onEvent?: (event: RunEvent) => void;
	/** Each line the run host says (trust, estimate, config notes), redacted, as it is said. */
	readonly onNote?: (line: string) => void;
	/** Keys, `HOME`/`XDG_CONFIG_HOME` (the trust and permission stores); default `process.env`. */
	readonly env?: NodeJS.ProcessEnv;
}

/** The total over the run's agents (`result.json`'s `usage`). */
export interface TeamCallUsage {
	readonly inputTokens: number;
	readonly outputTokens: number;
	readonly cachedInputTokens: number;
	/** USD at list prices; null when any call had no known price. */
	readonly costUsd: number | null;
}

/** A run that started; every text is redacted. */
export interface TeamCallRun {
	readonly runId: string;
	readonly runDir: string;
	readonly status: RunStatus;
	readonly finalAnswer: string | null;
	/** Why a run failed, timed out or stopped early (the run's error or its budget's reason). */
	readonly error?: string;
	readonly winner: RunResult['winner'];
	/** `winner: …` and one `voter → agent (label): reason` line per vote, as `massgen show` says them. */
	readonly voteSummary: string;
	readonly usage: TeamCallUsage;
	/** The proposed changes as a unified diff (`changes.patch`; `git apply` takes it), '' when none. */
	readonly patch: string;
	/** The changed files, workspace-relative. */
	readonly changedFiles: readonly string[];
	/** How to review and write the changes (a few lines), '' when there are none. */
	readonly applyHint: string;
	/** What the run host said (trust, estimate, tools' warnings), one line each. */
	readonly notes: readonly string[];
	/** The whole result, redacted (the client may want more: answers, per-agent usage). */
	readonly result: RunResult;
}

/**
 * Why no run started: `busy` (this process already runs on the workspace), `workspace` (not a
 * folder, or its `.massgen` is a link), `config` (the named file is missing), `team` (config errors with file:line:col, no
 * available member, a missing key), `trust` (the folder's own parts are not trusted), `follow-up`,
 * `attachment`, `estimate` (above `--max-cost`), `budget` (the day's cap spent: `mcp/callBudget.ts`),
 * `cancelled` (aborted before the run started).
 */
export type TeamCallRefusal = {
	readonly refused:
		'busy' | 'workspace' | 'attachment' | 'estimate' | 'budget' | 'cancelled' | PrepareRefusal['refused'];
	/** What to tell the client: the reason and what to do, redacted. */
	readonly message: string;
	readonly notes: readonly string[];
};

export type TeamCallOutcome =
	({ readonly ok: true } & TeamCallRun) | ({ readonly ok: false } & TeamCallRefusal);

/** Workspaces this process runs a team call on now (resolved paths). */
const running = new Set<string>();

/** Whether a team call runs on the workspace now (`massgen serve` answers 429 then). */
export function teamCallBusy(workspaceRoot: string): boolean {
	return running.has(resolve(workspaceRoot));
}

/**
 * Runs the team once, headless (see the file's comment). Never throws for what a user or a
 * workspace can cause: each is a refusal; one call at a time per workspace in this process.
 */
export async function teamCall(input: TeamCallInput): Promise<TeamCallOutcome> {
	const root = resolve(input.workspaceRoot);
	if (running.has(root)) {
		return {
			ok: false,
			refused: 'busy',
			message: 'the team is already working in this workspace',
			notes: [],
		};
	}
	running.add(root);
	try {
		return await callTeam(root, input);
	} finally {
		running.delete(root);
	}
}

async function callTeam(root: string, input: TeamCallInput): Promise<TeamCallOutcome> {
	const env = input.env ?? process.env;
	let redactor: Redactor = seedRedactor({ env });
	const notes: string[] = [];
	const note = (text: string) => {
		for (const line of redactor.text(text).split('\n')) {
			if (line.trim() === '') continue;
			notes.push(line);
			input.onNote?.(line);
		}
	};
	const refuse = (refused: TeamCallRefusal['refused'], message: string): TeamCallOutcome => ({
		ok: false,
		refused,
		message: redactor.text(message),
		notes,
	});
	if (!(await isDirectory(root))) return refuse('workspace', `workspace '${root}' is not a folder`);
	const host = cliRunHost(
		{
			...(input.configFile ? { config: input.configFile } : {}),
			// Nobody to ask: what needs asking is denied, and each denial tells the agent why.
			approvals: 'ask',
		},
		headlessIo(env, input.signal, note),
		root,
		{ interactive: false, learnSecrets: (learned) => (redactor = learned) },
	);
	const request: RunRequest = {
		question: input.question,
		workspaceRoot: root,
		...(input.history?.length ? { history: input.history } : {}),
		...(input.attachments?.length ? { attachments: input.attachments } : {}),
		signal: input.signal,
		...(input.budget ? { budget: input.budget } : {}),
		...(input.coordinationTimeoutMs ? { coordinationTimeoutMs: input.coordinationTimeoutMs } : {}),
		...(input.instructions === false ? { instructions: false } : {}),
	};
	let prepared;
	try {
		prepared = await prepareRun(request, host);
	} catch (error) {
		// `.massgen` or `.massgen/runs` is a link or a file: the folder's state, not an internal error.
		if (RunsDirError.is(error)) return refuse('workspace', error.message);
		throw error;
	}
	if (!prepared.ok) return refuse(prepared.refused, refusalMessage(prepared, notes));
	if (input.signal.aborted) return refuse('cancelled', 'cancelled before the run started');
	let outcome;
	try {
		const run = startRun(prepared.run, host);
		for await (const event of run.events) {
			if (event.type === 'notice' && event.source === 'tools') note(event.message);
			input.onEvent?.(event);
		}
		outcome = await run.result;
	} catch (error) {
		if (input.signal.aborted) return refuse('cancelled', 'cancelled before the run started');
		if (AttachmentError.is(error)) return refuse('attachment', error.message);
		if (RunsDirError.is(error)) return refuse('workspace', error.message);
		if (EstimateDeclinedError.is(error)) {
			return refuse('estimate', notes.join('\n') || 'not started: the cost estimate is above the budget');
		}
		throw error;
	}
	const { result, runDir } = outcome;
	const patch = result.changes.length > 0 ? await readRunPatch(runDir) : '';
	const reason = result.error ?? (result.status !== 'completed' ? result.budget?.reason : undefined);
	const text = (value: string) => redactor.text(value);
	return {
		ok: true,
		runId: result.runId,
		runDir,
		status: result.status,
		finalAnswer: result.finalAnswer === null ? null : text(result.finalAnswer),
		...(reason ? { error: text(reason) } : {}),
		winner: result.winner,
		voteSummary: text(
			[`winner: ${formatWinner(result)}`, ...formatVotes(result.votes).map((line) => `- ${line}`)].join('\n'),
		),
		usage: totalUsage(result.usage),
		patch: text(patch),
		changedFiles: result.changes.map((change) => change.path),
		applyHint: result.changes.length > 0 ? applyHint(root, runDir, result.runId) : '',
		notes,
		// Redacted like every other text here: review_changes reads its findings from it (an agent's
		// answer quoting a value the run knows reached the MCP client, whose own redactor knows only
		// the environment's, not the workspace .env's).
		result: redactor.json(result),
	};
}

/** How to review and write pending changes: nothing here writes them. */
function applyHint(root: string, runDir: string, runId: string): string {
	return [
		`review: massgen show ${runId} --workspace ${shellWord(root)}`,
		`apply: cd ${shellWord(root)} && git apply ${shellWord(runFile(runDir, 'patch'))}`,
		`or in VS Code: the MassGen Runs view, this run, Review Changes`,
	].join('\n');
}

function refusalMessage(refusal: PrepareRefusal, notes: readonly string[]): string {
	switch (refusal.refused) {
		case 'config':
			return missingConfig(refusal.file);
		case 'team':
			return refusal.resolution.issues.map(formatIssue).join('\n') || 'the team cannot run';
		case 'follow-up':
			return refusal.message;
		case 'trust':
			// A headless shell has no --trust-workspace: the user's own `massgen trust` is the way.
			return (
				notes.join('\n').replace(trustHint, "run 'massgen trust' in this folder") ||
				"the folder's own config would run programs or send keys, and it is not trusted: run 'massgen trust' in it"
			);
	}
}

function totalUsage(usage: RunResult['usage']): TeamCallUsage {
	const sum = (tokens: (agent: RunResult['usage'][number]) => number) =>
		usage.reduce((total, agent) => total + tokens(agent), 0);
	const priced = usage.every((agent) => agent.costUsd !== null);
	return {
		inputTokens: sum((agent) => agent.inputTokens),
		outputTokens: sum((agent) => agent.outputTokens),
		cachedInputTokens: sum((agent) => agent.cachedInputTokens ?? 0),
		costUsd: priced ? sum((agent) => agent.costUsd ?? 0) : null,
	};
}

/**
 * The run host's streams: no stdin (nobody to ask), stdout unused (a stdio protocol may own it),
 * and stderr collected line by line as notes.
 */
function headlessIo(env: NodeJS.ProcessEnv, signal: AbortSignal, note: (text: string) => void): CliIo {
	const lines = new Writable({
		write(chunk: Buffer | string, _encoding, done) {
			note(String(chunk).replace(/^massgen: /gm, ''));
			done();
		},
	});
	const stream = lines as unknown as NodeJS.WriteStream;
	return { stdout: stream, stderr: stream, env, signal };
}

async function isDirectory(path: string): Promise<boolean> {
	try {
		return (await stat(path)).isDirectory();
	} catch {
		return false;
	}
}
