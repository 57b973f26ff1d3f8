/**
 * `POST /v1/chat/completions` of `massgen serve`: the messages become a question and history
 * (`conversationRequest`), the model names a team, and the team runs headless (`teamCall`). The
 * answer is the final answer alone; with `stream: true` the progress goes out as SSE comments
 * (`: …` lines, which clients skip), then the answer as content chunks, the usage chunk when
 * asked, and `data: [DONE]`. Proposed changes stay pending in the run directory and are named in
 * the answer's last lines. A client that goes away cancels the run.
 */
import type { ServerResponse } from 'node:http';
import type { RunEvent } from '../../contract/runEvents.js';
import { conversationRequest } from '../../core/sessions/conversationTurns.js';
import { PlainDisplay } from '../display/plainDisplay.js';
import { teamCall, teamCallBusy, type TeamCallOutcome, type TeamCallRun } from '../headless/teamCall.js';
import {
	chunk,
	completion,
	conversationOf,
	errorBody,
	usageBlock,
	type ChatRequest,
	type CompletionIds,
	type ErrorType,
} from './openAiWire.js';
import { servedTeams } from './servedTeams.js';

export interface ServeContext {
	readonly root: string;
	/** `--config`. */
	readonly config: string | undefined;
	readonly env: NodeJS.ProcessEnv;
	/** A line on stderr (redacted there). */
	readonly log: (line: string) => void;
	/** Stopping the server aborts every run in it. */
	readonly signal: AbortSignal;
}

export async function chatCompletion(
	response: ServerResponse,
	body: ChatRequest,
	context: ServeContext,
): Promise<void> {
	const teams = await servedTeams(context.root, context.config);
	const team = teams.find((served) => served.id === body.model);
	if (!team) {
		const known = teams.map((served) => served.id).join(', ');
		return sendError(
			response,
			400,
			`unknown model '${body.model}' (this server has: ${known})`,
			'invalid_request_error',
			'model_not_found',
		);
	}
	const asked = conversationRequest(conversationOf(body));
	if (!asked.ok) return sendError(response, 400, asked.message, 'invalid_request_error');
	// Checked and claimed in one step (no await between): a second request gets 429, never a second run.
	if (teamCallBusy(context.root)) {
		return sendError(
			response,
			429,
			'the team is already working in this workspace; try again when it is done',
			'rate_limit_error',
			'workspace_busy',
		);
	}
	const controller = new AbortController();
	const stop = () => controller.abort();
	context.signal.addEventListener('abort', stop);
	// The client went away before the answer was written: the run stops (nothing is written, its log
	// stays). It may have gone already, while the body was read or the teams looked up: 'close' was then
	// emitted before anyone listened, and the run would go on for nobody, holding the workspace.
	const clientGone = () => {
		if (!response.writableFinished) controller.abort();
	};
	response.on('close', clientGone);
	if (response.destroyed) clientGone();
	const stream = body.stream === true ? new CompletionStream(response, body.model) : undefined;
	let outcome: TeamCallOutcome;
	try {
		outcome = await teamCall({
			workspaceRoot: context.root,
			question: asked.question,
			history: asked.history,
			configFile: team.configFile,
			signal: controller.signal,
			env: context.env,
			onNote: (line) => context.log(line),
			onEvent: (event) => stream?.onEvent(event),
		});
	} finally {
		context.signal.removeEventListener('abort', stop);
	}
	if (!outcome.ok) {
		context.log(`request refused (${outcome.refused}): ${outcome.message}`);
		if (outcome.refused === 'cancelled') return cancelled(response, stream, context);
		const [status, type, code] = refusalStatus[outcome.refused];
		return sendError(response, status, outcome.message, type, code);
	}
	context.log(`run ${outcome.runId}: ${outcome.status} (${body.model}), run log: ${outcome.runDir}`);
	if (outcome.status === 'cancelled') return cancelled(response, stream, context);
	const ids: CompletionIds = { id: `chatcmpl-${outcome.runId}`, model: body.model, created: nowSeconds() };
	const extra = { massgen: runFacts(outcome) };
	if (outcome.finalAnswer === null) {
		const message = `the team gave no answer (${outcome.status}${outcome.error ? `: ${outcome.error}` : ''}); run ${outcome.runId}`;
		if (stream) return stream.fail(errorBody(message, 'server_error', 'no_answer'));
		return sendError(response, 500, message, 'server_error', 'no_answer');
	}
	const content = answerText(outcome);
	const finish = outcome.status === 'completed' ? 'stop' : 'length';
	if (stream) {
		return stream.finish(ids, content, finish, outcome, extra, body.stream_options?.include_usage === true);
	}
	sendJson(response, 200, completion(ids, content, finish, outcome.usage, extra));
}

/** The client left (nobody to answer), or the server is stopping (it says so). */
function cancelled(
	response: ServerResponse,
	stream: CompletionStream | undefined,
	context: ServeContext,
): void {
	if (!context.signal.aborted) return void response.end();
	const message = 'the server is stopping: the run was cancelled';
	if (stream?.open) return stream.fail(errorBody(message, 'server_error', 'server_stopping'));
	sendError(response, 503, message, 'server_error', 'server_stopping');
}

type RefusalStatus = readonly [number, ErrorType, string];

const refusalStatus: Record<Extract<TeamCallOutcome, { ok: false }>['refused'], RefusalStatus> = {
	busy: [429, 'rate_limit_error', 'workspace_busy'],
	workspace: [503, 'server_error', 'team_unavailable'],
	config: [503, 'server_error', 'team_unavailable'],
	team: [503, 'server_error', 'team_unavailable'],
	trust: [403, 'permission_error', 'workspace_not_trusted'],
	estimate: [403, 'permission_error', 'over_budget'],
	budget: [403, 'permission_error', 'over_budget'],
	attachment: [400, 'invalid_request_error', 'attachment'],
	'follow-up': [400, 'invalid_request_error', 'follow_up'],
	cancelled: [499, 'invalid_request_error', 'cancelled'],
};

/** The final answer, then (when the run proposed changes) what they are and how to review them. */
export function answerText(run: TeamCallRun): string {
	const answer = run.finalAnswer?.trimEnd() ?? '';
	if (run.changedFiles.length === 0) return answer;
	return [
		answer,
		'',
		'---',
		`Proposed changes, pending (nothing was written): ${run.changedFiles.join(', ')}`,
		run.applyHint,
	].join('\n');
}

/** What a client may want beside the answer (OpenAI clients ignore unknown fields). */
function runFacts(run: TeamCallRun) {
	return {
		run_id: run.runId,
		run_dir: run.runDir,
		status: run.status,
		winner: run.winner?.agentId ?? null,
		votes: run.voteSummary,
		changed_files: run.changedFiles,
		...(run.error ? { error: run.error } : {}),
	};
}

/**
 * The SSE side: headers and the role chunk once the run has started (a refusal before that is
 * still a plain HTTP error), progress lines as comments, then the answer.
 */
class CompletionStream {
	private started = false;

	/** Whether the 200 and the role chunk went out (errors then go in the stream). */
	get open(): boolean {
		return this.started;
	}

	private readonly progress = new PlainDisplay({ write: (text) => this.comment(text) });

	constructor(
		private readonly response: ServerResponse,
		private readonly model: string,
	) {}

	onEvent(event: RunEvent): void {
		if (!this.started && event.type === 'run-start') {
			this.started = true;
			this.response.writeHead(200, {
				'content-type': 'text/event-stream; charset=utf-8',
				'cache-control': 'no-cache',
				connection: 'keep-alive',
			});
			const ids = { id: `chatcmpl-${event.runId}`, model: this.model, created: nowSeconds() };
			this.data(chunk(ids, { role: 'assistant', content: '' }));
		}
		if (this.started) this.progress.onEvent(event);
	}

	finish(
		ids: CompletionIds,
		content: string,
		finish: 'stop' | 'length',
		run: TeamCallRun,
		extra: Record<string, unknown>,
		includeUsage: boolean,
	): void {
		this.progress.close();
		for (const piece of content.match(/[^\n]*\n|[^\n]+$/g) ?? []) this.data(chunk(ids, { content: piece }));
		this.data(chunk(ids, {}, finish, extra));
		if (includeUsage) this.data({ ...chunk(ids, null), usage: usageBlock(run.usage) });
		this.done();
	}

	fail(error: unknown): void {
		this.progress.close();
		this.data(error);
		this.done();
	}

	private comment(text: string): void {
		for (const line of text.split(/\r\n|\r|\n/)) if (line !== '') this.response.write(`: ${line}\n\n`);
	}

	private data(value: unknown): void {
		this.response.write(`data: ${JSON.stringify(value)}\n\n`);
	}

	private done(): void {
		this.response.end('data: [DONE]\n\n');
	}
}

export function sendJson(response: ServerResponse, status: number, value: unknown): void {
	if (response.headersSent) return void response.end();
	const text = JSON.stringify(value);
	response.writeHead(status, {
		'content-type': 'application/json',
		'content-length': Buffer.byteLength(text),
	});
	response.end(text);
}

export function sendError(
	response: ServerResponse,
	status: number,
	message: string,
	type: ErrorType,
	code: string | null = null,
): void {
	sendJson(response, status, errorBody(message, type, code));
}

function nowSeconds(): number {
	return Math.floor(Date.now() / 1000);
}
